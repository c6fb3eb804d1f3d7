/**
 * Decimals as text, the way a multipart form carries them (contract/fields.ts explains the rules). No zod here:
 * the engine and the service worker write report forms with decimalToText, and fields.ts would bring zod along.
 */

/** A decimal as a form writes it: `0`, `12`, `12.5`, `0.25`. */
export const DECIMAL_TEXT = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
/** Longer text names no quantity this API takes (≤ 1e9; down to 1e-40 with every significant digit). */
const DECIMAL_MAX_LENGTH = 64;

/** The number a strict decimal text stands for, or null when the text is not one. */
export function decimalFromText(text: string): number | null {
  if (text.length > DECIMAL_MAX_LENGTH || !DECIMAL_TEXT.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * A number as a form writes it (the engine's multipart bodies): plain decimal digits, never an exponent —
 * `String(1e-7)` is '1e-7', which the server refuses — and -0 as '0'. Same digits as `String`, so the server
 * reads back the very number.
 */
export function decimalToText(n: number): string {
  const s = String(n === 0 ? 0 : n);
  const m = /^(-?)(\d)(?:\.(\d+))?e-(\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, rest = '', exponent] = m;
  return `${sign}0.${'0'.repeat(Number(exponent) - 1)}${lead}${rest}`;
}
