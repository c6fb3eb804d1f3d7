import { describe, expect, it } from 'vitest';
import { isAppNavigation, networkFirstNavigation } from '../../sw/navigation.ts';

const origin = 'https://reis.test';
const shell = () => Promise.resolve(new Response('<!doctype html><title>Рейс</title>', { status: 200 }));
const noShell = () => Promise.resolve(undefined);

describe('isAppNavigation', () => {
  const nav = (url: string, mode: RequestMode = 'navigate', method = 'GET') => ({ url, mode, method });

  it('takes page loads of the app', () => {
    expect(isAppNavigation(nav(`${origin}/`), origin)).toBe(true);
    expect(isAppNavigation(nav(`${origin}/current-tasks?x=1`), origin)).toBe(true);
    expect(isAppNavigation(nav(`${origin}/apiary`), origin)).toBe(true);
  });

  it('leaves the API, other origins and non-navigations to the network', () => {
    expect(isAppNavigation(nav(`${origin}/api/tasks/assigned/`), origin)).toBe(false);
    expect(isAppNavigation(nav(`${origin}/api`), origin)).toBe(false);
    expect(isAppNavigation(nav('https://elsewhere.test/'), origin)).toBe(false);
    expect(isAppNavigation(nav(`${origin}/assets/app.js`, 'cors'), origin)).toBe(false);
    expect(isAppNavigation(nav(`${origin}/`, 'navigate', 'POST'), origin)).toBe(false);
  });
});

describe('networkFirstNavigation', () => {
  it('answers from the network when it answers', async () => {
    const response = await networkFirstNavigation({ network: async () => new Response('fresh'), shell });
    expect(await response.text()).toBe('fresh');
  });

  it('answers the precached shell when the network fails', async () => {
    const response = await networkFirstNavigation({
      network: () => Promise.reject(new TypeError('Failed to fetch')),
      shell,
    });
    expect(await response.text()).toContain('Рейс');
  });

  // Issue 30 item 18: Firefox resolves a failed navigation preload with a network-error response instead of
  // rejecting; passed on, it showed «Problem loading page».
  it('answers the shell when the network answers with a network-error response (status 0)', async () => {
    const response = await networkFirstNavigation({ network: async () => Response.error(), shell });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Рейс');
  });

  it('answers the shell when the upstream is down (5xx)', async () => {
    const response = await networkFirstNavigation({ network: async () => new Response('bad gateway', { status: 502 }), shell });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Рейс');
  });

  it('passes a 4xx page through: that is the server speaking', async () => {
    const response = await networkFirstNavigation({ network: async () => new Response('nope', { status: 404 }), shell });
    expect(response.status).toBe(404);
  });

  it('answers the shell when the network stalls past the time-out', async () => {
    const started = Date.now();
    const response = await networkFirstNavigation({ network: () => new Promise<Response>(() => undefined), shell, timeoutMs: 30 });
    expect(await response.text()).toContain('Рейс');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers a network error when neither network nor shell exists', async () => {
    const response = await networkFirstNavigation({ network: () => Promise.reject(new TypeError('offline')), shell: noShell });
    expect(response.type).toBe('error');
  });
});
