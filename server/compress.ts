/**
 * Compression of JSON answers: br when the client takes it, else gzip, for bodies of at least
 * `JSON_MIN_BYTES`. Only JSON that Fastify serialized (a string or a Buffer in onSend) — never a stream
 * (photos, xlsx downloads, exports), never a body that already has a Content-Encoding, and never the change
 * feed (`GET /api/events/` hijacks its reply and writes to the socket itself, so no onSend runs for it).
 * Static files are not compressed here: the build writes .br/.gz copies and @fastify/static sends those.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Below this, compression saves less than it costs (headers, CPU). */
export const JSON_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

export type Coding = 'br' | 'gzip';

/**
 * The coding to use for an Accept-Encoding header: br, then gzip, among those the client accepts with a
 * q-value above 0 (`*` stands for any coding not named). No header, or neither accepted: null (identity).
 */
export function negotiate(header: string | undefined): Coding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: Coding) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/** Appends accept-encoding to Vary, keeping what is there. */
export function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : typeof current === 'string' ? current : '';
  const tokens = value.split(',').map((t) => t.trim().toLowerCase());
  if (tokens.includes('accept-encoding') || tokens.includes('*')) return;
  reply.header('vary', value ? `${value}, accept-encoding` : 'accept-encoding');
}

export function installJsonCompression(app: FastifyInstance, minBytes = JSON_MIN_BYTES): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) return payload;
    const status = reply.statusCode;
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) return payload;
    // Measured without copying: most answers are small and leave as they came.
    if ((Buffer.isBuffer(payload) ? payload.length : Buffer.byteLength(payload)) < minBytes) return payload;

    varyOnAcceptEncoding(reply);
    const accept = request.headers['accept-encoding'];
    const coding = negotiate(Array.isArray(accept) ? accept.join(',') : accept);
    if (!coding) return payload;
    const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    // Quality 5 / level 6: most of the gain at a few ms per 100 kB; the static files get the highest levels
    // once, at build time.
    const compressed =
      coding === 'br'
        ? await brotli(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          })
        : await gz(bytes, { level: 6 });
    reply.header('content-encoding', coding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
