/**
 * The customer's papers (issue 34 §2; docs/statements.md): the statement of trips («Реестр рейсов») of a customer
 * for a period, and the act with its invoice («Акт оказанных услуг», «Счёт на оплату») — their answers, the
 * queries and bodies of their calls, the VAT of a total and the amount in words («Сто пятьдесят тысяч триста
 * восемьдесят два рубля 00 копеек»). Pure: the server and the screens share it (tests/contract/statements.test.ts).
 */
import { z } from 'zod';
import { isoDate, wireId } from './fields.ts';
import type { CompanyCard } from './entities.ts';

// ── The statement of trips ──

/** One trip of the statement: an approved load (or one under review, listed apart) of the customer's task. */
export interface StatementTrip {
  report_id: number;
  task_id: number;
  /** The task's date, YYYY-MM-DD: the day the trip counts for (as the statistics count it). */
  date: string;
  /** The weighbridge ticket's number, else null (the paper names the trip by its waybill, «ТН № {task_id}-{report_id}»). */
  ticket_number: string | null;
  vehicle: string | null;
  driver: string;
  cargo: string;
  loading_place: string;
  unloading_place: string;
  unit: string;
  loaded: number | null;
  unloaded: number | null;
  /** What is billed: the quantity its month's close stored, else delivered (unloaded, else the report's quantity). */
  quantity: number;
  /** The task's price (the customer's), null when it has none. */
  price: number | null;
  /** quantity × price rounded to the kopeck (0 without a price). */
  amount: number;
  receiver: string | null;
  /** The receiver signed (per trip or per shift); `refused`: he refused to sign. */
  signed: boolean;
  refused: boolean;
  /** Minutes at loading and at unloading (arrival → departure), from the trip's timeline; null without stamps. */
  waiting_min: number | null;
  /** The waiting time billed from the customer's hourly line («час»), or null when no such line prices the trip. */
  waiting: TripWaiting | null;
  review_status: string;
  /** The act this trip is billed on (not a superseded one), if any. */
  invoice: { id: number; number: number; year: number } | null;
}

/**
 * A trip's waiting time billed from the hourly line in force for its date, cargo and route (docs/prices.md,
 * docs/statements.md «Waiting time»): at loading and at unloading each, the minutes beyond the line's free period;
 * billed by the minute, `amount` = price × minutes / 60 rounded to the kopeck (half up) per trip.
 */
export interface TripWaiting {
  line_id: number;
  /** The line's free period, minutes, at each place. */
  free_minutes: number;
  /** The line's price per hour. */
  price: number;
  /** Minutes billed: beyond the free period at loading plus beyond it at unloading (0: within the free period). */
  billed_min: number;
  /** billed_min / 60, to the thousandth (the act's quantity in «час»). */
  hours: number;
  amount: number;
}

/** The key of the waiting time's group in `by_cargo` and the name of its lines on the act. */
export const WAITING_KEY = 'Простой, час';

/** Billed waiting minutes in kopecks: price per hour × minutes / 60, rounded half up (exact in integers). */
export function waitingKop(priceKop: number, minutes: number): number {
  return Math.floor((priceKop * minutes * 2 + 60) / 120);
}

/** Minutes billed at one place: beyond the free period, none when the stamps are missing. */
export function billedMinutes(waitMin: number | null, freeMinutes: number): number {
  return waitMin === null ? 0 : Math.max(0, waitMin - freeMinutes);
}

export interface StatementGroup {
  key: string;
  trips: number;
  quantity: number;
  amount: number;
}

export interface Statement {
  company_id: number;
  counterparty: { id: number; name: string; inn: string | null };
  from: string;
  to: string;
  /** Approved trips, by date then report. */
  trips: StatementTrip[];
  /**
   * Subtotals: per day (key YYYY-MM-DD; carriage and waiting) and per cargo (key «Щебень, т»; the billed waiting
   * apart as «Простой, час», its quantity in hours). Each list adds up to `total.amount`.
   */
  by_day: StatementGroup[];
  by_cargo: StatementGroup[];
  /** `carriage`: Σ trips' amounts; `waiting`: Σ billed waiting; `amount` = carriage + waiting (what the act bills). */
  total: { trips: number; quantity: number; carriage: number; waiting: number; waiting_hours: number; amount: number };
  /** Approved trips whose task has no price: counted at 0, named so staff set a price before the act. */
  unpriced: number;
  /** Trips still under review (pending or disputed): listed apart, not in the totals. */
  under_review: StatementTrip[];
}

