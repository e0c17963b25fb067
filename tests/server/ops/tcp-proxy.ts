// A TCP proxy on loopback in front of a server (PostgreSQL here) whose link a test can cut, stall and restore. Cutting
// destroys every open connection and refuses new ones (accepted and closed at once), as a database that went away
// would; stalling forwards nothing more and holds new connections open without an answer, as a network that drops
// packets would; restoring drops what was held and lets new connections through again.
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttableProxy {
  port: number;
  cut(): void;
  stall(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function cuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  let mode: 'open' | 'cut' | 'stalled' = 'open';
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  const server = createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    if (mode === 'stalled') {
      track(client);
      client.on('error', () => undefined);
      return;
    }
    const upstream = connect(target);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      mode = 'cut';
      for (const socket of open) socket.destroy();
    },
    stall: () => {
      mode = 'stalled';
      for (const socket of open) {
        socket.unpipe();
        socket.pause();
      }
    },
    restore: () => {
      if (mode === 'stalled') for (const socket of open) socket.destroy();
      mode = 'open';
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
