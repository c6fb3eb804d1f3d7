/** Choosing drivers for a task: a search box over the company's drivers, with their vehicle, by keyboard too. */
import { useState } from 'react';
import type { User, UserWire } from '../../../contract/entities.ts';
import { formatCapacity, formatQuantity, plural } from '../../ui/format.ts';
import { TASKS } from '../../../contract/words.ts';
import type { DayLoad } from './form-helpers.ts';

export type DriverOption = UserWire | User;

export function vehicleOf(driver: DriverOption | undefined): string {
  const t = driver?.current_transport;
  return t ? `${t.vehicle_brand} ${t.vehicle_number}, ${formatCapacity(t.vehicle_capacity)}` : 'нет транспорта';
}

export function DriverPicker({
  drivers,
  chosen,
  onAdd,
  disabled,
  dayLoad,
}: {
  drivers: readonly DriverOption[];
  chosen: ReadonlySet<number>;
  onAdd: (driverId: number) => void;
  disabled?: boolean;
  /** Each driver's tasks and tonnage on the task's date. */
  dayLoad?: ReadonlyMap<number, DayLoad> | undefined;
}) {
  const [text, setText] = useState('');
  const needle = text.trim().toLowerCase();
  const matches = drivers
    .filter((d) => !chosen.has(d.id))
    .filter((d) => !needle || d.name.toLowerCase().includes(needle) || (d.current_transport?.vehicle_number ?? '').toLowerCase().includes(needle))
    .slice(0, 8);
  return (
    <div className="driver-picker">
      <label htmlFor="driver-search" className="driver-picker-label">
        Добавить водителя
      </label>
      <input
        id="driver-search"
        type="search"
        placeholder="Имя или номер машины"
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            const first = matches[0];
            if (first) {
              onAdd(first.id);
              setText('');
            }
          }
        }}
      />
      {matches.length > 0 ? (
        <ul className="driver-options" aria-label="Водители компании">
          {matches.map((driver) => (
            <li key={driver.id}>
              <button
                type="button"
                className="driver-option"
                disabled={disabled}
                onClick={() => {
                  onAdd(driver.id);
                  setText('');
                }}
              >
                <span className="driver-option-name">{driver.name}</span>
                <span className="muted">{vehicleOf(driver)}</span>
                {dayLoad && <span className="driver-option-load">{loadText(dayLoad.get(driver.id))}</span>}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{drivers.length === 0 ? 'В компании нет активных водителей.' : 'Никого не найдено.'}</p>
      )}
    </div>
  );
}

/** «в этот день: 2 задачи, 40 т» or «в этот день свободен». */
function loadText(load: DayLoad | undefined): string {
  if (!load || load.tasks === 0) return 'в этот день свободен';
  return `в этот день: ${plural(load.tasks, TASKS)}, ${formatQuantity(load.planned, 'т')}`;
}
