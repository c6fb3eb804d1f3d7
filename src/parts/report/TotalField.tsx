/** A total quantity behind its 'покупатель' flag: without the flag the total is never sent, so it is cleared and locked. */
import { useId } from 'react';

interface Props {
  label: string;
  value: string;
  flag: boolean;
  error?: string;
  onValue: (value: string) => void;
  onFlag: (flag: boolean) => void;
}

export function TotalField({ label, value, flag, error, onValue, onFlag }: Props) {
  const id = useId();
  return (
    <div className="drv-field drv-total">
      <label className="drv-field__label" htmlFor={`${id}-value`}>
        {label}
      </label>
      <div className="drv-total__row">
        <input
          id={`${id}-value`}
          className="drv-input"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          disabled={!flag}
          aria-invalid={Boolean(error)}
          onChange={(event) => onValue(event.target.value)}
        />
        <label className="drv-check">
          <input type="checkbox" checked={flag} aria-describedby="drv-buyer-hint" onChange={(event) => onFlag(event.target.checked)} />
          <span>покупатель</span>
        </label>
      </div>
      {error ? <span className="drv-field__error">{error}</span> : null}
    </div>
  );
}
