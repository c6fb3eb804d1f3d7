/**
 * /trip-sheets «Путевые листы» (staff; issue 33 §2, docs/trip-sheets.md): the day's sheets — number, vehicle,
 * driver, the checks (✓ with the time and the name, or what is missing), the odometer at departure and return and
 * the distance, what the sheet still lacks; search by plate or driver; «Выписать путевой лист»; a dialog to record
 * the checks, times and readings; «Скачать PDF»; «Удалить» only where the server allows it (the year's last empty
 * sheet), asked first.
 */
import { createColumnHelper } from '@tanstack/react-table';
import type { CheckMark, TripSheet } from '../../../contract/trip-sheets.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { downloadOnce, useSend } from '../../engine/api.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { saveDownload } from '../../ui/download.ts';
import { formatDate, formatQuantity, isoDate } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';
import { ChecksImport } from './ChecksImport.tsx';
import { actionsColumn, RowActions, RowButton, RowCard } from '../../ui/console/RowParts.tsx';
import { RegisterPage, useRegisterList } from '../../parts/registers/RegisterPage.tsx';
import { clockOf } from './sheet-form.ts';
import { NewSheetDialog, RecordSheetDialog } from './SheetDialogs.tsx';
import './trip-sheets.css';

const column = createColumnHelper<TripSheet>();
const vehicleText = (s: TripSheet) => [s.vehicle.make, s.vehicle.model].filter(Boolean).join(' ');
const km = (value: number | null) => (value === null ? '—' : formatQuantity(value, 'км'));

/** A check: ✓ with the time and the name, or that it is missing. */
function Check({ label, mark }: { label: string; mark: CheckMark | null }) {
  return mark ? (
    <span className="sheet-check is-done">
      ✓ {label} {clockOf(mark.at)}, {mark.name}
    </span>
  ) : (
    <span className="sheet-check is-missing">✗ {label}: нет</span>
  );
}

function Checks({ s }: { s: TripSheet }) {
  return (
    <span className="sheet-checks">
      <Check label="Медосмотр" mark={s.pre_medical} />
      <Check label="Техосмотр" mark={s.pre_technical} />
      <Check label="Послерейсовый" mark={s.post_medical} />
    </span>
  );
}

function Odometer({ s }: { s: TripSheet }) {
  return (
    <span className="sheet-odometer">
      <span>
        Выезд {s.departure_at ? clockOf(s.departure_at) : '—'} · {km(s.odometer_start)}
      </span>
      <span>
        Возвр. {s.return_at ? clockOf(s.return_at) : '—'} · {km(s.odometer_end)}
      </span>
      {s.distance_km !== null && <strong>Пробег {km(s.distance_km)}</strong>}
    </span>
  );
}

/** «Заполнен», or how many facts the sheet lacks — and, unless `short` (a card's head), which. */
function Missing({ s, short }: { s: TripSheet; short?: boolean }) {
  if (s.missing.length === 0) return <span className="status-badge status-completed">Заполнен</span>;
  const badge = <span className="status-badge status-open">Не хватает: {s.missing.length}</span>;
  if (short) return badge;
  return (
    <span className="sheet-missing">
      {badge}
      <span className="sheet-missing-list">{s.missing.join(', ')}</span>
    </span>
  );
}

