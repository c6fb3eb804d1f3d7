/** Choosing drivers for a task: a search box over the company's drivers, with their vehicle, by keyboard too. */
import { useState } from 'react';
import type { User, UserWire } from '../../../contract/entities.ts';
import { formatCapacity } from '../../ui/format.ts';

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
}: {
  drivers: readonly DriverOption[];
  chosen: ReadonlySet<number>;
  onAdd: (driverId: number) => void;
  disabled?: boolean;
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
