/**
 * The medic's and the mechanic's lists imported onto the day's trip sheets (issue 33 §2; docs/trip-sheets.md «The
 * medic's and the mechanic's lists»): a journal exported as CSV (or pasted from a spreadsheet: tab-separated), one row
 * per check — its date and time, the driver (his name) or the vehicle (its plate), who made it, and the result. Pure:
 * the server parses with it and matches each row to a sheet; a screen may preview with it.
 */
import { z } from 'zod';
import { isoDate } from './fields.ts';
import { calendarDate } from './calendar.ts';

/** Which mark the list gives: the pre-trip medical check, the pre-trip technical check, the post-trip medical check. */
export const CHECK_KINDS = ['pre_medical', 'pre_technical', 'post_medical'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export const CHECK_KIND_LABELS: Record<CheckKind, string> = {
  pre_medical: 'предрейсовый медосмотр',
  pre_technical: 'предрейсовый техосмотр',
  post_medical: 'послерейсовый медосмотр',
};

/** The largest list accepted: a big carrier's day is a few hundred rows, some tens of kB. */
export const CHECK_LIST_MAX_CHARS = 1_000_000;

/** POST /trip-sheets/checks. */
export const checkListSchema = z
  .object({
    kind: z.enum(CHECK_KINDS, { message: 'kind: ожидается pre_medical, pre_technical или post_medical' }),
    text: z.string({ message: 'text: ожидается текст списка' }).min(1, 'text: список пуст').max(CHECK_LIST_MAX_CHARS, 'text: список слишком большой (не больше 1 000 000 символов)'),
    /** The day of the rows that give no date. */
    date: isoDate.optional(),
    /** The list's clock against UTC, minutes (the browser's: −getTimezoneOffset()); Moscow's +180 when absent. */
    offset_minutes: z.number({ message: 'offset_minutes: ожидается число минут' }).int('offset_minutes: целое число минут').min(-720).max(840).default(180),
  })
  .strict();
export type CheckListBody = z.input<typeof checkListSchema>;

/** One row read from the list: where it is (the line, 1-based with the header), what it says, or why it cannot be read. */
export interface CheckRow {
  line: number;
  date: string | null;
  time: string | null;
  driver: string | null;
  plate: string | null;
  name: string | null;
  /** The result column said the driver was not admitted (the vehicle not released): no mark is made. */
  refused: boolean;
  problem: string | null;
}

export interface CheckImportOutcome {
  line: number;
  /** recorded: the mark made; unchanged: the same mark already there; refused: nothing changed, `detail` says why. */
  outcome: 'recorded' | 'unchanged' | 'refused';
  sheet_id: number | null;
  sheet_number: number | null;
  detail: string | null;
}

export interface CheckImportResult {
  recorded: number;
  outcomes: CheckImportOutcome[];
}

type Column = 'date' | 'time' | 'datetime' | 'driver' | 'plate' | 'name' | 'result';

/** A header cell's column, by the words journals use (the checker's name before «ФИО», which both names carry). */
function columnOf(header: string): Column | null {
  const h = header.toLowerCase().replace(/ё/g, 'е');
  if (/мед(ицинск\w*\s+)?работ|медик|фельдшер|врач|механик|контролер|проверил|провел|осмотр провел/.test(h)) return 'name';
  if (/водител/.test(h)) return 'driver';
  if (/гос\.?\s*номер|госномер|номер\s*(тс|а\/м|машины|автомобиля)|рег\w*\s*знак|^тс$|машина|автомобиль/.test(h)) return 'plate';
  if (/результат|заключение|допуск|допущен|выпуск/.test(h)) return 'result';
  if (/дата/.test(h) && /время/.test(h)) return 'datetime';
  if (/дата/.test(h)) return 'date';
  if (/время/.test(h)) return 'time';
  if (/^фио$|^ф\.и\.о\.?$/.test(h)) return 'driver';
  return null;
}

/** The separator of the list: tab (a spreadsheet's copy), semicolon (a Russian Excel's CSV) or comma, by the header. */
function separatorOf(header: string): string {
  const counts = ['\t', ';', ','].map((s) => [s, header.split(s).length] as const);
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

/** One line's cells: quotes as CSV has them («"a; b"», «""» for a quote). */
function cells(line: string, sep: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === sep) {
      out.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  out.push(cell.trim());
  return out;
}

const DATE_RU = /(\d{1,2})\.(\d{1,2})\.(\d{4})/;
const DATE_ISO = /(\d{4})-(\d{2})-(\d{2})/;
const TIME = /(?:^|\D)(\d{1,2})[:.](\d{2})(?::\d{2})?(?!\d)/;

function dateOf(value: string): string | null {
  const ru = DATE_RU.exec(value);
  const parts = ru ? [ru[3], ru[2], ru[1]] : DATE_ISO.exec(value)?.slice(1, 4);
  if (!parts) return null;
  const [y, m, d] = parts.map(Number) as [number, number, number];
  return calendarDate(y, m, d);
}

function timeOf(value: string): string | null {
  // The date's dots are not a time: read the time after the date when both are in one cell.
  const rest = value.replace(DATE_RU, ' ').replace(DATE_ISO, ' ');
  const t = TIME.exec(rest);
  if (!t) return null;
  const [h, m] = [Number(t[1]), Number(t[2])];
  return h < 24 && m < 60 ? `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}` : null;
}

/** «Не допущен», «не выпущен», «отстранён», «не прошёл»: the check was made and failed. */
const REFUSED = /не\s*допущ|не\s*выпущ|отстран|не\s*прош|не\s*годен/;

/**
 * The list's rows. The first non-empty line is the header; it must name who made the check and either the driver or
 * the plate, and a time (a «Время» column, or «Дата и время»). Throws a Russian message when the header cannot be read.
 */
export function parseCheckList(text: string): CheckRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const headerIndex = lines.findIndex((l) => l.trim() !== '');
  if (headerIndex < 0) throw new Error('Список пуст');
  const sep = separatorOf(lines[headerIndex] as string);
  const columns = cells(lines[headerIndex] as string, sep).map(columnOf);
  const at = (c: Column) => columns.indexOf(c);
  const lacks: string[] = [];
  if (at('name') < 0) lacks.push('кто провёл осмотр (например, «Медработник» или «Механик»)');
  if (at('driver') < 0 && at('plate') < 0) lacks.push('водитель или госномер');
  if (at('time') < 0 && at('datetime') < 0) lacks.push('время');
  if (lacks.length > 0) throw new Error(`В первой строке списка не найдены столбцы: ${lacks.join(', ')}`);
  const rows: CheckRow[] = [];
  lines.forEach((raw, i) => {
    if (i <= headerIndex || raw.trim() === '') return;
    const row = cells(raw, sep);
    const cell = (c: Column) => (at(c) >= 0 ? (row[at(c)] ?? '').trim() : '');
    const when = cell('datetime');
    const dateText = cell('date') || when;
    const date = dateText ? dateOf(dateText) : null;
    const time = timeOf(cell('time') || when);
    const parsed: CheckRow = {
      line: i + 1,
      date,
      time,
      driver: cell('driver') || null,
      plate: cell('plate') || null,
      name: cell('name') || null,
      refused: REFUSED.test(cell('result').toLowerCase().replace(/ё/g, 'е')),
      problem: null,
    };
    if (dateText && !date) parsed.problem = `дата «${dateText}» не прочитана (ожидается ДД.ММ.ГГГГ)`;
    else if (!time) parsed.problem = 'не указано время (ожидается ЧЧ:ММ)';
    else if (!parsed.name || parsed.name.length < 2) parsed.problem = 'не указано, кто провёл осмотр';
    else if (!parsed.driver && !parsed.plate) parsed.problem = 'не указан ни водитель, ни госномер';
    rows.push(parsed);
  });
  return rows;
}

/** A name's words for matching: lower case, ё as е, initials split («Иванов И.И.» → иванов, и, и). */
export function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/ё/g, 'е')
    .split(/[\s.]+/)
    .filter((w) => w !== '');
}

/** Whether a list's name is this driver's: the same surname, and each further word the same or its initial. */
export function sameDriver(listed: string, driver: string): boolean {
  const a = nameWords(listed);
  const b = nameWords(driver);
  if (a.length === 0 || a[0] !== b[0] || a.length > b.length) return false;
  return a.slice(1).every((w, i) => {
    const full = b[i + 1] as string;
    return w.length === 1 ? full.startsWith(w) : w === full;
  });
}

/** The row's moment as ISO with the list's offset: «2026-11-27T06:40:00+03:00». */
export function checkMoment(date: string, time: string, offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${date}T${time}:00${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A list file's text: UTF-8 when it is valid UTF-8, else windows-1251 (what a Russian Excel writes as «CSV»). */
export function decodeList(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1251').decode(bytes);
  }
}
