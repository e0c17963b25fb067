// One error handler for the whole API: every failure becomes `{ success: false, message, errors? }` with a status
// that says whose fault it was. 5xx answers never carry details; those go to the log only.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorItem, ErrorResponse } from '../../../contract/api';
import { Refusal } from '../../sign-in/refusal';
import { HttpError } from './http-error';

/** Fastify's own request errors, reworded for the person reading them. */
const FASTIFY_MESSAGES: Record<string, (limit: number) => string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => 'Unsupported content type. Send JSON with Content-Type: application/json.',
  FST_ERR_CTP_BODY_TOO_LARGE: (limit) => `Request body is too large (at most ${limit} bytes).`,
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'Request body is empty but Content-Type says JSON. Send a JSON object.',
  FST_ERR_CTP_INVALID_JSON_BODY: () => 'Request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Request body size does not match Content-Length.',
  FST_ERR_BAD_URL: () => 'The URL is malformed.',
  FST_ERR_MAX_PARAM_LENGTH: () => 'A value in the URL path is too long.',
};

/**
 * Errors the router raises before any route or error handler runs (a malformed URL, an over-long path parameter):
 * given to Fastify as `frameworkErrors`, so these too answer in the API's error shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const reworded = FASTIFY_MESSAGES[error.code];
  void reply
    .code(error.statusCode ?? 400)
    .send({ success: false, message: reworded ? reworded(0) : 'The request is malformed.' } satisfies ErrorResponse);
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time. Send it again.'],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
};
const answeredSockets = new WeakSet<Socket>();
/** How long a client may take to close its side after the answer to its broken request. */
const CLOSE_GRACE_MS = 2000;

/**
 * Errors of the connection below the request level (given to Fastify as `clientErrorHandler`): a request the HTTP
 * parser cannot read, or one whose headers or body did not arrive within HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS. The
 * answer is in the API's shape and says `Connection: close` (a connection cannot carry another request after a broken
 * one); it never goes into the middle of another answer, and follows the answer to an earlier request pipelined on the
 * connection. The connection is then closed in order — our FIN after the answer, the client's data read to its end,
 * cut off if the client lingers — rather than reset, which can lose the answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || answeredSockets.has(socket)) return;
  answeredSockets.add(socket);
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request is malformed.'];
  const body = JSON.stringify({ success: false, message } satisfies ErrorResponse);
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  let done = false;
  const answer = () => {
    if (done) return;
    done = true;
    // Never into the middle of another answer.
    if (socket.writable && !(inFlight && inFlight.headersSent && !inFlight.writableFinished))
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n\r\n${body}`,
      );
    socket.end();
    socket.resume();
    const cutOff = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    cutOff.unref();
    socket.once('close', () => clearTimeout(cutOff));
  };
  // A timed-out request is the one in flight: it is answered now. A request the parser could not read never got
  // that far; the answer to an earlier request of the connection (pipelined with it) goes out first, whole.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !inFlight || inFlight.writableFinished) return answer();
  inFlight.once('finish', answer);
  inFlight.once('close', answer);
  setTimeout(answer, CLOSE_GRACE_MS).unref();
}

/** Turns '/legs/0/price' or '' into 'legs.0.price' or undefined. */
function pathOf(instancePath: string | undefined): string | undefined {
  const path = (instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  return path === '' ? undefined : path;
}

const PART_NAMES: Record<string, string> = {
  body: 'Request body',
  querystring: 'Query string',
  params: 'URL parameters',
  headers: 'Headers',
};

function validationAnswer(error: {
  validation: { instancePath?: string; message?: string }[];
  validationContext?: string;
}): ErrorResponse {
  const part = PART_NAMES[error.validationContext ?? 'body'] ?? 'Request';
  const all: ErrorItem[] = error.validation.map((issue) => {
    const path = pathOf(issue.instancePath);
    let msg = issue.message ?? 'Invalid value';
    // zod's type errors ('Invalid input: expected string, received undefined') name no field; add it.
    if (msg.startsWith('Invalid input'))
      msg = path
        ? `${path}: ${msg.replace('Invalid input: ', '')}`
        : `${part} is not valid: ${msg.replace('Invalid input: ', '')}`;
    return path ? { msg, path } : { msg };
  });
  // One message per field, the first that failed: an empty username is 'required', not also 'too short'.
  const seen = new Set<string>();
  const errors = all.filter((item) => {
    const key = item.path ?? '';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { success: false, message: errors[0]?.msg ?? `${part} is not valid`, errors };
}

/** Answers a GET outside /api that matched no route (the PWA's index.html for client-side routes). */
export type ClientFallback = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

export function registerErrorHandling(app: FastifyInstance, clientFallback?: ClientFallback): void {
  const bodyLimit = app.config.bodyLimit;

  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError || error instanceof Refusal) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ success: false, message: error.message } satisfies ErrorResponse);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(validationAnswer(error));
    }
    const code = 'code' in error ? String(error.code) : '';
    // A path no route takes is unknown whatever its body: the body parser's complaint (read before the not-found
    // handler runs) would answer a 400 where the path deserves its 404.
    if (request.is404 && code.startsWith('FST_ERR_CTP_')) return reply.code(404).send(notFoundAnswer(request));
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    const reworded = FASTIFY_MESSAGES[code];
    if (reworded)
      return reply.code(status).send({ success: false, message: reworded(bodyLimit) } satisfies ErrorResponse);
    // A unique index caught a race between two writers of the same username or e-mail.
    if (code === '23505')
      return reply
        .code(409)
        .send({ success: false, message: 'That username or email is already in use' } satisfies ErrorResponse);
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ success: false, message: error.message } satisfies ErrorResponse);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ success: false, message: 'Internal server error' } satisfies ErrorResponse);
  });

  // Unknown API paths answer JSON; everything else is the client's business (see server/http/client/index.ts).
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
    if (clientFallback && !isApi && (request.method === 'GET' || request.method === 'HEAD'))
      return clientFallback(request, reply);
    return reply.code(404).send(notFoundAnswer(request));
  });
}

const notFoundAnswer = (request: FastifyRequest): ErrorResponse => ({
  success: false,
  message: `Not found: ${request.method} ${request.url.split('?')[0]}`,
});
