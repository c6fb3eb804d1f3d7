/**
 * Russian registration plates (ГОСТ Р 50577): a vehicle's «А123ВС 77» / «А123ВС 777» (a letter, three digits, two
 * letters, the region's two or three digits) and a trailer's «АВ1234 77» (two letters, four digits, the region).
 * Only the twelve letters that look alike in Cyrillic and Latin are used: А В Е К М Н О Р С Т У Х. What a person
 * types is read with spaces, hyphens, case and a trailing «RUS» ignored and Latin look-alikes taken as their
 * Cyrillic letters, so «a 123 bc 77» and «А123ВС77» are one plate: `normalized` is the form stored and compared
 * (unique), `display` the form shown. A foreign plate, when marked so, is free text trimmed and upper-cased
 * (tests/contract/plates.test.ts).
 */
import { hasUnsafeChars, UNSAFE_TEXT_MESSAGE } from './fields.ts';

export const PLATE_LETTERS = 'АВЕКМНОРСТУХ';
const LATIN_LOOKALIKES = 'ABEKMHOPCTYX';

export type PlateKind = 'vehicle' | 'trailer' | 'foreign';
export type Plate = { kind: PlateKind; normalized: string; display: string };
export type PlateParse = { ok: true; plate: Plate } | { ok: false; reason: string };

const L = `[${PLATE_LETTERS}]`;
const REGION = '(0[1-9]|[1-9]\\d{1,2})';
const VEHICLE = new RegExp(`^(${L})(\\d{3})(${L}{2})${REGION}$`);
const TRAILER = new RegExp(`^(${L}{2})(\\d{4})${REGION}$`);

/** Upper case, Latin look-alikes as Cyrillic, without spaces, hyphens and a trailing «RUS». */
export function plateCharacters(input: string): string {
  const upper = input.toUpperCase().replace(/Ё/g, 'Е');
  const cyrillic = [...upper].map((c) => {
    const i = LATIN_LOOKALIKES.indexOf(c);
    return i < 0 ? c : PLATE_LETTERS[i];
  });
  return cyrillic
    .join('')
    .replace(/[\s\-|/]+/g, '')
    .replace(/(?:RUS|РУС)$/, '');
}

const FORMAT_HINT = 'ожидается вид А123ВС 77 или А123ВС 777';
const TRAILER_HINT = 'ожидается вид АВ1234 77 (прицеп) или А123ВС 77';

/**
 * A plate read from what a person typed. `foreign` takes it as is (trimmed, upper-cased, inner spaces single);
 * otherwise it is a Russian vehicle plate, or also a trailer's when `trailer` is set (a trailer's plate field).
 * `label` names the field in the reason.
 */
export function parsePlate(input: string, options: { foreign?: boolean; trailer?: boolean; label?: string } = {}): PlateParse {
  const label = options.label ?? 'Госномер';
  const refuse = (why: string): PlateParse => ({ ok: false, reason: `${label}: ${why}` });
  if (hasUnsafeChars(input)) return refuse(UNSAFE_TEXT_MESSAGE);
  if (options.foreign) {
    const text = input.trim().replace(/\s+/g, ' ').toUpperCase();
    if (text === '') return refuse('обязательное поле');
    if (text.length > 20) return refuse('не длиннее 20 символов');
    return { ok: true, plate: { kind: 'foreign', normalized: text, display: text } };
  }
  const s = plateCharacters(input);
  if (s === '') return refuse('обязательное поле');
  const stranger = [...s].find((c) => !/\d/.test(c) && !PLATE_LETTERS.includes(c));
  if (stranger) {
    return refuse(`буква «${stranger}» не бывает в российских номерах (только ${[...PLATE_LETTERS].join(' ')}); иностранный номер отметьте как иностранный`);
  }
  const vehicle = VEHICLE.exec(s);
  if (vehicle) {
    const [, letter, digits, series, region] = vehicle;
    if (digits === '000') return refuse('номер 000 не выдаётся');
    return { ok: true, plate: { kind: 'vehicle', normalized: s, display: `${letter}${digits}${series} ${region}` } };
  }
  const trailer = TRAILER.exec(s);
  if (trailer && options.trailer) {
    const [, series, digits, region] = trailer;
    if (digits === '0000') return refuse('номер 0000 не выдаётся');
    return { ok: true, plate: { kind: 'trailer', normalized: s, display: `${series}${digits} ${region}` } };
  }
  if (trailer) return refuse(`это номер прицепа; ${FORMAT_HINT}`);
  return refuse(options.trailer ? TRAILER_HINT : FORMAT_HINT);
}
