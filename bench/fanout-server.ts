// The fan-out benchmark's server process: either the product's Socket.IO gateway (attachRealtime, coalescing off,
// broadcasting to the signed-in room) or a raw `ws` server broadcasting the same JSON. Driven over IPC.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Subject } from 'rxjs';
import { Server } from 'socket.io';
import { WebSocketServer } from 'ws';
import type { EngineEvent } from '../server/engine/events';
import { attachRealtime } from '../server/realtime';
import { clockMs, TRANSPORTS } from './fanout-protocol';
import type { BenchPrice, ServerCommand, ServerReply, Transport } from './fanout-protocol';

const transport = process.argv[2] as Transport;
if (!process.send || !TRANSPORTS.includes(transport)) throw new Error('fanout-server: run by bench/fanout.ts');
const reply = (message: ServerReply) => process.send?.(message);

const http = createServer();
let broadcast: (price: BenchPrice) => void;
let shutdown: () => Promise<void>;

if (transport === 'socketio') {
  const events = new Subject<EngineEvent>();
  const silent = {
    info: () => undefined,
    warn: () => undefined,
    error: (obj: object, msg?: string) => console.error(msg, obj),
  };
  const realtime = attachRealtime(http, {
    verifyToken: async (token) => (token === 'bench' ? { id: 'bench' } : null),
    events$: events,
    priceHz: Number.POSITIVE_INFINITY,
    logger: silent,
  });
  broadcast = (price) => events.next({ type: 'priceUpdate', price });
  shutdown = () => realtime.close();
} else if (transport === 'socketio-deflate') {
  // Socket.IO with per-message deflate negotiated (ws's default 1 KB threshold: these small messages stay
  // uncompressed), which turns off the broadcast's pre-computed WebSocket frame.
  const io = new Server(http, { transports: ['websocket'], serveClient: false, perMessageDeflate: true });
  io.on('connection', (socket) => void socket.join('signed-in'));
  broadcast = (price) => void io.to('signed-in').emit('priceUpdate', price);
  shutdown = async () => {
    io.disconnectSockets(true);
    io.engine.close();
  };
} else {
  const wss = new WebSocketServer({ server: http, path: '/raw', perMessageDeflate: false });
  broadcast = (price) => {
    // Encode once to bytes, write to every socket as a text frame: a string would be converted once per socket.
    const data = Buffer.from(JSON.stringify(price));
    for (const socket of wss.clients) socket.send(data, { binary: false });
  };
  shutdown = async () => {
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  };
}

let seq = 0;
function send(): void {
  seq += 1;
  const binance = 60_000 + (seq % 100);
  broadcast({
    symbol: seq % 2 === 0 ? 'BTC/USDT' : 'ETH/USDT',
    binance,
    deriv: binance * 1.0012,
    spread: 0.0012,
    arbitrage: { profitable: false },
    timestamp: new Date().toISOString(),
    stale: false,
    ageMs: { binance: 0, deriv: 0 },
    sentAt: clockMs(),
  });
}

process.on('message', (command: ServerCommand) => {
  switch (command.type) {
    case 'burst':
      for (let i = 0; i < command.count; i++) send();
      reply({ type: 'burst-sent', sent: command.count });
      return;
    case 'pace': {
      // Catch up to rate × elapsed on each tick, so timer jitter does not change the offered load.
      const start = clockMs();
      let sent = 0;
      const timer = setInterval(() => {
        const elapsed = Math.min(clockMs() - start, command.durationMs);
        const due = Math.floor((elapsed * command.perSecond) / 1000);
        while (sent < due) {
          send();
          sent += 1;
        }
        if (elapsed >= command.durationMs) {
          clearInterval(timer);
          reply({ type: 'pace-done', sent });
        }
      }, 5);
      return;
    }
    case 'cpu': {
      const usage = process.cpuUsage();
      reply({ type: 'cpu', userMicros: usage.user, systemMicros: usage.system });
      return;
    }
    case 'stop':
      void shutdown().then(() => {
        http.closeAllConnections();
        http.close(() => process.exit(0));
      });
  }
});
process.on('disconnect', () => process.exit(0));

http.listen(0, '127.0.0.1');
await once(http, 'listening');
reply({ type: 'listening', port: (http.address() as AddressInfo).port });
