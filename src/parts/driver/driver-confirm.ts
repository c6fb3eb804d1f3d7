/**
 * The driver's confirmation on a step (issue 33 §1; docs/trips.md «The driver's confirmation»), pure: what the sheet
 * shows him to confirm — «Груз принят к перевозке» with the mass as the step records it, «Груз сдан» likewise — and
 * the body's `driver_confirmation` (or the Russian error under the remarks).
 */
import { CONFIRM_TEXT, type DriverConfirmationPayload } from '../../../contract/trips.ts';

/** The steps whose sheet asks for facts (the mass, the receiver's acceptance, the driver's confirmation). */
export type FactStep = 'loading_departed' | 'unloading_departed';

export const REMARKS_MAX = 1000;

/** «Груз принят к перевозке: 24,5 т» — or the mass left out, said so. */
export function confirmLine(step: FactStep, quantity: number | null, unit: string): string {
  const mass = quantity === null ? 'количество не указано' : `${quantity.toLocaleString('ru-RU')} ${unit}`.trim();
  return `${CONFIRM_TEXT[step]}: ${mass}`;
}

export type ConfirmRead = { ok: true; value: { driver_confirmation?: DriverConfirmationPayload } } | { ok: false; error: string };

/** The body's part: nothing when not asked or not confirmed; the remarks trimmed (empty: none). */
export function readConfirmation(asked: boolean, confirmed: boolean, remarks: string): ConfirmRead {
  if (!asked || !confirmed) return { ok: true, value: {} };
  const text = remarks.trim();
  if (text.length > REMARKS_MAX) return { ok: false, error: `Не длиннее ${REMARKS_MAX} символов` };
  return { ok: true, value: { driver_confirmation: { remarks: text === '' ? null : text } } };
}
