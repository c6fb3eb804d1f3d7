/** The customer's price list: the line schema and the one resolution rule (contract/prices.ts; docs/prices.md). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceLineSchema, resolvePrice, type PriceQuery, type ResolvableLine } from '../../contract/prices.ts';

const line = (id: number, over: Partial<ResolvableLine>): ResolvableLine => ({
  id,
  cargo: null,
  loading_place_id: null,
  unloading_place_id: null,
  unit: 'т',
  valid_from: '2026-01-01',
  ...over,
});
const query: PriceQuery = { cargo: 'Щебень 20–40', loading_place_id: 1, unloading_place_id: 2, unit: 'т', date: '2026-06-15' };

describe('resolvePrice', () => {
  it('takes the most specific line: cargo and route over route over cargo over any', () => {
    const any = line(1, {});
    const cargo = line(2, { cargo: 'щебень 20–40' });
    const route = line(3, { loading_place_id: 1, unloading_place_id: 2 });
    const both = line(4, { cargo: 'Щебень  20–40', loading_place_id: 1, unloading_place_id: 2 });
    expect(resolvePrice([any, cargo, route, both], query)?.id).toBe(4);
    expect(resolvePrice([any, cargo, route], query)?.id).toBe(3);
    expect(resolvePrice([any, cargo], query)?.id).toBe(2);
    expect(resolvePrice([any], query)?.id).toBe(1);
  });

  it('reads versions by date: the latest valid on the day, a later one not yet', () => {
    const old = line(1, { valid_from: '2026-01-01' });
    const current = line(2, { valid_from: '2026-06-01' });
    const future = line(3, { valid_from: '2026-07-01' });
    expect(resolvePrice([old, current, future], query)?.id).toBe(2);
    expect(resolvePrice([old, current, future], { ...query, date: '2026-05-31' })?.id).toBe(1);
    expect(resolvePrice([future], query)).toBeNull();
  });

  it('never takes another route, cargo or unit', () => {
    const lines = [line(1, { loading_place_id: 1, unloading_place_id: 3 }), line(2, { cargo: 'Песок' }), line(3, { unit: 'м³' })];
    expect(resolvePrice(lines, query)).toBeNull();
  });

  // A reference written apart: every matching line valid on the day, the winner ranked by hand.
  const rank = (l: ResolvableLine) => (l.loading_place_id === null ? 0 : 10) + (l.cargo === null ? 0 : 1);
  const norm = (s: string) => s.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
  const matches = (l: ResolvableLine, q: PriceQuery) =>
    l.unit === q.unit &&
    (l.cargo === null || norm(l.cargo) === norm(q.cargo)) &&
    (l.loading_place_id === null || (l.loading_place_id === q.loading_place_id && l.unloading_place_id === q.unloading_place_id));
  const day = fc.integer({ min: 0, max: 400 }).map((n) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10));
  const route = fc.constantFrom<[number | null, number | null]>([null, null], [1, 2], [2, 1], [1, 3]);
  const arbLine = fc.record({
    cargo: fc.constantFrom(null, 'Щебень', 'щебень', 'Песок'),
    route,
    unit: fc.constantFrom('т', 'м³', 'рейс'),
    valid_from: day,
  });
  const arbQuery = fc.record({ cargo: fc.constantFrom('Щебень', 'Песок', 'Глина'), route, unit: fc.constantFrom('т', 'м³', 'рейс'), date: day });

  it('property: the result is valid on the date, and no valid line is more specific or later at equal specificity', () => {
    fc.assert(
      fc.property(fc.array(arbLine, { maxLength: 25 }), arbQuery, (raw, rawQuery) => {
        const lines = raw.map((l, i) => line(i + 1, { cargo: l.cargo, loading_place_id: l.route[0], unloading_place_id: l.route[1], unit: l.unit, valid_from: l.valid_from }));
        const q: PriceQuery = { cargo: rawQuery.cargo, loading_place_id: rawQuery.route[0], unloading_place_id: rawQuery.route[1], unit: rawQuery.unit, date: rawQuery.date };
        const valid = lines.filter((l) => l.valid_from <= q.date && matches(l, q));
        const got = resolvePrice(lines, q);
        if (valid.length === 0) return got === null;
        if (got === null) return false;
        if (!valid.includes(got)) return false;
        return valid.every((other) => rank(other) < rank(got) || (rank(other) === rank(got) && other.valid_from <= got.valid_from));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('priceLineSchema', () => {
  const base = { unit: 'т', price: 450.5, vat_mode: 'none', valid_from: '2026-11-01' };
  const problem = (body: object) => {
    const result = priceLineSchema.safeParse(body);
    return result.success ? null : result.error.issues.map((i) => i.message).join('; ');
  };

  it('accepts a line and keeps the price to the kopeck', () => {
    const parsed = priceLineSchema.parse({ ...base, price: 0.07 });
    expect(parsed.price).toBe(0.07);
    expect(parsed.cargo).toBeNull();
  });

  it('refuses in Russian, naming the field', () => {
    expect(problem({ ...base, price: 450.505 })).toContain('Цена: не больше двух знаков');
    expect(problem({ ...base, price: 0 })).toContain('Цена: больше 0');
    expect(problem({ ...base, loading_place_id: 1 })).toContain('Маршрут');
    expect(problem({ ...base, vat_mode: 'added' })).toContain('Ставка НДС: укажите');
    expect(problem({ ...base, vat_mode: 'none', vat_rate: 20 })).toContain('Ставка НДС');
    expect(problem({ ...base, unit: 'час' })).toContain('Бесплатное время');
    expect(problem({ ...base, free_minutes: 30 })).toContain('только для почасовой');
    expect(problem({ ...base, unit: 'шт' })).toContain('Единица');
    expect(problem({ ...base, unit: 'час', free_minutes: 60, vat_mode: 'included', vat_rate: 22 })).toBeNull();
  });
});
