/**
 * The hot path's memories stay invisible (issue: server throughput): a template answers what the query it stands
 * for answers, for each shape of its arguments, and refuses a build that computes with an argument; a remembered
 * access token stops at its exp like any other; the security headers are the ones helmet sets.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import helmet from 'helmet';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { queryTemplate } from '../../server/db/template.ts';
import { AccessTokens } from '../../server/auth/jwt.ts';
import { securityHeaderSteps } from '../../server/security-headers.ts';

describe('queryTemplate', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ listen: false });
    const created_at = new Date().toISOString();
    await s.db.kysely.insertInto('companies').values(['А', 'Б', 'В'].map((name) => ({ name, created_at }))).execute();
  });
  afterAll(() => s.close());

  const byIds = queryTemplate((db, ids: readonly number[], name: string | undefined) =>
    db
      .selectFrom('companies')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .$if(name !== undefined, (qb) => qb.where('name', '=', name as string))
      .orderBy('id'),
  );

  it('answers as the query itself, for every length and with or without the optional filter', async () => {
    const all = await s.db.kysely.selectFrom('companies').select(['id', 'name']).orderBy('id').execute();
    const ids = all.map((c) => c.id);
    expect(await byIds(s.db.kysely, ids, undefined)).toEqual(all);
    expect(await byIds(s.db.kysely, ids.slice(0, 1), undefined)).toEqual(all.slice(0, 1));
    expect(await byIds(s.db.kysely, ids.slice(1), undefined)).toEqual(all.slice(1));
    expect(await byIds(s.db.kysely, ids.slice(0, 2).reverse(), undefined)).toEqual(all.slice(0, 2));
    expect(await byIds(s.db.kysely, ids, all[2]!.name)).toEqual([all[2]]);
    expect(await byIds(s.db.kysely, ids, 'нет такой')).toEqual([]);
  });

  it('refuses a build whose argument does not reach the query as a value', async () => {
    const computing = queryTemplate((db, ids: readonly number[]) => db.selectFrom('companies').select('id').where('id', 'in', ids.length > 0 ? [-1] : ids));
    await expect(computing(s.db.kysely, [1])).rejects.toThrow(/argument 0/);
  });
});

describe('remembered access tokens', () => {
  afterAll(() => vi.useRealTimers());

  it('a verified token is refused once its exp has passed, as on its first check', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const tokens = new AccessTokens('s'.repeat(48), 60);
    const token = await tokens.sign({ sub: '7', role: 'driver', device_id: 'd', sid: 'f' });
    expect(await tokens.verify(token)).toMatchObject({ sub: '7', role: 'driver', sid: 'f' });
    expect(await tokens.verify(token)).toMatchObject({ sub: '7' });
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(await tokens.verify(token)).toBeNull();
    // Another key's token is never taken for a remembered one.
    expect(await new AccessTokens('t'.repeat(48), 60).verify(token)).toBeNull();
  });
});

describe('security headers', () => {
  it('are what helmet sets with the same options', () => {
    const options = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false } as const;
    const set = new Map<string, unknown>();
    const res = { setHeader: (name: string, value: unknown) => set.set(name.toLowerCase(), value), removeHeader: (name: string) => set.delete(name.toLowerCase()) };
    helmet(options)({} as never, res as never, () => undefined);
    const steps = securityHeaderSteps(options);
    expect(new Map(steps.flatMap((st) => ('set' in st ? [[st.set.toLowerCase(), st.value] as const] : [])))).toEqual(set);
    expect(set.get('x-content-type-options')).toBe('nosniff');
    expect(set.has('content-security-policy')).toBe(false);
  });
});
