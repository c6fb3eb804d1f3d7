/**
 * Uncaught client errors on the route table (server/routes/client-errors.ts): posting is public, because a page
 * that crashed may have no valid token, and bounded instead (a body cap, long fields cut, a rate limit per
 * address); a super-admin reads them newest first. The engine posts them itself (worker/error-reports.ts); the
 * table types and registers the call. Told to nobody on the change feed.
 */
import { z } from 'zod';
import { MAX_ID, wireInt } from '../fields.ts';
import { answer, area, GET, POST } from '../call.ts';
import { SUPER_ONLY } from '../roles.ts';
import { clientErrorSchema } from '../payloads.ts';
import type { ClientErrorEntry, Page } from '../entities.ts';

export const CLIENT_ERROR_BODY_LIMIT = 64 * 1024;

/** navigator.sendBeacon posts text/plain; its text is the same JSON. */
function jsonOf(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** A report as JSON, or as a beacon's text of the same JSON. */
export const clientErrorBodySchema = z.preprocess(jsonOf, clientErrorSchema);

export const clientErrorPageQuerySchema = z.object({
  limit: wireInt(1, 200).default(50),
  offset: wireInt(0, MAX_ID).default(0),
});

export const clientErrorCalls = area(
  POST('/log-client-error', {
    roles: null,
    body: clientErrorBodySchema,
    bodyLimit: CLIENT_ERROR_BODY_LIMIT,
    status: 201,
    answer: answer<{ id: number }>(),
  }),
  GET('/client-errors/', { roles: SUPER_ONLY, query: clientErrorPageQuerySchema, answer: answer<Page<ClientErrorEntry>>() }),
);