export const STATEMENT_FORMATS = ['json', 'xlsx', 'pdf'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

const period = {
  from: isoDate,
  to: isoDate,
};

const periodOrder = (value: { from: string; to: string }) => value.from <= value.to;
const PERIOD_ORDER = { message: 'Период: дата «по» раньше даты «с»', path: ['to'] };

/** GET /counterparties/{id}/statement?from&to&format. */
export const statementQuery = z
  .object({ ...period, format: z.enum(STATEMENT_FORMATS, { message: 'ожидается json, xlsx или pdf' }).default('json') })
  .strict()
  .refine(periodOrder, PERIOD_ORDER);
export type StatementQuery = z.infer<typeof statementQuery>;

// ── The act and the invoice ──

export const INVOICE_STATES = ['issued', 'paid', 'corrected'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = { issued: 'Не оплачен', paid: 'Оплачен', corrected: 'Заменён исправленным' };

/** What a line of the act bills: the carriage of a cargo, or the waiting time (простой) beyond the free period. */
export type InvoiceLineKind = 'carriage' | 'waiting';

/**
 * A line of the act and the invoice: the trips of one cargo, route, unit and price (`carriage`); or the billed
 * waiting of one cargo, route, hourly price and free period (`waiting`, unit «час», quantity in hours).
 */
export interface InvoiceLine {
  kind: InvoiceLineKind;
  /** A waiting line's free period, minutes at each place; null for carriage. */
  free_minutes: number | null;
  cargo: string;
  loading_place: string;
  unloading_place: string;
  unit: string;
  trips: number;
  quantity: number;
  price: number;
  /** Σ of its trips' amounts, each rounded to the kopeck (so the act's total is the statement's to the kopeck). */
  amount: number;
}

/** A party as the papers print it (the carrier's card's requisites, or a counterparty's), frozen on the act when issued. */
export type InvoiceParty = Omit<CompanyCard, 'id' | 'vat_rate' | 'edo_id'>;

/** The columns a party is read from, on `companies` and `counterparties` alike. */
export const PARTY_COLUMNS = ['name', 'full_name', 'inn', 'kpp', 'ogrn', 'address', 'phone'] as const;

export interface Invoice {
  id: number;
  company_id: number;
  counterparty_id: number;
  counterparty_name: string;
  number: number;
  year: number;
  /** YYYY-MM-DD, the day it was issued. */
  issued_on: string;
  from: string;
  to: string;
  state: InvoiceState;
  paid_on: string | null;
  /** The act this one corrects (it is then `corrected`), or null. */
  corrects_id: number | null;
  corrected_by_id: number | null;
  /** The company's VAT rate when issued, percent; null: «Без НДС». VAT is included in the prices. */
  vat_rate: number | null;
  total: number;
  vat: number;
  trips: number;
  /** Days since issue while unpaid; null once paid or corrected. */
  age_days: number | null;
  lines: InvoiceLine[];
  seller: InvoiceParty;
  buyer: InvoiceParty;
}

/** POST /invoices/: the customer and the period; `corrects_id` issues a correction of that act. */
export const invoiceCreateSchema = z
  .object({
    counterparty_id: z.number({ message: 'Заказчик: ожидается номер' }).int('Заказчик: ожидается номер').positive('Заказчик: ожидается номер'),
    ...period,
    corrects_id: z.number({ message: 'Исправляемый акт: ожидается номер' }).int('Исправляемый акт: ожидается номер').positive('Исправляемый акт: ожидается номер').optional(),
  })
  .strict()
  .refine(periodOrder, PERIOD_ORDER);
export type InvoiceCreate = z.infer<typeof invoiceCreateSchema>;

export const invoiceListQuery = z
  .object({
    counterparty_id: wireId('ожидается номер заказчика').optional(),
    state: z.enum(INVOICE_STATES, { message: 'ожидается issued, paid или corrected' }).optional(),
  })
  .strict();
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const invoicePaidSchema = z.object({ date: isoDate }).strict();

/** The VAT rates a company may bill at, percent; null is «Без НДС» (the simplified tax system). */
export const COMPANY_VAT_RATES = [0, 5, 7, 10, 20, 22] as const;

/** PUT /companies/{id} `vat_rate`: the company's VAT beside its requisites; null «Без НДС», absent: unchanged. */
export const companyVatField = z
  .number({ message: 'Ставка НДС: ожидается число или null («Без НДС»)' })
  .refine((n) => (COMPANY_VAT_RATES as readonly number[]).includes(n), `Ставка НДС: ожидается одна из ${COMPANY_VAT_RATES.join(', ')} % или «Без НДС»`)
  .nullable()
  .optional();

/** The VAT included in a total (prices include VAT): total × rate / (100 + rate), to the kopeck. */
export function vatIncludedKop(totalKop: number, rate: number | null): number {
  if (rate === null || rate === 0) return 0;
  return Math.round((totalKop * rate) / (100 + rate));
}

// ── The amount in words ──

const ONES_M = ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const ONES_F = ['', 'одна', 'две', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const TEENS = ['десять', 'одиннадцать', 'двенадцать', 'тринадцать', 'четырнадцать', 'пятнадцать', 'шестнадцать', 'семнадцать', 'восемнадцать', 'девятнадцать'];
const TENS = ['', '', 'двадцать', 'тридцать', 'сорок', 'пятьдесят', 'шестьдесят', 'семьдесят', 'восемьдесят', 'девяносто'];
const HUNDREDS = ['', 'сто', 'двести', 'триста', 'четыреста', 'пятьсот', 'шестьсот', 'семьсот', 'восемьсот', 'девятьсот'];

/** The noun's form after n: 1 рубль, 2 рубля, 5 рублей (11–14: рублей). */
function form(n: number, forms: readonly [string, string, string]): string {
  const last2 = n % 100;
  const last = n % 10;
  if (last2 >= 11 && last2 <= 14) return forms[2];
  if (last === 1) return forms[0];
  if (last >= 2 && last <= 4) return forms[1];
  return forms[2];
}

function triad(n: number, feminine: boolean): string[] {
  const words: string[] = [];
  const h = Math.floor(n / 100);
  const rest = n % 100;
  if (h > 0) words.push(HUNDREDS[h] as string);
  if (rest >= 10 && rest < 20) words.push(TEENS[rest - 10] as string);
  else {
    const t = Math.floor(rest / 10);
    const o = rest % 10;
    if (t > 0) words.push(TENS[t] as string);
    if (o > 0) words.push(((feminine ? ONES_F : ONES_M)[o]) as string);
  }
  return words;
}

const SCALES: { feminine: boolean; forms: readonly [string, string, string] }[] = [
  { feminine: false, forms: ['', '', ''] },
  { feminine: true, forms: ['тысяча', 'тысячи', 'тысяч'] },
  { feminine: false, forms: ['миллион', 'миллиона', 'миллионов'] },
  { feminine: false, forms: ['миллиард', 'миллиарда', 'миллиардов'] },
  { feminine: false, forms: ['триллион', 'триллиона', 'триллионов'] },
];

/** A whole number of rubles in words, lower case: 0 → «ноль», 21 → «двадцать один», 2000 → «две тысячи». */
export function numberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError('numberInWords: a whole number ≥ 0');
  if (n === 0) return 'ноль';
  const words: string[] = [];
  let rest = n;
  const groups: number[] = [];
  while (rest > 0) {
    groups.push(rest % 1000);
    rest = Math.floor(rest / 1000);
  }
  if (groups.length > SCALES.length) throw new RangeError('numberInWords: too large');
  for (let i = groups.length - 1; i >= 0; i -= 1) {
    const g = groups[i] as number;
    if (g === 0) continue;
    const scale = SCALES[i] as (typeof SCALES)[number];
    words.push(...triad(g, scale.feminine));
    if (i > 0) words.push(form(g, scale.forms));
  }
  return words.join(' ');
}

/**
 * An amount in rubles as a paper writes it under its total: «Сто пятьдесят тысяч триста восемьдесят два рубля 00
 * копеек» — rubles in words with a capital letter, kopecks in figures (two digits) with their noun's form.
 */
export function amountInWords(rubles: number): string {
  if (!Number.isFinite(rubles) || rubles < 0) throw new RangeError('amountInWords: an amount ≥ 0');
  const kop = Math.round(rubles * 100 + 1e-9);
  const whole = Math.floor(kop / 100);
  const cents = kop % 100;
  const words = numberInWords(whole);
  const rub = form(whole, ['рубль', 'рубля', 'рублей']);
  const cop = form(cents, ['копейка', 'копейки', 'копеек']);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${rub} ${String(cents).padStart(2, '0')} ${cop}`;
}
