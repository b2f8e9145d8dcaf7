import { Transform, type Readable } from 'node:stream';
import { errorCodes, type FastifyInstance } from 'fastify';

/**
 * What an HTML form of this service may send (urlencoded): every console, OAuth and signing form
 * but a Finish with attached files, which raises it by its route's `config.formLimit`.
 */
export const FORM_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A urlencoded body's limit on this route, past FORM_LIMIT. */
    formLimit?: number;
  }
}

const URLENCODED = /^\s*application\/x-www-form-urlencoded\s*(?:;|$)/i;

/**
 * Bounds urlencoded bodies before they are read. A form is parsed on the event loop, field by
 * field, before any handler sees who sent it: 35 MB of tiny fields (the API's body limit, which
 * envelopes need) stalled an instance for 17 s and took a gigabyte, from anyone. The bound
 * applies to the announced length and, for a chunked body, to the bytes as they come.
 */
export function installFormLimit(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!URLENCODED.test(request.headers['content-type'] ?? '')) return payload;
    const limit = request.routeOptions.config.formLimit ?? FORM_LIMIT;
    if (Number(request.headers['content-length']) > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    return bounded(payload, limit);
  });
}

function bounded(payload: Readable, limit: number): Readable {
  let seen = 0;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      else done(null, chunk);
    },
  });
  payload.on('error', (err) => out.destroy(err));
  return payload.pipe(out);
}
