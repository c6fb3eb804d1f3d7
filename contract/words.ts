/**
 * The words every realm says the same way: a number with the Russian form of its noun (by `Intl.PluralRules('ru')`,
 * never by hand), numbers with a decimal comma, and where a load's rate came from. No realm globals, no zod: the
 * server's texts and files, the engine and the UI's first chunk all use it.
 */

/** The three Russian forms of a noun after a number: «1 рейс», «2 рейса», «5 рейсов». */
export type PluralForms = readonly [one: string, few: string, many: string];

export const TRIPS: PluralForms = ['рейс', 'рейса', 'рейсов'];
export const REPORTS: PluralForms = ['отчёт', 'отчёта', 'отчётов'];
export const TASKS: PluralForms = ['задача', 'задачи', 'задач'];
export const ROWS: PluralForms = ['строка', 'строки', 'строк'];
/** After a verb that takes the accusative: «Создать 1 задачу, пропустить 1 строку». */
export const TASKS_TO_DO: PluralForms = ['задачу', 'задачи', 'задач'];
export const ROWS_TO_DO: PluralForms = ['строку', 'строки', 'строк'];
export const DAYS: PluralForms = ['день', 'дня', 'дней'];
export const CELLS: PluralForms = ['ячейка', 'ячейки', 'ячеек'];
/** A verb agreeing with a counted subject: «1 отчёт ждёт проверки», «3 отчёта ждут проверки». */
export const WAIT: PluralForms = ['ждёт', 'ждут', 'ждут'];

const MONTHS_IN = ['январе', 'феврале', 'марте', 'апреле', 'мае', 'июне', 'июле', 'августе', 'сентябре', 'октябре', 'ноябре', 'декабре'];
/** «в ноябре 2026» of 'YYYY-MM' (a month after «в» takes the prepositional case). */
export function inMonthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `в ${MONTHS_IN[m - 1] ?? month} ${y}`;
}

// Made on first use: building Intl objects at load is a long task on a slow phone (ui/format.ts says why).
let rules: Intl.PluralRules | undefined;
let numbers: Intl.NumberFormat | undefined;

/** The form of the noun that fits `n` (a fraction takes the «few» form: «1,5 рейса»). */
export function pluralForm(n: number, forms: PluralForms): string {
  rules ??= new Intl.PluralRules('ru');
  const category = rules.select(n);
  return category === 'one' ? forms[0] : category === 'many' ? forms[2] : forms[1];
}

/** «1 рейс», «22 рейса», «111 рейсов», «1,5 рейса»: the number (decimal comma) with the form that fits it. */
export function plural(n: number, forms: PluralForms): string {
  return `${formatNumber(n)} ${pluralForm(n, forms)}`;
}

/** «207,9», «1 250,5»: up to three decimals, a decimal comma, thin groups as Russian text writes them. */
export function formatNumber(n: number): string {
  numbers ??= new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 3 });
  return numbers.format(n);
}

/** Where a load's rate came from, as every screen and file says it: «ставка водителя», «по шкале при 207,9 т за месяц». */
export function rateSourceText(item: { rate_source: 'transport_rate' | 'progressive' | null; month_volume: number; unit: string; frozen?: boolean }): string {
  const source =
    item.rate_source === 'transport_rate'
      ? 'ставка водителя'
      : item.rate_source === 'progressive'
        ? `по шкале при ${formatNumber(item.month_volume)} ${item.unit} за месяц`
        : 'ставка не задана';
  return item.frozen ? `${source}, месяц закрыт` : source;
}
