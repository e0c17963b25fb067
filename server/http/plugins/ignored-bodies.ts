// GET, HEAD and DELETE routes take no body here. A client may still send one (some HTTP clients do on DELETE); Fastify
// would parse it anyway, answer 400 when it is not JSON and close the kept-alive connection under the client's next
// request. Such a body is read (within the body limit) and ignored instead, so the route answers as it would without
// it and the connection stays usable.
import type { FastifyInstance } from 'fastify';

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD', 'DELETE']);
/** A private media type the hook gives such requests, so that only the draining parser below ever sees them. */
const IGNORED = 'application/x-arbitrage-ignored-body';

export function ignoreBodiesWhereNoneIsTaken(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!METHODS_WITHOUT_BODY.has(request.method)) return;
    const length = request.headers['content-length'];
    const hasBody = request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    // An empty body with a JSON content type is an error to Fastify ("empty JSON body"): no body, no content type.
    if (hasBody) request.headers['content-type'] = IGNORED;
    else delete request.headers['content-type'];
  });
  app.addContentTypeParser(IGNORED, { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
}
