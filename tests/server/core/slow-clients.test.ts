// Connections that misbehave below the request level, on raw sockets as such clients send them: a request whose
// headers or body trickle in is answered 408 and closed once REQUEST_TIMEOUT_MS / HEADERS_TIMEOUT_MS have passed,
// and a malformed request on a kept-alive connection is answered in the API's shape with `Connection: close`.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';

/** Everything the server sends on the socket until it closes it, or 'still open' after `waitMs`. */
function untilClosed(socket: Socket, waitMs: number): Promise<string | 'still open'> {
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => void (received += chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still open'), waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

const opened = async (port: number): Promise<Socket> => {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
};

const headersOf = (answer: string) =>
  Object.fromEntries(
    answer
      .slice(0, answer.indexOf('\r\n\r\n'))
      .split('\r\n')
      .slice(1)
      .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );

describe('slow and broken clients', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1000' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 408 and closes a connection whose body does not arrive in time', async () => {
    const socket = await opened(port);
    const closed = untilClosed(socket, 10_000);
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\nConnection: keep-alive\r\n\r\n{"username":',
    );
    const answer = await closed;
    expect(answer).not.toBe('still open');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(headersOf(answer).connection).toBe('close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      message: 'The request did not arrive in time. Send it again.',
    });
  });

  it('closes a connection whose headers do not arrive in time', async () => {
    const socket = await opened(port);
    const closed = untilClosed(socket, 10_000);
    socket.write('GET /api/meta HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const answer = await closed;
    expect(answer).not.toBe('still open');
    expect(answer === '' || /^HTTP\/1\.1 408 /.test(answer)).toBe(true);
  });

  const GOOD = 'GET /api/auth/registration HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n';
  const BROKEN = 'GET /api/auth/registration HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n';

  it('answers a malformed request on a kept-alive connection with Connection: close, then closes it', async () => {
    const socket = await opened(port);
    const closed = untilClosed(socket, 10_000);
    socket.write(GOOD);
    await new Promise((resolve) => socket.once('data', resolve));
    socket.write(BROKEN);
    const answer = await closed;
    expect(answer).not.toBe('still open');
    const [first = '', second = ''] = answer.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(headersOf(second).connection).toBe('close');
    expect(headersOf(second)['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      message: 'The request is malformed.',
    });
  });

  it('answers a request pipelined before the broken one first, whole', async () => {
    const socket = await opened(port);
    const closed = untilClosed(socket, 10_000);
    socket.write(GOOD + BROKEN);
    const answer = await closed;
    expect(answer).not.toBe('still open');
    const [first = '', second = ''] = answer.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(JSON.parse(first.slice(first.indexOf('\r\n\r\n') + 4))).toEqual({ success: true, open: false });
    expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});
