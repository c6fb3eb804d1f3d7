/**
 * The customer's page, `/c/{token}` (docs/customer-link.md), outside the API: a good link answers the app (its
 * screen reads `/api/c/{token}/…`), the view recorded; a revoked or expired one 410 and a wrong one 404, each as a
 * plain Russian page that names no customer; guesses limited as the API's (429).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { guessLimiter, openLink } from './links.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function plainPage(title: string, text: string): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2937;line-height:1.5}h1{font-size:1.4rem}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
}

const TITLES: Record<number, string> = { 404: 'Ссылка не найдена', 410: 'Ссылка больше не действует', 429: 'Слишком много попыток' };

export function installCustomerPage(app: FastifyInstance, ctx: AppContext, hasDist: boolean): void {
  const limiter = guessLimiter(ctx.db);
  app.get('/c/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    try {
      await openLink(ctx.db.kysely, limiter, token, request, 'Страница');
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return reply
        .status(error.statusCode)
        .headers({ ...error.headers, 'cache-control': 'no-store' })
        .type('text/html; charset=utf-8')
        .send(plainPage(TITLES[error.statusCode] ?? 'Ссылка не открылась', error.detail));
    }
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
    if (hasDist) return reply.sendFile('index.html');
    return reply.type('text/html; charset=utf-8').send(plainPage('Рейсы заказчика', 'Клиент не собран: выполните npm run build.'));
  });
}
