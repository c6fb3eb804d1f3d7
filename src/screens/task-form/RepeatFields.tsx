/** «Повторять» in the create form (docs/task-entry.md): every working day, or chosen weekdays, up to a last day. */
import { DateInput } from '../../ui/DateInput.tsx';
import { formatDate, plural } from '../../ui/format.ts';
import { TASKS } from '../../../contract/words.ts';
import { REPEAT_MAX_DATES } from '../../../contract/task-limits.ts';
import { WEEKDAYS, type RepeatRule } from './repeat.ts';

export interface RepeatState extends RepeatRule {
  on: boolean;
}


export function RepeatFields({ state, dates, error, onChange, disabled }: { state: RepeatState; dates: string[]; error?: string | undefined; onChange: (next: RepeatState) => void; disabled: boolean }) {
  const tooMany = dates.length > REPEAT_MAX_DATES;
  return (
    <fieldset className="repeat-fields">
      <legend className="visually-hidden">Повторять</legend>
      <label className="field-check">
        <input type="checkbox" checked={state.on} disabled={disabled} onChange={(event) => onChange({ ...state, on: event.target.checked })} />
        Повторять
      </label>
      {state.on && (
        <div className="repeat-fields__rule">
          <div className="repeat-fields__modes" role="radiogroup" aria-label="Как повторять">
            <label className="field-check">
              <input type="radio" name="repeat-mode" checked={state.mode === 'workdays'} disabled={disabled} onChange={() => onChange({ ...state, mode: 'workdays' })} />
              Каждый рабочий день (пн–пт)
            </label>
            <label className="field-check">
              <input type="radio" name="repeat-mode" checked={state.mode === 'weekdays'} disabled={disabled} onChange={() => onChange({ ...state, mode: 'weekdays' })} />
              По дням недели
            </label>
          </div>
          {state.mode === 'weekdays' && (
            <div className="repeat-fields__days" role="group" aria-label="Дни недели">
              {WEEKDAYS.map((label, index) => {
                const day = index + 1;
                const on = state.weekdays.includes(day);
                return (
                  <button
                    key={label}
                    type="button"
                    className={on ? 'repeat-day is-on' : 'repeat-day'}
                    aria-pressed={on}
                    disabled={disabled}
                    onClick={() => onChange({ ...state, weekdays: on ? state.weekdays.filter((d) => d !== day) : [...state.weekdays, day].sort() })}
                  >
                    {label}
                  </button>
                );
              })}
            </div>
          )}
          <label className="repeat-fields__until">
            До (включительно)
            <DateInput aria-label="Повторять до" name="repeat_until" value={state.until} disabled={disabled} onValue={(until) => onChange({ ...state, until })} />
          </label>
          <p className={tooMany || error ? 'field-error' : 'muted'} role={tooMany || error ? 'alert' : undefined}>
            {error ??
              (dates.length === 0
                ? 'По этому правилу не выходит ни одного дня.'
                : tooMany
                  ? `Выходит ${plural(dates.length, TASKS)} — не больше ${REPEAT_MAX_DATES} за раз.`
                  : `Будет создано: ${plural(dates.length, TASKS)}, с ${formatDate(dates[0]!)} по ${formatDate(dates.at(-1)!)}. Каждую можно потом изменить отдельно.`)}
          </p>
        </div>
      )}
    </fieldset>
  );
}