export function TripSheetsScreen({ title }: ScreenProps) {
  const today = isoDate(new Date());
  const register = useRegisterList('GET /trip-sheets/', { search: '', page: '0', company: '', date: today }, (state) => ({ date: state.date || today }));
  const { list, work, editing, setEditing } = register;
  const { state, update } = list;
  const remove = useSend('DELETE /trip-sheets/:id');

  function download(s: TripSheet) {
    void work.run(s.id, async () => {
      const file = await downloadOnce('GET /trip-sheets/:id.pdf', { id: s.id });
      if (file) saveDownload(file.blob, file.filename);
    });
  }

  function actions(s: TripSheet) {
    const gate = work.gate(s.id);
    const of = `путевой лист № ${s.number}`;
    return (
      <RowActions>
        <RowButton gate={gate} kind="primary" label={`Заполнить ${of}`} onClick={() => setEditing({ card: s })}>
          Заполнить
        </RowButton>
        <RowButton gate={gate} label={`Скачать PDF: ${of}`} onClick={() => download(s)}>
          Скачать PDF
        </RowButton>
        {s.can_delete && (
          <RowButton
            gate={gate}
            kind="quiet"
            label={`Удалить ${of}`}
            onClick={() =>
              void work.run(s.id, () => remove.mutateAsync({ params: { id: s.id } }), {
                confirm: {
                  title: `Удалить путевой лист № ${s.number}?`,
                  message: <p>Лист пуст и последний в году: номер {s.number} освободится и достанется следующему листу.</p>,
                  confirmLabel: 'Удалить',
                  danger: true,
                },
                done: `Путевой лист № ${s.number} удалён`,
                refused: 'Не удалено',
              })
            }
          >
            Удалить
          </RowButton>
        )}
      </RowActions>
    );
  }

  const columns = [
    column.accessor('number', { header: '№', cell: (c) => <strong>{c.getValue()}</strong> }),
    column.display({
      id: 'vehicle',
      header: 'Машина',
      cell: (c) => (
        <span className="sheet-two-lines">
          <strong className="register-plate-text">{c.row.original.vehicle.plate}</strong>
          <span className="muted">{vehicleText(c.row.original) || 'марка не указана'}</span>
        </span>
      ),
    }),
    column.display({ id: 'driver', header: 'Водитель', cell: (c) => c.row.original.driver.name }),
    column.display({ id: 'checks', header: 'Осмотры', cell: (c) => <Checks s={c.row.original} /> }),
    column.display({ id: 'odometer', header: 'Одометр', cell: (c) => <Odometer s={c.row.original} /> }),
    column.display({ id: 'missing', header: 'Не хватает', cell: (c) => <Missing s={c.row.original} /> }),
    actionsColumn(actions),
  ];

  const day = state.date || today;
  return (
    <RegisterPage
      title={title}
      register={register}
      note="Путевой лист — на каждую машину на каждый рабочий день. Осмотры записывает диспетчер, одометр — водитель с телефона или диспетчер здесь."
      searchPlaceholder="Госномер или водитель"
      addLabel="Выписать путевой лист"
      offlineWhat="выписывать и заполнять путевые листы"
      label="Путевые листы"
      filters={
        <>
          <label>
            День
            <DateInput aria-label="День" value={day} onValue={(date) => update({ date: date || today })} />
          </label>
          {day !== today && (
            <button type="button" className="button button-small" onClick={() => update({ date: today })}>
              Сегодня
            </button>
          )}
          <ChecksImport date={day} companyId={register.newCardCompany} />
        </>
      }
      columns={columns}
      muted={() => false}
      empty={
        state.search.trim() !== '' ? (
          <p>По этому поиску путевых листов на {formatDate(day)} нет.</p>
        ) : (
          <p>{day === today ? 'Сегодня' : `На ${formatDate(day)}`} путевых листов нет. Выпишите лист кнопкой «Выписать путевой лист».</p>
        )
      }
      card={(s) => (
        <RowCard title={`№ ${s.number} · ${s.vehicle.plate}`} badge={<Missing s={s} short />} actions={actions(s)}>
          <span>
            {s.driver.name}
            {vehicleText(s) ? ` · ${vehicleText(s)}` : ''}
          </span>
          <Checks s={s} />
          <Odometer s={s} />
          {s.missing.length > 0 && <span className="muted">Не хватает: {s.missing.join(', ')}</span>}
        </RowCard>
      )}
      dialog={
        editing &&
        (editing.card ? (
          <RecordSheetDialog
            sheet={editing.card}
            onClose={() => setEditing(null)}
            onSaved={(saved) => {
              showToast('success', `Путевой лист № ${saved.number} сохранён`);
              setEditing(null);
            }}
          />
        ) : (
          <NewSheetDialog
            date={day}
            companyId={register.newCardCompany}
            onClose={() => setEditing(null)}
            onSaved={(saved) => {
              showToast('success', `Путевой лист № ${saved.number} выписан на ${formatDate(saved.date)}`);
              setEditing(null);
              if (saved.date !== day) update({ date: saved.date });
            }}
          />
        ))
      }
    />
  );
}
