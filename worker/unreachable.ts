/**
 * What an HTTP status says about the server or the link rather than the request: 502, 503, 504
 * and 429, a 408 (the body did not arrive whole in time: a slow link, docs/hardening.md), and a 5xx without our
 * `{"detail": "..."}` body (a proxy's error page), mean the server is busy or unreachable for a moment, not
 * that it refused what was sent. The outbox does not count such an answer as an attempt (as a network
 * error, docs/product.md §4). No imports: the service worker's flush uses it too.
 */
export function serverUnreachable(status: number | null, hasDetail: boolean): boolean {
  if (status === null) return false;
  return status === 408 || status === 429 || status === 502 || status === 503 || status === 504 || (status >= 500 && !hasDetail);
}

export const SERVER_UNREACHABLE = 'Сервер временно недоступен. Попробуйте позже.';
