/** Which answers the outbox must not count as an attempt: the server or the link failed, not the report. */
import { describe, expect, it } from 'vitest';
import { serverUnreachable } from '../../worker/unreachable.ts';

describe('serverUnreachable', () => {
  it('a timed-out body, a throttle, a gateway or a busy server is not a refusal', () => {
    for (const status of [408, 429, 502, 503, 504]) expect(serverUnreachable(status, true)).toBe(true);
    // A proxy's own 500 page (no JSON detail) says nothing about the report; our 500 with a detail does.
    expect(serverUnreachable(500, false)).toBe(true);
    expect(serverUnreachable(500, true)).toBe(false);
  });

  it('a refusal of the request itself counts, and no answer at all is a network error, not this', () => {
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422]) expect(serverUnreachable(status, true)).toBe(false);
    expect(serverUnreachable(null, false)).toBe(false);
  });
});
