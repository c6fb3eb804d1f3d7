/** The dialogs of /carrier-transfers: hand a task (or edit a pending hand-over), decline with a reason, follow progress. */
import { useState } from 'react';
import type { Company } from '../../../contract/entities.ts';
import type { Transfer } from '../../../contract/transfers.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { placeServerError } from '../../ui/server-error.ts';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';
import { Field, TextAreaField } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { formatDate, formatQuantity } from '../../ui/format.ts';
import { Select } from '../../ui/Select.tsx';
import { spellingsMatch } from '../../ui/search-text.ts';
import { Loading, QueryError } from '../../ui/states.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { DRIVER_STATUS_LABELS } from '../../ui/statuses.ts';
import { NamedOptions } from '../../ui/Options.tsx';

const FIELDS = ['task_id', 'to_company_id', 'quantity', 'comment'] as const;
type FieldName = (typeof FIELDS)[number];

export function TransferDialog({
  editing,
  companies,
  ownCompanyId,
  onClose,
  onSaved,
}: {
  editing: Transfer | null;
  companies: Company[];
  ownCompanyId: number | null;
  onClose: () => void;
  onSaved: (saved: Transfer) => void | Promise<void>;
}) {
  const [search, setSearch] = useState('');
  const [taskId, setTaskId] = useState(editing ? String(editing.task.id) : '');
  const [company, setCompany] = useState(editing ? String(editing.to_company.id) : '');
  const [quantity, setQuantity] = useState(editing ? quantityText(editing.quantity) : '');
  const [comment, setComment] = useState(editing?.comment ?? '');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = useSend('POST /transfers/');
  const update = useSend('PUT /transfers/:id');
  // Tasks that can still be handed: open or under way, newest first (the server checks again).
  const tasks = useGet(editing ? null : 'GET /tasks/completed/', { status: 'all', ordering: '-date', limit: 200 });
  const candidates = (tasks.data?.data.items ?? []).filter((t) => t.status === 'open' || t.status === 'in_progress');
  const shown = candidates.filter((t) => !search.trim() || spellingsMatch(`${t.id} ${t.cargo} ${t.loading_place} ${t.unloading_place}`, search));
  const chosen = candidates.find((t) => String(t.id) === taskId) ?? null;
  const receivers = companies.filter((c) => c.id !== (editing?.from_company.id ?? chosen?.company_id ?? ownCompanyId));

  async function submit(): Promise<void> {
    const found: Partial<Record<FieldName, string>> = {};
    if (!editing && !taskId) found.task_id = 'Выберите задачу';
    if (!company) found.to_company_id = 'Выберите компанию-получателя';
    const parsed = parseQuantity(quantity);
    if (!parsed.ok) found.quantity = parsed.error;
    else if (parsed.value === 0) found.quantity = 'Количество должно быть больше нуля';
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0 || !parsed.ok) return;
    setBusy(true);
    try {
      const saved = editing
        ? await update.mutateAsync({
            params: { id: editing.id },
            body: { to_company_id: Number(company), ...(parsed.value !== null ? { quantity: parsed.value } : {}), comment: comment.trim() || null },
          })
        : await create.mutateAsync({
            body: { task_id: Number(taskId), to_company_id: Number(company), quantity: parsed.value, comment: comment.trim() || null },
          });
      await onSaved(saved);
    } catch (error) {
      const placed = placeServerError(error, FIELDS);
      if (placed.field) setErrors({ [placed.field]: placed.message });
      else setFormError(placed.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog
      title={editing ? `Передача №${editing.id}` : 'Передать задачу другой компании'}
      submitLabel={editing ? 'Сохранить' : 'Передать'}
      busy={busy}
      error={formError}
      onSubmit={() => void submit()}
      onCancel={onClose}
      wide
    >
      {editing ? (
        <p>
          <strong>{editing.task.cargo}</strong>, {formatDate(editing.task.date)}: {editing.task.loading_place} → {editing.task.unloading_place}
        </p>
      ) : (
        <>
          <Field label="Найти задачу" value={search} placeholder="Груз, место или номер" onChange={(event) => setSearch(event.target.value)} />
          <Select label="Задача" value={taskId} error={errors.task_id} onChange={(event) => setTaskId(event.target.value)}>
            <option value="">{tasks.isPending ? 'Загрузка задач...' : shown.length ? 'Выберите задачу' : 'Нет открытых задач'}</option>
            {shown.map((t) => (
              <option key={t.id} value={t.id}>
                №{t.id} · {formatDate(t.date)} · {t.cargo} · {formatQuantity(t.planned_quantity, t.unit)}
              </option>
            ))}
          </Select>
        </>
      )}
      <Select label="Кому передать" value={company} error={errors.to_company_id} onChange={(event) => setCompany(event.target.value)}>
        <option value="">Выберите компанию</option>
        <NamedOptions items={receivers} />
      </Select>
      <Field
        label={`Количество${chosen ? `, ${chosen.unit}` : editing ? `, ${editing.task.unit}` : ''}`}
        inputMode="decimal"
        value={quantity}
        error={errors.quantity}
        hint={chosen ? `Пусто — передать всё, что ещё не передано (план ${formatQuantity(chosen.planned_quantity, chosen.unit)})` : 'Пусто — передать всё, что ещё не передано'}
        onChange={(event) => setQuantity(event.target.value)}
      />
      <TextAreaField label="Комментарий" rows={3} value={comment} maxLength={2000} error={errors.comment} onChange={(event) => setComment(event.target.value)} />
    </FormDialog>
  );
}

export function DeclineDialog({ transfer, onClose, onDone }: { transfer: Transfer; onClose: () => void; onDone: () => void | Promise<void> }) {
  const decline = useSend('POST /transfers/:id/decline');
  return (
    <ReasonDialog
      title={`Отклонить передачу №${transfer.id}?`}
      submitLabel="Отклонить"
      required="Укажите причину: отправитель её увидит"
      maxLength={1000}
      onSubmit={async (reason) => {
        await decline.mutateAsync({ params: { id: transfer.id }, body: { reason } });
        await onDone();
      }}
      onClose={onClose}
    >
      <p>
        «{transfer.task.cargo}» от компании «{transfer.from_company.name}», {formatQuantity(transfer.quantity, transfer.task.unit)}.
      </p>
    </ReasonDialog>
  );
}

/** «Ход выполнения»: the receiver's carrier task and its drivers; read-only for the sender. */
export function ProgressDialog({ transfer, onClose }: { transfer: Transfer; onClose: () => void }) {
  const view = useGet('GET /transfers/carrier-task/:id', { id: transfer.id });
  const task = view.data?.data.task ?? null;
  const progress = view.data?.data.transfer.progress ?? transfer.progress;
  return (
    <Modal className="dialog dialog-wide" aria-labelledby="transfer-progress-title" onClose={onClose}>
      <div className="dialog-body">
        <h2 id="transfer-progress-title" className="dialog-title">
          Ход выполнения: передача №{transfer.id}
        </h2>
        {view.isPending ? (
          <Loading />
        ) : view.isError && !view.data ? (
          <QueryError query={view} />
        ) : !task ? (
          <p>Задача получателя удалена.</p>
        ) : (
          <>
            <p>
              Задача №{task.id} компании «{transfer.to_company.name}»: {task.cargo}, {formatDate(task.date)}.
            </p>
            {progress && (
              <p>
                Выполнено {formatQuantity(progress.completed_quantity, task.unit)} из {formatQuantity(progress.planned_quantity, task.unit)}; водителей:{' '}
                {progress.drivers}, закончили: {progress.drivers_completed}.
              </p>
            )}
            {task.drivers.length === 0 ? (
              <p className="muted">Получатель ещё не назначил водителей.</p>
            ) : (
              <ul className="transfer-drivers">
                {task.drivers.map((d) => (
                  <li key={d.driver_id}>
                    {d.driver_name} — {DRIVER_STATUS_LABELS[d.status as keyof typeof DRIVER_STATUS_LABELS] ?? d.status}
                    {d.quantity !== null ? `, ${formatQuantity(d.quantity, task.unit)}` : ''}
                  </li>
                ))}
              </ul>
            )}
            {transfer.direction === 'outgoing' && <p className="muted">Задачу ведёт получатель: здесь её можно только смотреть.</p>}
          </>
        )}
        <div className="dialog-actions">
          <button type="button" className="button button-primary" onClick={onClose} autoFocus>
            Закрыть
          </button>
        </div>
      </div>
    </Modal>
  );
}
