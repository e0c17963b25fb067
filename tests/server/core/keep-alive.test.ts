// A body on a method that takes none (GET, DELETE) is answered as if it were absent, and the kept-alive connection
// carries the next request: checked on a raw socket, as a client that reuses its connection sees it.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';

/** Reads HTTP/1.1 responses off one socket, each with its status, headers and Content-Length body. */
function responses(socket: Socket) {
  let buffer = '';
  const waiting: Array<() => void> = [];
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    waiting.splice(0).forEach((wake) => wake());
  });
  socket.on('close', () => {
    closed = true;
    waiting.splice(0).forEach((wake) => wake());
  });
  return async function next(): Promise<{ status: number; headers: Record<string, string>; body: string } | 'closed'> {
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine = '', ...lines] = buffer.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length >= end + 4 + length) {
          const body = buffer.slice(end + 4, end + 4 + length);
          buffer = buffer.slice(end + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (closed) return 'closed';
      await new Promise<void>((wake) => waiting.push(wake));
    }
  };
}

describe('bodies on methods that take none, over a kept-alive connection', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers GET and DELETE with any body as without one, and keeps the connection for the next request', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const next = responses(socket);
    const request = (method: string, path: string, body: string, contentType = 'application/json') =>
      `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.admin.token}\r\nContent-Type: ${contentType}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`;
    const victim = await t.createUser();
    const cases: Array<[string, string, string, string | undefined, number]> = [
      ['GET', '/api/auth/profile', 'not json at all', undefined, 200],
      ['GET', '/api/admin/users', '{"search": 1', 'text/plain', 200],
      ['DELETE', '/api/admin/users/not-an-id', '{broken', undefined, 400],
      ['DELETE', '/api/admin/users/not-an-id', '', undefined, 400],
      ['DELETE', `/api/admin/users/${victim.user._id}`, '\u0000', 'application/octet-stream', 200],
    ];
    for (const [method, path, body, contentType, status] of cases) {
      socket.write(request(method, path, body, contentType));
      const answer = await next();
      expect(answer, `${method} ${path} ${body}`).not.toBe('closed');
      if (answer === 'closed') return;
      expect(answer.status, `${method} ${path} ${answer.body}`).toBe(status);
      expect(answer.headers.connection, `${method} ${path}`).toBe('keep-alive');
    }
    // The same connection still serves a plain request.
    socket.write(`GET /api/auth/profile HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.admin.token}\r\n\r\n`);
    const last = await next();
    expect(last === 'closed' ? 'closed' : last.status).toBe(200);
    socket.destroy();
  });
});
