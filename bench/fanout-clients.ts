// The fan-out benchmark's client process: N sockets of one transport to the server, counting what they hear and
// recording each message's latency from the timestamp in its payload. Driven over IPC.
import { io } from 'socket.io-client';
import { WebSocket } from 'ws';
import { BUCKETS, clockMs, record, TRANSPORTS } from './fanout-protocol';
import type { BenchPrice, ClientCommand, ClientLib, ClientReply, Transport } from './fanout-protocol';

const [transport, port, countArg, clientLib = 'socket.io-client'] = process.argv.slice(2) as [
  Transport,
  string,
  string,
  ClientLib?,
];
const count = Number(countArg);
if (!process.send || !(count > 0) || !TRANSPORTS.includes(transport))
  throw new Error('fanout-clients: run by bench/fanout.ts');
const reply = (message: ClientReply) => process.send?.(message);

let received = 0;
let histogram = new Uint32Array(BUCKETS);
let target = Number.POSITIVE_INFINITY;
let reachedSent = false;
let cpuAtPhase = 0;
const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};
const closers: Array<() => void> = [];

function hear(price: BenchPrice): void {
  received += 1;
  record(histogram, clockMs() - price.sentAt);
  if (!reachedSent && received >= target) {
    reachedSent = true;
    reply({ type: 'reached' });
  }
}

function openSocketIo(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = io(`http://127.0.0.1:${port}`, {
      forceNew: true,
      transports: ['websocket'],
      reconnection: false,
      auth: { token: 'bench' },
    });
    socket.on('priceUpdate', (price) => hear(price as BenchPrice));
    socket.once('connect', () => resolve(true));
    socket.once('connect_error', () => resolve(false));
    closers.push(() => socket.close());
  });
}

/**
 * A Socket.IO client at the wire level (Engine.IO 4 over a plain `ws` socket): open, namespace connect with the
 * token, pong, and events decoded with one JSON.parse, as cheap as a raw ws client. It takes client-side CPU
 * out of the comparison on a machine where clients and server share two cores.
 */
function openSocketIoWire(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`, {
      // Offer deflate only where the server variant negotiates it, as socket.io-client does by default.
      perMessageDeflate: transport === 'socketio-deflate',
    });
    socket.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('42')) {
        const [event, payload] = JSON.parse(text.slice(2)) as [string, BenchPrice];
        if (event === 'priceUpdate') hear(payload);
      } else if (text === '2') socket.send('3');
      else if (text.startsWith('0{')) socket.send(`40${JSON.stringify({ token: 'bench' })}`);
      else if (text.startsWith('40')) resolve(true);
      else if (text.startsWith('44')) resolve(false);
    });
    socket.once('error', () => resolve(false));
    closers.push(() => socket.terminate());
  });
}

function openWs(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/raw`, { perMessageDeflate: false });
    socket.on('message', (data) => hear(JSON.parse(String(data)) as BenchPrice));
    socket.once('open', () => resolve(true));
    socket.once('error', () => resolve(false));
    closers.push(() => socket.terminate());
  });
}

// Connect in batches: a thousand simultaneous handshakes measure the accept queue, not the fan-out.
let failed = 0;
for (let opened = 0; opened < count; opened += 50) {
  const open = transport === 'ws' ? openWs : clientLib === 'wire' ? openSocketIoWire : openSocketIo;
  const batch = Array.from({ length: Math.min(50, count - opened) }, () => open());
  failed += (await Promise.all(batch)).filter((ok) => !ok).length;
}
reply({ type: 'ready', clients: count - failed, failed });

process.on('message', (command: ClientCommand) => {
  switch (command.type) {
    case 'phase':
      received = 0;
      histogram = new Uint32Array(BUCKETS);
      target = Number.POSITIVE_INFINITY;
      reachedSent = false;
      cpuAtPhase = cpuMicros();
      return;
    case 'expect':
      target = command.perClient * (count - failed);
      reachedSent = false;
      if (received >= target) {
        reachedSent = true;
        reply({ type: 'reached' });
      }
      return;
    case 'report':
      reply({ type: 'report', received, histogram: Array.from(histogram), cpuMicros: cpuMicros() - cpuAtPhase });
      return;
    case 'stop':
      for (const close of closers) close();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
