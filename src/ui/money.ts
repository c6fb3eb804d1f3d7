/** The words every money screen uses for the one rate rule (server/routes/WAGES.md), so they say it the same way. */
import type { WageItem } from '../../contract/money.ts';
import { inMonthLabel, rateSourceText } from '../../contract/words.ts';

/** The rule in one sentence, under every driver-pay total. */
export const PAY_RULE =
  'Оплачиваются рейсы, принятые диспетчером. Ставка — ваша ставка в задаче, а если её нет — по шкале компании: весь объём месяца оплачивается по ставке полосы, до которой он дорос.';

/** Where a load's rate came from: «ставка водителя», «по шкале при 200 т за месяц», and «месяц закрыт» when frozen. */
export function rateNote(item: Pick<WageItem, 'rate_source' | 'month_volume' | 'unit' | 'frozen'>): string {
  return rateSourceText(item);
}

/** What a screen says where a load of a closed month offers no change (WAGES.md «Месяц закрыт»). */
export const CLOSED_LOAD_NOTE = 'Месяц закрыт — исправление только корректировкой';

export { inMonthLabel };

/** Told to a driver filing a trip on a task whose month is closed (WAGES.md «Рейс после закрытия месяца»). */
export const latePayNote = (paidIn: string): string => `Месяц этой задачи уже закрыт: рейс не войдёт в его расчёт и будет оплачен ${inMonthLabel(paidIn)} как поздний рейс.`;
