/**
 * /places «Места погрузки и выгрузки» (staff; issue 31, docs/registers.md): the company's places — search by name
 * or address, the archive; a card with the point (a pasted map link, typed coordinates, «Я здесь» on a phone, or a
 * click on the small map where the server has tiles), the radius, the owner and the note for drivers; delete,
 * archived instead when tasks use the place.
 */
import { createColumnHelper } from '@tanstack/react-table';
import type { Place } from '../../../contract/registers.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useSend } from '../../engine/api.ts';
import { showToast } from '../../ui/toasts.ts';
import { FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { actionsColumn, RowCard } from '../../ui/console/RowParts.tsx';
import { PlaceDialog } from '../../parts/registers/PlaceDialog.tsx';
import { ARCHIVE_OPTIONS, ArchivedBadge, CardActions, RegisterPage, removeOptions, restoreOptions, useRegisterList, type CardWords } from '../../parts/registers/RegisterPage.tsx';
import { pointText } from '../../parts/registers/register-form.ts';

const DEFAULTS = { search: '', archived: '', page: '0', company: '' };
const WORDS: CardWords = {
  noun: 'Место',
  genitive: 'место',
  deleted: 'удалено',
  moved: 'перенесено',
  named: 'указано',
  keeps: 'задачи и водители по-прежнему увидят его адрес и заметку, а в новые задачи его выбрать будет нельзя.',
  restored: 'восстановлено',
  taskFilter: 'place',
};

const column = createColumnHelper<Place>();

function PointCell({ place }: { place: Place }) {
  if (place.lat === null || place.lon === null) return <span className="muted">нет координат</span>;
  return (
    <span>
      {pointText(place.lat, place.lon)} <span className="muted">· {place.radius_m} м</span>
    </span>
  );
}

export function PlacesScreen({ title }: ScreenProps) {
  const register = useRegisterList('GET /places/', DEFAULTS, (state) => (state.archived === '1' ? { archived: '1' } : {}));
  const { list, work, editing, setEditing } = register;
  const { state, update } = list;
  const removeCall = useSend('DELETE /places/:id');
  const restoreCall = useSend('POST /places/:id/restore');

  const actions = (p: Place) => (
    <CardActions
      words={WORDS}
      card={p}
      gate={work.gate(p.id)}
      onEdit={() => setEditing({ card: p })}
      onRemove={() => void work.run(p.id, () => removeCall.mutateAsync({ params: { id: p.id } }), removeOptions(WORDS, p))}
      onRestore={() => void work.run(p.id, () => restoreCall.mutateAsync({ params: { id: p.id } }), restoreOptions(WORDS, p))}
    />
  );

  const columns = [
    column.accessor('name', {
      header: 'Место',
      cell: (c) => (
        <span className="register-name">
          <strong>{c.getValue()}</strong>
          {c.row.original.address && <span className="muted">{c.row.original.address}</span>}
        </span>
      ),
    }),
    column.display({ id: 'point', header: 'Координаты · радиус', cell: (c) => <PointCell place={c.row.original} /> }),
    column.display({ id: 'owner', header: 'Владелец', cell: (c) => c.row.original.counterparty?.name ?? '—' }),
    column.accessor('driver_note', { header: 'Заметка для водителя', cell: (c) => <span className="register-note">{c.getValue() ?? '—'}</span> }),
    column.accessor('task_count', { header: 'Задач', meta: { align: 'right' }, cell: (c) => c.getValue() }),
    actionsColumn(actions),
  ];

  return (
    <RegisterPage
      title={title}
      register={register}
      note="Где грузят и выгружают: адрес, точка на карте и заметка, которые водитель видит в задаче вместе с кнопками навигатора."
      searchPlaceholder="Название или адрес"
      addLabel="Добавить место"
      offlineWhat="изменять места"
      label="Места погрузки и выгрузки"
      filters={<FilterSelect label="Показать" value={state.archived} onChange={(archived) => update({ archived })} options={ARCHIVE_OPTIONS} />}
      columns={columns}
      muted={(p) => p.archived_at !== null}
      empty={
        state.search.trim() !== '' || state.archived !== '' ? (
          <p>По этому фильтру мест нет.</p>
        ) : (
          <p>Мест пока нет. Добавьте карьеры, склады и объекты кнопкой «Добавить место» — или прямо из формы задачи.</p>
        )
      }
      card={(p) => (
        <RowCard title={p.name} badge={p.archived_at ? <ArchivedBadge /> : undefined} actions={actions(p)}>
          {p.address && <span>{p.address}</span>}
          <PointCell place={p} />
          {p.counterparty && <span className="muted">{p.counterparty.name}</span>}
          {p.driver_note && <span className="muted register-note">{p.driver_note}</span>}
        </RowCard>
      )}
      dialog={
        editing && (
          <PlaceDialog
            card={editing.card}
            companyId={register.newCardCompany}
            onClose={() => setEditing(null)}
            onSaved={(saved) => {
              showToast('success', editing.card ? `Изменения места «${saved.name}» сохранены` : `Место «${saved.name}» добавлено`);
              setEditing(null);
            }}
          />
        )
      }
    />
  );
}
