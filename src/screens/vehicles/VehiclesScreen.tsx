/**
 * /vehicles «Транспорт компании» (staff; issue 31, docs/registers.md): the fleet — plate, make and model, body type,
 * ownership, capacity, volume, trailer, in service; search by plate, make or model; a card to add and edit; taking a
 * vehicle out of service and back. A driver's current vehicle is chosen from here on «Управление водителями».
 */
import { createColumnHelper } from '@tanstack/react-table';
import { BODY_TYPE_LABELS, OWNERSHIP_LABELS, type BodyType, type Ownership, type Vehicle } from '../../../contract/registers.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useSend } from '../../engine/api.ts';
import { formatCapacity, formatQuantity } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';
import { FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { actionsColumn, RowActions, RowButton, RowCard } from '../../ui/console/RowParts.tsx';
import { RegisterPage, useRegisterList } from '../../parts/registers/RegisterPage.tsx';
import { vehicleBody, vehicleValues } from '../../parts/registers/register-form.ts';
import { VehicleDialog } from './VehicleDialog.tsx';

const DEFAULTS = { search: '', active: '1', page: '0', company: '' };
const ACTIVE_OPTIONS = [
  { value: '1', label: 'В работе' },
  { value: '', label: 'Все' },
];

const column = createColumnHelper<Vehicle>();
const makeModel = (v: Vehicle) => [v.make, v.model].filter(Boolean).join(' ') || '—';
const bodyText = (body: BodyType | null) => (body ? BODY_TYPE_LABELS[body] : '—');
const driversText = (v: Vehicle) => v.drivers.map((d) => d.name).join(', ');

export function VehiclesScreen({ title }: ScreenProps) {
  const register = useRegisterList('GET /vehicles/', DEFAULTS, (state) => (state.active === '1' ? { active: '1' } : {}));
  const { list, work, editing, setEditing } = register;
  const { state, update } = list;
  const updateCall = useSend('PUT /vehicles/:id');

  function setActive(v: Vehicle, active: boolean) {
    const built = vehicleBody({ ...vehicleValues(v), is_active: active });
    if (!built.ok) {
      setEditing({ card: v });
      return;
    }
    void work.run(v.id, () => updateCall.mutateAsync({ params: { id: v.id }, body: built.body }), {
      confirm: !active && {
        title: `Снять с работы машину ${v.plate}?`,
        message: <p>Машину нельзя будет выбрать водителю; водители, за которыми она закреплена, останутся с ней до замены. Вернуть её можно в любой момент.</p>,
        confirmLabel: 'Снять с работы',
        danger: true,
      },
      done: active ? `Машина ${v.plate} снова в работе` : `Машина ${v.plate} снята с работы`,
    });
  }

  function actions(v: Vehicle) {
    const gate = work.gate(v.id);
    return (
      <RowActions>
        <RowButton gate={gate} label={`Изменить машину ${v.plate}`} onClick={() => setEditing({ card: v })}>
          Изменить
        </RowButton>
        <RowButton gate={gate} kind="quiet" label={`${v.is_active ? 'Снять с работы' : 'Вернуть в работу'}: ${v.plate}`} onClick={() => setActive(v, !v.is_active)}>
          {v.is_active ? 'Снять с работы' : 'Вернуть в работу'}
        </RowButton>
      </RowActions>
    );
  }

  const columns = [
    column.accessor('plate', { header: 'Госномер', cell: (c) => <strong className="register-plate-text">{c.getValue()}</strong> }),
    column.display({ id: 'make', header: 'Марка и модель', cell: (c) => makeModel(c.row.original) }),
    column.accessor('body_type', { header: 'Кузов', cell: (c) => bodyText(c.getValue()) }),
    column.accessor('ownership', { header: 'Владение', cell: (c) => (c.getValue() ? OWNERSHIP_LABELS[c.getValue() as Ownership] : '—') }),
    column.accessor('capacity_t', { header: 'Т', meta: { align: 'right', label: 'Грузоподъёмность' }, cell: (c) => (c.getValue() === null ? '—' : formatCapacity(c.getValue())) }),
    column.accessor('volume_m3', { header: 'м³', meta: { align: 'right', label: 'Объём кузова' }, cell: (c) => (c.getValue() === null ? '—' : formatQuantity(c.getValue(), 'м³')) }),
    column.accessor('trailer_plate', { header: 'Прицеп', cell: (c) => c.getValue() ?? '—' }),
    column.display({ id: 'drivers', header: 'Водители', cell: (c) => driversText(c.row.original) || '—' }),
    column.accessor('is_active', { header: 'Статус', cell: (c) => <VehicleBadge active={c.getValue()} /> }),
    actionsColumn(actions),
  ];

  return (
    <RegisterPage
      title={title}
      register={register}
      note="Машины компании. Текущую машину водителя выбирают из этого списка в разделе «Управление водителями»."
      searchPlaceholder="Госномер, марка или модель"
      addLabel="Добавить машину"
      offlineWhat="изменять транспорт"
      label="Транспорт компании"
      filters={<FilterSelect label="Показать" value={state.active} onChange={(active) => update({ active })} options={ACTIVE_OPTIONS} />}
      columns={columns}
      muted={(v) => !v.is_active}
      empty={
        state.search.trim() !== '' ? (
          <p>По этому поиску машин нет.</p>
        ) : state.active === '1' ? (
          <p>Машин в работе нет. Добавьте машину кнопкой «Добавить машину»; снятые с работы — в «Показать: Все».</p>
        ) : (
          <p>В парке пока нет машин. Добавьте первую кнопкой «Добавить машину».</p>
        )
      }
      card={(v) => (
        <RowCard title={v.plate} badge={<VehicleBadge active={v.is_active} />} actions={actions(v)}>
          <span>
            {makeModel(v)}
            {v.body_type ? ` · ${bodyText(v.body_type)}` : ''}
          </span>
          <span className="muted">
            {[v.capacity_t !== null && formatCapacity(v.capacity_t), v.volume_m3 !== null && formatQuantity(v.volume_m3, 'м³'), v.trailer_plate && `прицеп ${v.trailer_plate}`]
              .filter(Boolean)
              .join(' · ') || 'Грузоподъёмность не указана'}
          </span>
          {v.drivers.length > 0 && <span className="muted">Водители: {driversText(v)}</span>}
        </RowCard>
      )}
      dialog={
        editing && (
          <VehicleDialog
            card={editing.card}
            companyId={register.newCardCompany}
            onClose={() => setEditing(null)}
            onSaved={(saved) => {
              showToast('success', editing.card ? `Изменения машины ${saved.plate} сохранены` : `Машина ${saved.plate} добавлена`);
              setEditing(null);
            }}
          />
        )
      }
    />
  );
}

function VehicleBadge({ active }: { active: boolean }) {
  return <span className={`status-badge ${active ? 'status-completed' : 'status-cancelled'}`}>{active ? 'В работе' : 'Снята с работы'}</span>;
}
