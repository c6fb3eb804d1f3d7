/**
 * The staff screens' period: a preset (this month by default) or custom dates, kept in the URL by the caller
 * (`period`, `from`, `to`), turned into the inclusive range the wage calls take.
 */
import { PERIOD_LABELS, PERIOD_PRESETS, periodRange, rangeError, type DateRange, type PeriodPreset } from '../period.ts';
import { DateInput } from '../DateInput.tsx';

export const PERIOD_DEFAULTS = { period: 'month', from: '', to: '' };
export type PeriodState = typeof PERIOD_DEFAULTS;

export function rangeOf(state: PeriodState, today: Date = new Date()): DateRange {
  const preset = (PERIOD_PRESETS as readonly string[]).includes(state.period) ? (state.period as PeriodPreset) : 'month';
  return periodRange(preset, today, { start: state.from, end: state.to });
}

/** start_date / end_date for the API; open ends are left out. */
export type PeriodParams = { start_date?: string; end_date?: string };

export function rangeParams(range: DateRange): PeriodParams {
  return { ...(range.start ? { start_date: range.start } : {}), ...(range.end ? { end_date: range.end } : {}) };
}

export function PeriodPicker({ state, onChange }: { state: PeriodState; onChange: (patch: Partial<PeriodState>) => void }) {
  const error = rangeError(rangeOf(state));
  return (
    <div className="filter-slots period-picker" role="group" aria-label="Период">
      <label>
        Период
        <select value={state.period} onChange={(event) => onChange({ period: event.target.value })}>
          {PERIOD_PRESETS.map((p) => (
            <option key={p} value={p}>
              {PERIOD_LABELS[p]}
            </option>
          ))}
        </select>
      </label>
      {state.period === 'custom' && (
        <>
          <label>
            С
            <DateInput value={state.from} onValue={(from) => onChange({ from })} />
          </label>
          <label>
            По
            <DateInput value={state.to} onValue={(to) => onChange({ to })} />
          </label>
        </>
      )}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
