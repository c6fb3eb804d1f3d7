/**
 * Photo retention as a company setting (contract/calls/retention.ts, server/reports/retention-job.ts,
 * docs/scale.md): the admin sets the rule on the company; the server's daily pass applies it once a day, once between
 * two instances sharing the database, and says what it did.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import { startRetentionJob } from '../../server/reports/retention-job.ts';
import type { PhotoRetention } from '../../contract/calls/retention.ts';

const TODAY = '2026-11-28';

describe.each(backends)('photo retention setting ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let company: number;
  let other: number;
  let admin: SignedInUser;
  let manager: SignedInUser;
  let otherAdmin: SignedInUser;
  let oldReport: number;
  const key = 'photos/setting-old.jpg';
  const files = () => join(s.config.dataDir, 'files');
  const path = (id: number) => `/api/companies/${id}/photo-retention`;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    company = await makeCompany(s);
    other = await makeCompany(s);
    admin = await withAccessToken(s, await makeUser(s, 'admin', company));
    manager = await withAccessToken(s, await makeUser(s, 'manager', company));
    otherAdmin = await withAccessToken(s, await makeUser(s, 'admin', other));
    const driver = await makeUser(s, 'driver', company);
    const association = await addDriver(s, await createTask(s, company, { date: '2021-03-01', status: 'completed' }), driver.id, { status: 'completed', transport_rate: 400 });
    oldReport = await addLoad(s, association, 20);
    mkdirSync(join(files(), 'photos'), { recursive: true });
    writeFileSync(join(files(), key), Buffer.from('jpeg bytes'));
    await s.db.kysely.insertInto('report_photos').values({ report_id: oldReport, storage_key: key, mime: 'image/jpeg', size: 1234, width: 10, height: 10, created_at: nowIso(), phash: null }).execute();
  });

  it('keeps every photo until the admin sets a rule; refuses a bad rule in Russian, a manager and another company', async () => {
    const start = await call<PhotoRetention>(s, 'GET', path(company), { token: manager.token });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ rule: null, last_run: null });

    const bad = await call<{ detail: string }>(s, 'PUT', path(company), { token: admin.token, body: { rule: { years: 0, action: 'archive' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('не меньше 1 года');
    const badAction = await call<{ detail: string }>(s, 'PUT', path(company), { token: admin.token, body: { rule: { years: 3, action: 'burn' } } });
    expect(badAction.status).toBe(400);
    expect(badAction.body.detail).toContain('archive или delete');

    expect((await call(s, 'PUT', path(company), { token: manager.token, body: { rule: { years: 3, action: 'archive' } } })).status).toBe(403);
    expect((await call(s, 'PUT', path(company), { token: otherAdmin.token, body: { rule: { years: 3, action: 'archive' } } })).status).toBe(403);
    expect((await call(s, 'GET', path(company), { token: otherAdmin.token })).status).toBe(404);
    expect((await call(s, 'GET', path(999_999), { token: admin.token })).status).toBe(404);
  });

  it('the daily pass of two instances applies the rule once; the next pass that day does nothing; the screen reads what it did', async () => {
    const set = await call<PhotoRetention>(s, 'PUT', path(company), { token: admin.token, body: { rule: { years: 3, action: 'archive' } } });
    expect(set.status).toBe(200);
    expect(set.body.rule).toEqual({ years: 3, action: 'archive' });

    const one = startRetentionJob(s.db, s.config.dataDir, { timer: false });
    const two = startRetentionJob(s.db, s.config.dataDir, { timer: false });
    try {
      const [a, b] = await Promise.all([one.runDue(TODAY), two.runDue(TODAY)]);
      const runs = [...a, ...b];
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ on: TODAY, before: '2023-11-28', reports: 1, photos: 1, bytes: 1234, action: 'archive' });
      expect(existsSync(join(files(), key))).toBe(false);
      expect(existsSync(join(s.config.dataDir, 'archive', key))).toBe(true);
      expect(await one.runDue(TODAY)).toEqual([]);
    } finally {
      await one.close();
      await two.close();
    }
    const read = await call<PhotoRetention>(s, 'GET', path(company), { token: admin.token });
    expect(read.body.last_run).toMatchObject({ on: TODAY, photos: 1, reports: 1 });
    // The trip stays.
    const report = await call<{ quantity: number; photos: unknown[] }>(s, 'GET', `/api/reports/${oldReport}`, { token: admin.token });
    expect(report.body).toMatchObject({ quantity: 20, photos: [] });
  });

  it('null turns the rule off: the next day runs nothing', async () => {
    const off = await call<PhotoRetention>(s, 'PUT', path(company), { token: admin.token, body: { rule: null } });
    expect(off.body.rule).toBeNull();
    const job = startRetentionJob(s.db, s.config.dataDir, { timer: false });
    try {
      expect(await job.runDue('2026-11-29')).toEqual([]);
    } finally {
      await job.close();
    }
  });
});
