/**
 * Progressive rates: the ladder rule (from 0, no gap, no overlap, only the top band open), refusals that name
 * the band, boundary edits that move the neighbour, deletion that would leave a gap, and who may do what.
 */
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeWorld, type World } from '../fixtures/accounts.ts';
import { ladderProblem, ladderRate, withEdit } from '../../contract/ladder.ts';
import type { RateBand } from '../../contract/wages.ts';

describe('the ladder rule (pure)', () => {
  const band = (min: number, max: number | null, rate = 100, id?: number) => ({ id, min_quantity: min, max_quantity: max, rate });

  it('accepts a ladder built one band at a time, and a complete one', () => {
    expect(ladderProblem([])).toBeNull();
    expect(ladderProblem([band(0, 500)])).toBeNull();
    expect(ladderProblem([band(0, 500), band(500, 1000)])).toBeNull();
    expect(ladderProblem([band(500, 1000), band(0, 500), band(1000, null)])).toBeNull();
  });

  it('names the band that breaks it', () => {
    expect(ladderProblem([band(100, 500)])).toBe('Лестница ставок начинается с 0 т, а первая полоса — 100–500 т');
    expect(ladderProblem([band(0, 500), band(400, 1000)])).toBe('Полоса 0–500 т пересекается с полосой 400–1\u00a0000 т');
    expect(ladderProblem([band(0, 500), band(600, 1000)])).toBe('Между 500 и 600 т нет полосы');
    expect(ladderProblem([band(0, null), band(500, 1000)])).toBe(
      'Полоса от 0 т открыта сверху, а выше есть полоса 500–1\u00a0000 т: открытой может быть только верхняя',
    );
  });

  it('moves the shared boundary with an edit, so one edit keeps the ladder whole', () => {
    const ladder = [band(0, 100, 450, 1), band(100, 300, 480, 2), band(300, null, 520, 3)];
    expect(withEdit(ladder, 1, { max_quantity: 150 }).map((b) => [b.min_quantity, b.max_quantity])).toEqual([
      [0, 150],
      [150, 300],
      [300, null],
    ]);
    expect(withEdit(ladder, 3, { min_quantity: 250 }).map((b) => [b.min_quantity, b.max_quantity])).toEqual([
      [0, 100],
      [100, 250],
      [250, null],
    ]);
    expect(ladderProblem(withEdit(ladder, 1, { max_quantity: 350 }))).toBe('Полоса 350–300 т: верхняя граница должна быть больше нижней');
  });

  it('reads the rate of the band holding the volume; above a closed top, the top rate', () => {
    const ladder = [band(0, 100, 450), band(100, 300, 480)];
    expect(ladderRate(ladder, 0)).toBe(450);
    expect(ladderRate(ladder, 99.9)).toBe(450);
    expect(ladderRate(ladder, 100)).toBe(480);
    expect(ladderRate(ladder, 5000)).toBe(480);
    expect(ladderRate([], 10)).toBeNull();
  });
});

describe.each(backends)('progressive rates over HTTP ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let w: World;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    w = await makeWorld(s);
  });

  it('an admin builds a ladder band by band; a gap, an overlap or a second open band is refused naming the band', async () => {
    const url = `/api/progressive_rates/company/${w.companyA}`;
    const post = (body: unknown) => call(s, 'POST', url, { token: w.tokens.admin, body });
    expect((await post({ min_quantity: 0, max_quantity: 100, rate: 450 })).status).toBe(201);
    const gap = await post({ min_quantity: 150, max_quantity: 300, rate: 480 });
    expect(gap.status).toBe(400);
    expect(gap.body.detail).toBe('Между 100 и 150 т нет полосы');
    const overlap = await post({ min_quantity: 50, max_quantity: 300, rate: 480 });
    expect(overlap.body.detail).toBe('Полоса 0–100 т пересекается с полосой 50–300 т');
    expect((await post({ min_quantity: 100, max_quantity: 300, rate: 480 })).status).toBe(201);
    expect((await post({ min_quantity: 300, rate: 520 })).status).toBe(201);
    const bad = await post({ min_quantity: 500, max_quantity: 400, rate: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('max_quantity: верхняя граница должна быть больше нижней');
    expect((await post({ min_quantity: '0', rate: 1 })).status).toBe(400);

    const ladder = (await call<RateBand[]>(s, 'GET', url, { token: w.tokens.manager })).body;
    expect(ladder.map((b) => [b.min_quantity, b.max_quantity, b.rate])).toEqual([
      [0, 100, 450],
      [100, 300, 480],
      [300, null, 520],
    ]);

    // Moving a boundary moves the neighbour; the answer is the whole ladder.
    const moved = await call<RateBand[]>(s, 'PUT', `/api/progressive_rates/${ladder[0]?.id}`, { token: w.tokens.admin, body: { max_quantity: 150 } });
    expect(moved.status).toBe(200);
    expect(moved.body.map((b) => [b.min_quantity, b.max_quantity])).toEqual([
      [0, 150],
      [150, 300],
      [300, null],
    ]);
    const crossing = await call(s, 'PUT', `/api/progressive_rates/${ladder[0]?.id}`, { token: w.tokens.admin, body: { max_quantity: 400 } });
    expect(crossing.status).toBe(400);
    expect(crossing.body.detail).toBe('Полоса 400–300 т: верхняя граница должна быть больше нижней');

    // Deleting the middle band would leave a gap; the top one goes.
    const middle = await call(s, 'DELETE', `/api/progressive_rates/${ladder[1]?.id}`, { token: w.tokens.admin });
    expect(middle.status).toBe(400);
    expect(middle.body.detail).toMatch(/^Полосу 150–300 т удалить нельзя: между 150 и 300 т нет полосы/);
    expect((await call(s, 'DELETE', `/api/progressive_rates/${ladder[2]?.id}`, { token: w.tokens.admin })).status).toBe(204);
  });

  it('a manager reads but does not change; another company’s ladder and bands are 404', async () => {
    const company = await makeCompany(s);
    expect((await call(s, 'GET', `/api/progressive_rates/company/${company}`, { token: w.tokens.manager })).status).toBe(404);
    expect((await call(s, 'POST', `/api/progressive_rates/company/${company}`, { token: w.tokens.admin, body: { min_quantity: 0, rate: 1 } })).status).toBe(404);
    const theirs = await call(s, 'POST', `/api/progressive_rates/company/${w.companyB}`, { token: w.tokens.adminB, body: { min_quantity: 0, rate: 300 } });
    expect(theirs.status).toBe(201);
    expect((await call(s, 'PUT', `/api/progressive_rates/${theirs.body.id}`, { token: w.tokens.admin, body: { rate: 1 } })).status).toBe(404);
    expect((await call(s, 'DELETE', `/api/progressive_rates/${theirs.body.id}`, { token: w.tokens.admin })).status).toBe(404);
    expect((await call(s, 'PUT', `/api/progressive_rates/${theirs.body.id}`, { token: w.tokens.managerB, body: { rate: 1 } })).status).toBe(403);
    expect((await call(s, 'PUT', `/api/progressive_rates/${theirs.body.id}`, { token: w.tokens.super, body: { rate: 310 } })).status).toBe(200);
  });
});
