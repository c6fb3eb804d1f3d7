import { AxiosError } from 'axios';
import { describe, expect, it } from 'vitest';
import { KV } from '../../worker/db.ts';
import { datedXlsxName, filenameFrom, isNetworkError, toFailure } from '../../worker/http.ts';
import { SERVER_UNREACHABLE } from '../../worker/unreachable.ts';
import { deferred, networkFailure } from './doubles.ts';
import { driverWire, makeEngine, seedSession, serveAuth } from './harness.ts';

function withResponse(status: number, message = `Request failed with status code ${status}`, code?: string) {
  const error = new AxiosError(message, code);
  error.response = { status, data: {}, statusText: '', headers: {}, config: {} as never };
  return error;
}

describe('the network-error test (docs/product.md §8)', () => {
  it('no response is a network error', () => {
    expect(isNetworkError(new AxiosError('Request aborted'))).toBe(true);
  });
  it('code ERR_NETWORK is a network error, even with a response', () => {
    expect(isNetworkError(withResponse(502, 'Bad gateway', 'ERR_NETWORK'))).toBe(true);
  });
  it('code ECONNABORTED is a network error, even with a response', () => {
    expect(isNetworkError(withResponse(408, 'aborted', 'ECONNABORTED'))).toBe(true);
  });
  it.each(['Network Error', 'timeout of 10000ms exceeded', 'TypeError: Failed to fetch', 'NETWORK ERROR', 'Gateway TIMEOUT'])(
    'a message containing a network phrase counts, case-insensitively: %s',
    (message) => {
      expect(isNetworkError(withResponse(504, message))).toBe(true);
    },
  );
  it('a response without any of those is not a network error', () => {
    expect(isNetworkError(withResponse(500))).toBe(false);
    expect(isNetworkError(withResponse(401))).toBe(false);
  });
});

describe('failures', () => {
  it('carry the server detail, else the fallback, with status and the network flag', () => {
    const refused = withResponse(400);
    refused.response!.data = { detail: 'Поле email: некорректный e-mail' };
    expect(toFailure(refused, 'Login failed')).toEqual({ ok: false, message: 'Поле email: некорректный e-mail', status: 400, network: false });
    expect(toFailure(networkFailure(), 'Login failed')).toEqual({ ok: false, message: 'Login failed', status: null, network: true });
  });

  it('502, 503, 504, 429 and a 5xx without our detail (a proxy page) say the server is unreachable, not that it refused', () => {
    const ours500 = withResponse(500);
    ours500.response!.data = { detail: 'Внутренняя ошибка сервера' };
    expect(toFailure(ours500, 'Login failed')).toEqual({ ok: false, message: 'Внутренняя ошибка сервера', status: 500, network: false });
    expect(toFailure(withResponse(500), 'Login failed')).toEqual({ ok: false, message: 'Login failed', status: 500, network: false, unreachable: true });
    for (const status of [502, 503, 504, 429]) {
      const busy = withResponse(status);
      busy.response!.data = { detail: 'Сервер перегружен' };
      expect(toFailure(busy, 'x')).toMatchObject({ status, unreachable: true, network: false, message: 'Сервер перегружен' });
    }
    expect(toFailure(withResponse(404), 'Не найдено')).not.toHaveProperty('unreachable');
  });

  it('a generic call without a detail gets a Russian message', async () => {
    const { api, server } = await makeEngine();
    server.on('DELETE tasks/5/', () => ({ status: 409 }));
    const result = await api.send('DELETE', '/tasks/5/');
    expect(result).toEqual({ ok: false, message: 'Ошибка сервера (код 409)', status: 409, network: false });
    server.on('DELETE tasks/5/', () => ({ status: 502, data: '<html>Bad Gateway</html>' }));
    expect(await api.send('DELETE', '/tasks/5/')).toEqual({ ok: false, message: SERVER_UNREACHABLE, status: 502, network: false, unreachable: true });
  });
});

describe('requests', () => {
  it('carry the stored token as a bearer header, under /api/ of the origin', async () => {
    const { api, server, db } = await makeEngine();
    await seedSession(db, { access: 'stored-token', refresh: 'r' });
    server.on('GET tasks/assigned/', () => ({ status: 200, data: [] }));
    await api.get('/tasks/assigned/');
    expect(server.log[0]?.headers.authorization).toBe('Bearer stored-token');
    expect(server.log[0]?.path).toBe('tasks/assigned/');
  });

  it('a path starting with // stays under /api/ (the token never goes to another host)', async () => {
    const { api, server } = await makeEngine();
    server.on('POST evil.example/x', () => ({ status: 200, data: {} }));
    await api.send('POST', '//evil.example/x');
    expect(server.log[0]?.path).toBe('evil.example/x');
  });
});

