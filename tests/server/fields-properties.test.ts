/**
 * The write schemas' primitives (contract/fields.ts) over random input (fast-check), checked against a reference
 * written here, not against the primitives' own code:
 * - a string that is not a strict decimal never becomes a number — not in a form's quantity, not in any numeric
 *   field of a JSON write schema; a strict decimal round-trips;
 * - a 0/1 flag takes 0 and 1 (a form: '0' and '1') and nothing else;
 * - text holding a control character or a bidi override is refused; other text passes, only trimmed;
 *   machine-made text is stripped of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { decimalFromText, decimalToText, formFlag, formQuantity, hasUnsafeChars, jsonFlag, quantityNumber, stripUnsafeChars, text } from '../../contract/fields.ts';
import { quantityUpdateSchema, reportCreateSchema, reportUpdateFormSchema, reportUpdateSchema, taskCreateSchema, dailyHoursSchema } from '../../contract/driver.ts';
import { transferCreateSchema, transferUpdateSchema } from '../../contract/transfers.ts';
import { managerRateSchema, rateBandSchema } from '../../contract/wages.ts';
import { adjustmentSchema } from '../../contract/money.ts';
import { announcementCreateSchema, responseCreateSchema } from '../../contract/announcements.ts';
import { clientErrorSchema, companySchema, profileUpdateSchema } from '../../contract/payloads.ts';

/** The reference: optional digits without a leading zero, optionally a point and digits. Nothing else. */
function isStrictDecimal(s: string): boolean {
  if (s.length === 0 || s.length > 64) return false;
  const [whole, fraction, ...rest] = s.split('.');
  const digits = (t: string | undefined) => t !== undefined && t.length > 0 && [...t].every((c) => c >= '0' && c <= '9');
  if (rest.length > 0 || !digits(whole)) return false;
  if ((whole as string).length > 1 && whole?.startsWith('0')) return false;
  return fraction === undefined || digits(fraction);
}

