/**
 * The primitives every write schema builds its fields from, so a number, a 0/1 flag and a text mean the same in
 * every call (tests/server/fields-properties.test.ts):
 * - **numbers**: JSON carries a number (never a string, boolean or `""`); `-0` is read as 0. A multipart form has
 *   only text, so there a number is a strict decimal — digits, optionally a point and digits: no sign, exponent,
 *   hex, spaces, leading zeros or comma — and empty text is the form's null (it clears the field: the app sends
 *   it so, worker/report-form.ts). Anything else is a 400 naming the field.
 * - **0/1 flags**: JSON 0 or 1, a form '0' or '1'; not true, false or empty.
 * - **text** a person types (names, titles, comments, reasons): **refused** with a 400 naming the field when it
 *   holds a C0 control character other than tab, line feed and carriage return (NUL included), DEL, a C1 control,
 *   a bidi embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) or a lone surrogate — they hide or
 *   reorder what others read, so the writer is told rather than having the text silently changed. Machine-made
 *   text (crash reports, a browser's description) is **stripped** of the same characters instead: it is kept.
 * - **whole numbers in a path or query string** (ids, paging, a column): the URL carries text, so there a number
 *   is digits only — no sign, spaces, point, exponent, hex or leading zero (`0` alone where the range starts at
 *   0) — and in its range; ids up to MAX_ID. Never `z.coerce`: '0x1', '1e0', '+1', '1.0', '01' and ' 1' are a 400
 *   naming the field (`wireInt`, `wireId`; the route table's path ids too, server/routes/define.ts).
 */
import { z } from 'zod';
import { decimalFromText } from './decimal-text.ts';
import { calendarDate } from './calendar.ts';

export { DECIMAL_TEXT, decimalFromText, decimalToText } from './decimal-text.ts';

// C0 controls but tab, LF and CR; DEL and C1; bidi embeddings, overrides and isolates; with the u flag a
// surrogate matches only when it is alone (a pair is one code point).
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');

export const UNSAFE_TEXT_MESSAGE = 'недопустимые символы: управляющие или меняющие направление текста';

/** True when the text holds a character refused in text fields (see above). */
export function hasUnsafeChars(text: string): boolean {
  return UNSAFE.test(text);
}

/** The text without the characters refused in text fields. */
export function stripUnsafeChars(text: string): string {
  return text.replace(UNSAFE_ALL, '');
}

/**
 * A typed text field: trimmed, refused when it holds a control character or a bidi override. Chain `.min()` and
 * `.max()` with their own messages.
 */
export const text = (message = 'ожидается текст') => z.string({ message }).trim().refine((s) => !hasUnsafeChars(s), UNSAFE_TEXT_MESSAGE);

const positiveZero = (n: number) => (n === 0 ? 0 : n);

/** YYYY-MM-DD that is a real calendar date. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'ожидается дата ГГГГ-ММ-ДД')
  .refine((s) => calendarDate(Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10))) === s, {
    message: 'несуществующая дата',
  });

/** A JSON number: finite; chain its bounds. */
export const jsonNumber = (message = 'ожидается число') => z.number({ message }).finite(message);

/** A quantity (tonnes, money per unit): a finite number from 0 to 1e9. */
export const quantityNumber = () =>
  jsonNumber().min(0, 'не может быть отрицательным').max(1e9, 'слишком большое число').transform(positiveZero);

const FORM_NUMBER_MESSAGE = 'ожидается число, например 12.5 (без знака, пробелов и букв)';

/** A quantity from a multipart form: a strict decimal, or empty text for null. */
export const formQuantity = () =>
  z
    .string({ message: FORM_NUMBER_MESSAGE })
    .transform((s, ctx) => {
      if (s === '') return null;
      const n = decimalFromText(s);
      if (n === null) {
        ctx.addIssue({ code: 'custom', message: FORM_NUMBER_MESSAGE });
        return z.NEVER;
      }
      return n;
    })
    .pipe(z.number().max(1e9, 'слишком большое число').nullable());

const FLAG_MESSAGE = 'ожидается 0 или 1';

/** A 0/1 flag in JSON: the number 0 or 1. */
export const jsonFlag = () => z.union([z.literal(0), z.literal(1)], { message: FLAG_MESSAGE });

/** A 0/1 flag in a multipart form: the text '0' or '1'. */
export const formFlag = () => z.enum(['0', '1'], { message: FLAG_MESSAGE }).transform((v) => (v === '1' ? 1 : 0) as 0 | 1);

/** The largest id a row can have: ids are PostgreSQL `integer` columns; a larger one names no object. */
export const MAX_ID = 2_147_483_647;

const WIRE_DIGITS = /^(0|[1-9][0-9]*)$/;

/**
 * Every path and query number, for a test to find them all (tests/server/wire-numbers.test.ts): the schema, and its
 * range.
 */
export const wireNumbers = z.registry<{ min: number; max: number }>();

/**
 * A whole number from a path or query string (rules above): the text of its digits, from `min` to `max`. Typed to
 * take a number too, because a client fills paths and queries from numbers, which travel as their digits.
 */
export function wireInt(min: number, max: number, message = `ожидается целое число от ${min} до ${max}`): z.ZodType<number, string | number> {
  const schema = z
    .string()
    .refine((s) => WIRE_DIGITS.test(s) && Number(s) >= min && Number(s) <= max, message)
    .transform(Number);
  schema.register(wireNumbers, { min, max });
  return schema as unknown as z.ZodType<number, string | number>;
}

export const WIRE_ID_MESSAGE = 'ожидается положительное целое число';

/** An id in a path or query string: digits only, from 1 to MAX_ID. */
export const wireId = (message = WIRE_ID_MESSAGE) => wireInt(1, MAX_ID, message);

/** A phone number as people write it: an optional plus, then 5–20 digits, spaces, brackets and hyphens. */
export const PHONE_PATTERN = /^\+?[0-9 ()-]{5,20}$/;