describe('401 → one shared refresh → each request repeated once', () => {
  it('20 concurrent 401s make exactly one refresh and each request is retried once', async () => {
    const { api, server, db, clock } = await makeEngine();
    const auth = serveAuth(server, clock);
    const { refresh_token } = auth.grant();
    await seedSession(db, { access: 'expired-access', refresh: refresh_token });
    const refreshGate = deferred<void>();
    server.on('POST auth/refresh/', async (request) => {
      await refreshGate.promise;
      if ((request.body as { refresh_token: string }).refresh_token !== auth.state.refresh) return { status: 401, data: { detail: 'reuse' } };
      return { status: 200, data: auth.grant() };
    });
    for (let i = 0; i < 20; i++) {
      server.on(`GET items/${i}/`, (request) => (auth.authorised(request.headers) ? { status: 200, data: { i } } : { status: 401, data: { detail: 'Требуется вход' } }));
    }
    const calls = Array.from({ length: 20 }, (_, i) => api.get(`items/${i}/`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    refreshGate.resolve();
    const results = await Promise.all(calls);

    expect(server.count('POST auth/refresh/')).toBe(1);
    results.forEach((result, i) => expect(result).toMatchObject({ ok: true, data: { data: { i }, fromCache: false } }));
    for (let i = 0; i < 20; i++) expect(server.count(`GET items/${i}/`)).toBe(2);
    expect(await db.get('kv', KV.token)).toBe(auth.state.access);
    expect(await db.get('kv', KV.refresh)).toBe(auth.state.refresh);
  });

  it('a second 401 after the repeat is final: no loop, the server detail is answered', async () => {
    const { api, server, db, clock } = await makeEngine();
    const auth = serveAuth(server, clock);
    await seedSession(db, { access: 'a', refresh: auth.grant().refresh_token });
    server.on('GET secret/', () => ({ status: 401, data: { detail: 'Нет доступа' } }));
    const result = await api.get('secret/');
    expect(result).toEqual({ ok: false, message: 'Нет доступа', status: 401, network: false });
    expect(server.count('GET secret/')).toBe(2);
    expect(server.count('POST auth/refresh/')).toBe(1);
  });

  it('the refresh call itself never starts a refresh', async () => {
    const { api, server, db } = await makeEngine();
    await seedSession(db, { access: 'a', refresh: 'dead', profile: { ...driverWire, role: 'driver' } });
    server.on('POST auth/refresh/', () => ({ status: 401, data: { detail: 'Сессия недействительна' } }));
    server.on('GET users/me/', () => ({ status: 401, data: { detail: 'Требуется вход' } }));
    await api.fetchProfile();
    expect(server.count('POST auth/refresh/')).toBe(1);
  });
});

describe('downloads', () => {
  it('a 204 answers null; a 200 answers the file with the content-disposition name', async () => {
    const { api, server } = await makeEngine();
    server.on('GET tasks/completed/export/1/download', () => ({ status: 204 }));
    server.on('GET tasks/completed/export/2/download', () => ({
      status: 200,
      data: new Blob(['xlsx']),
      headers: { 'content-disposition': `attachment; filename="x.xlsx"; filename*=UTF-8''%D0%A0%D0%B5%D0%B9%D1%81.xlsx` },
    }));
    expect(await api.download('tasks/completed/export/1/download')).toEqual({ ok: true, data: null });
    const file = await api.download('tasks/completed/export/2/download');
    expect(file.ok && file.data?.filename).toBe('Рейс.xlsx');
  });

  it('without a name the file gets a dated xlsx name', () => {
    expect(filenameFrom('attachment; filename="report.xlsx"')).toBe('report.xlsx');
    expect(filenameFrom('attachment')).toBeNull();
    expect(datedXlsxName(new Date(2026, 0, 5))).toBe('completed-tasks-2026-01-05.xlsx');
  });
});

describe('public calls', () => {
  it('login, register and refresh carry no bearer header; other calls do', async () => {
    const { api, server, db, clock } = await makeEngine();
    const auth = serveAuth(server, clock);
    await seedSession(db, { access: 'stale', refresh: auth.grant().refresh_token });
    server.on('POST users/', () => ({ status: 201, data: {} }));
    server.on('POST x/', (request) => (auth.authorised(request.headers) ? { status: 200, data: 1 } : { status: 401, data: { detail: 'Требуется вход' } }));
    await api.send('POST', 'x/');
    await api.register({ email: 'a@b.c', password: 'secret123', name: 'А', phone: '+7 900 1', company_id: 1, role: 'driver' });
    await api.login('driver@demo.local', 'demo12345');
    const headerOf = (route: string) => server.log.find((request) => `${request.method} ${request.path}` === route)?.headers.authorization;
    expect(headerOf('POST x/')).toBe('Bearer stale');
    expect(headerOf('POST auth/refresh/')).toBeUndefined();
    expect(headerOf('POST users/')).toBeUndefined();
    expect(headerOf('POST auth/login/')).toBeUndefined();
    expect(headerOf('GET users/me/')).toBe(`Bearer ${auth.state.access}`);
  });
});