/** Strings that look almost like numbers, and anything at all. */
const numberish = fc.oneof(
  fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '.', ',', '-', '+', 'e', 'E', 'x', 'X', ' ', '\t', '\n', '_', 'a', 'f', 'I', 'n', '\u00A0', '٣') }),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('0x10', '-0', '+0', ' ', '', '1e1', '.5', '5.', '0.', '00', '01', 'Infinity', 'NaN', '0b1', '0o7', '1_000', '１２', '12,5', ' 1', '1 '),
);
/** Strict decimals as a form writes them. */
const decimal = fc
  .tuple(fc.oneof(fc.constant('0'), fc.integer({ min: 1, max: 999_999_999 }).map(String)), fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

const REFUSED_CHARS = [
  ...Array.from({ length: 32 }, (_, i) => i).filter((i) => i !== 9 && i !== 10 && i !== 13),
  ...Array.from({ length: 33 }, (_, i) => 0x7f + i),
  0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
].map((c) => String.fromCharCode(c));
const refusedChar = fc.constantFrom(...REFUSED_CHARS, '\uD800', '\uDFFF');
const isRefused = (c: string) => REFUSED_CHARS.includes(c);
/** Text without any refused character (whole code points: no lone surrogates). */
const safeText = fc.string({ unit: 'grapheme' }).map((s) => [...s].filter((c) => !isRefused(c)).join(''));
/** Inside the text (whitespace controls at its ends would be trimmed away). */
const withRefused = fc.tuple(safeText, refusedChar, safeText).map(([a, c, b]) => `${a}«${c}»${b}`);

const ok = (schema: ZodType, value: unknown) => schema.safeParse(value).success;

describe('fields: numbers', () => {
  it('a form quantity: text that is not a strict decimal is refused (empty text is null); a strict decimal is its number', () => {
    fc.assert(
      fc.property(numberish, (s) => {
        const result = formQuantity().safeParse(s);
        if (s === '') {
          expect(result).toMatchObject({ success: true, data: null });
          return;
        }
        expect(result.success, JSON.stringify(s)).toBe(isStrictDecimal(s) && Number(s) <= 1e9);
        expect(decimalFromText(s) === null, JSON.stringify(s)).toBe(!isStrictDecimal(s));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(decimal, (s) => {
        expect(formQuantity().parse(s)).toBe(Number(s));
        expect(decimalFromText(s)).toBe(Number(s));
      }),
    );
  });

  it('a number the engine writes into a form (decimalToText) is a strict decimal that reads back as the same number', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: 1e-30, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 1e9 }), fc.constant(-0)), (n) => {
        const written = decimalToText(n);
        expect(isStrictDecimal(written), written).toBe(true);
        expect(formQuantity().parse(written)).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 2000 },
    );
  });

  it('a JSON quantity is a finite number from 0 to 1e9 and nothing else; -0 is 0', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        expect(ok(quantityNumber(), v)).toBe(typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1e9);
      }),
      { numRuns: 1000 },
    );
    expect(Object.is(quantityNumber().parse(-0), 0)).toBe(true);
  });

  it('no JSON write schema turns a string into a number, in any numeric field', () => {
    // Each schema with a valid body; the field is replaced by a string and must never come out a number.
    const cases: [ZodType, Record<string, unknown>, string[]][] = [
      [reportUpdateSchema, {}, ['quantity', 'total_loading_quantity', 'total_unloading_quantity', 'trips', 'loading_is_buyer', 'unloading_is_buyer']],
      [quantityUpdateSchema, {}, ['quantity', 'loading_quantity', 'unloading_quantity', 'transport_rate', 'planned_quantity']],
      [taskCreateSchema, { date: '2026-11-20', cargo: 'Щебень', loading_place: 'Карьер', unloading_place: 'Склад', planned_quantity: 10 }, ['planned_quantity', 'rate', 'max_drivers', 'company_id']],
      [dailyHoursSchema, { date: '2026-11-20', hours: 8 }, ['hours']],
      [transferCreateSchema, { task_id: 1, to_company_id: 2 }, ['task_id', 'to_company_id', 'quantity']],
      [transferUpdateSchema, { quantity: 1 }, ['to_company_id', 'quantity']],
      [rateBandSchema, { min_quantity: 0, max_quantity: 100, rate: 5 }, ['min_quantity', 'max_quantity', 'rate']],
      [managerRateSchema, { rate: 5 }, ['rate']],
      [adjustmentSchema, { driver_id: 1, amount: 100, reason: 'премия' }, ['driver_id', 'amount', 'report_id', 'company_id']],
    ];
    for (const [schema, base] of cases) expect(schema.safeParse(base).success, JSON.stringify(base)).toBe(true);
    fc.assert(
      // By index, so a counterexample prints short.
      fc.property(fc.integer({ min: 0, max: cases.length - 1 }), numberish, (index, s) => {
        const [schema, base, fields] = cases[index] as (typeof cases)[number];
        for (const field of fields) {
          const result = schema.safeParse({ ...base, [field]: s });
          if (result.success) expect(typeof (result.data as Record<string, unknown>)[field], `${field} ${JSON.stringify(s)}`).not.toBe('number');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a multipart report: every numeric field is a number only from a strict decimal (or null from empty text)', () => {
    const base = { association_id: '7', loading_is_buyer: '0', unloading_is_buyer: '0' };
    fc.assert(
      fc.property(fc.constantFrom('quantity', 'total_loading_quantity', 'total_unloading_quantity', 'trips', 'association_id'), numberish, (field, s) => {
        for (const schema of [reportCreateSchema, reportUpdateFormSchema] as ZodType[]) {
          const result = schema.safeParse({ ...base, [field]: s });
          if (!result.success) continue;
          const value = (result.data as Record<string, unknown>)[field];
          if (typeof value === 'number') expect(isStrictDecimal(s), `${field} ${JSON.stringify(s)}`).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('fields: 0/1 flags', () => {
  it('JSON takes 0 and 1 only; a form takes "0" and "1" only', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.constantFrom(true, false, '', '0', '1', 0, 1, -0, 'true')), (v) => {
        expect(ok(jsonFlag(), v), JSON.stringify(v)).toBe(v === 0 || v === 1);
        expect(ok(formFlag(), v), JSON.stringify(v)).toBe(v === '0' || v === '1');
      }),
      { numRuns: 1000 },
    );
    for (const schema of [reportUpdateSchema, reportUpdateFormSchema, reportCreateSchema] as ZodType[]) {
      for (const v of [true, false, '', 'true', 2]) expect(ok(schema, { association_id: '7', loading_is_buyer: v }), JSON.stringify(v)).toBe(false);
    }
  });
});

describe('fields: text', () => {
  it('text with a control character or a bidi override is refused; other text passes, trimmed', () => {
    fc.assert(
      fc.property(withRefused, (s) => {
        expect(hasUnsafeChars(s)).toBe(true);
        expect(ok(text(), s), JSON.stringify(s)).toBe(false);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(safeText, (s) => {
        expect(text().parse(s)).toBe(s.trim());
      }),
      { numRuns: 1000 },
    );
  });

  it('every typed text field of the write schemas refuses them', () => {
    fc.assert(
      fc.property(withRefused, (s) => {
        const t = `Текст ${s} текст`;
        expect(ok(announcementCreateSchema, { title: t, body: 'x' })).toBe(false);
        expect(ok(announcementCreateSchema, { title: 'x', body: t })).toBe(false);
        expect(ok(responseCreateSchema, { text: t })).toBe(false);
        expect(ok(transferCreateSchema, { task_id: 1, to_company_id: 2, comment: t })).toBe(false);
        expect(ok(companySchema, { name: t })).toBe(false);
        expect(ok(profileUpdateSchema, { name: t })).toBe(false);
        expect(ok(taskCreateSchema, { date: '2026-11-20', cargo: t, loading_place: 'a', unloading_place: 'b', planned_quantity: 1 })).toBe(false);
        expect(ok(adjustmentSchema, { driver_id: 1, amount: 1, reason: t })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('machine-made text (a crash report) is kept, stripped of them', () => {
    fc.assert(
      fc.property(withRefused, (s) => {
        const stripped = stripUnsafeChars(s);
        expect(hasUnsafeChars(stripped)).toBe(false);
        expect(clientErrorSchema.parse({ message: 'x', stack: s }).stack).toBe(stripped.slice(0, 8192));
      }),
      { numRuns: 500 },
    );
  });
});
