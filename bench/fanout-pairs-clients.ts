// The pairs fan-out benchmark's client process: N Socket.IO connections at the wire level (Engine.IO 4 over a plain
// `ws` socket, as cheap as a raw client, so the clients' CPU stays out of the server's figure), each watching the
// pairs it is told (`watch_pairs`, as the app does for the screen on show). Counts what each hears. Driven over IPC.
import { WebSocket } from 'ws';

export type WatchCommand = { type: 'watch'; pairs: string[] | null } | { type: 'count' } | { type: 'stop' };
export type WatchReply =
  | { type: 'ready'; clients: number }
  | { type: 'watching' }
  | { type: 'counted'; messages: number; bytes: number; clients: number };

const [port, countArg] = process.argv.slice(2) as [string, string];
const count = Number(countArg);
if (!process.send || !(count > 0)) throw new Error('fanout-pairs-clients: run by bench/fanout-pairs.ts');
const reply = (message: WatchReply) => process.send?.(message);

let messages = 0;
let bytes = 0;
const sockets: WebSocket[] = [];
/** Acks still due for the current watch request. */
let acksDue = 0;

function open(): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`, {
      perMessageDeflate: false,
    });
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('42["priceUpdate"')) {
        messages += 1;
        bytes += data.length;
      } else if (text === '2') socket.send('3');
      else if (text.startsWith('0{')) socket.send(`40${JSON.stringify({ token: 'bench' })}`);
      else if (text.startsWith('40')) resolve(socket);
      else if (text.startsWith('44')) resolve(null);
      else if (text.startsWith('431') && --acksDue === 0) reply({ type: 'watching' });
    });
    socket.once('error', () => resolve(null));
  });
}

// Connect in batches: simultaneous handshakes measure the accept queue, not the fan-out.
for (let opened = 0; opened < count; opened += 50) {
  const batch = await Promise.all(Array.from({ length: Math.min(50, count - opened) }, open));
  for (const s of batch) if (s) sockets.push(s);
}
reply({ type: 'ready', clients: sockets.length });

process.on('message', (command: WatchCommand) => {
  switch (command.type) {
    case 'watch':
      // With an ack id, so the orchestrator measures only once every connection watches what it asked for.
      acksDue = sockets.length;
      for (const s of sockets) s.send(`421${JSON.stringify(['watch_pairs', command.pairs])}`);
      return;
    case 'count':
      reply({ type: 'counted', messages, bytes, clients: sockets.length });
      messages = 0;
      bytes = 0;
      return;
    case 'stop':
      for (const s of sockets) s.terminate();
      process.exit(0);
  }
});
