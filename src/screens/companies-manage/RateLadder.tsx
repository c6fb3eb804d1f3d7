/**
 * A company's progressive rates as a readable ladder («от 0 до 100 т — 450 ₽/т»), with an example of what a
 * driver earns for a month's volume, and (for admins) adding, changing and removing bands. The server checks
 * the whole ladder after each change and names the band it refuses; the message is shown as it came.
 */
import { useState } from 'react';
import { toast } from 'react-toastify';
import { bandLabel, ladderRate } from '../../../contract/ladder.ts';
import type { RateBand } from '../../../contract/wages.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';
import { Field } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { formatMoney, formatQuantity, formatRate } from '../../ui/format.ts';
import { Empty, ErrorState, Loading } from '../../ui/states.tsx';

type Editing = { kind: 'add'; min: number } | { kind: 'edit'; band: RateBand } | null;

function rangeText(b: RateBand): string {
  return b.max_quantity === null ? `от ${formatQuantity(b.min_quantity, 'т')} и больше` : `от ${formatQuantity(b.min_quantity)} до ${formatQuantity(b.max_quantity, 'т')}`;
}

export function RateLadder({ companyId, canEdit, offline, reason }: { companyId: number; canEdit: boolean; offline: boolean; reason: string | undefined }) {
  const query = useGet('GET /progressive_rates/company/:id', { id: companyId });
  const removal = useSend('DELETE /progressive_rates/:id');
  const [confirmElement, ask] = useConfirm();
  const [editing, setEditing] = useState<Editing>(null);
  const [volume, setVolume] = useState('1200');
  const bands = query.data?.data ?? [];
  const top = bands.at(-1);
  const example = parseQuantity(volume);
  const exampleVolume = example.ok && example.value !== null ? example.value : null;
  const rate = exampleVolume === null ? null : ladderRate(bands, exampleVolume);

  async function remove(band: RateBand): Promise<void> {
    const yes = await ask({ title: `Удалить полосу ${bandLabel(band)}?`, message: `Ставка ${formatRate(band.rate)} перестанет действовать.`, confirmLabel: 'Удалить', danger: true });
    if (!yes) return;
    try {
      await removal.mutateAsync({ params: { id: band.id } });
      toast.success(`Полоса ${bandLabel(band)} удалена`);
    } catch (error) {
      toast.error(failureMessage(error));
    }
  }

  return (
    <section className="ladder" aria-labelledby={`ladder-${companyId}`}>
      {confirmElement}
      <h3 id={`ladder-${companyId}`}>Прогрессивная шкала ставок водителей</h3>
      <p className="muted">
        Ставка за тонну зависит от того, сколько водитель перевёз за период: чем больше объём, тем выше полоса. Она применяется к заданиям
        без собственной ставки водителя. Полосы идут от 0 т подряд, без разрывов; открытой может быть только верхняя.
      </p>
      {query.isPending ? (
        <Loading text="Загрузка ставок..." />
      ) : query.isError && !query.data ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : bands.length === 0 ? (
        <Empty>Шкала не задана: заработок считается только по ставкам водителей в заданиях.</Empty>
      ) : (
        <ol className="ladder-steps">
          {bands.map((b) => (
            <li key={b.id} className="ladder-step">
              <span className="ladder-range">{rangeText(b)}</span>
              <strong className="ladder-rate">{formatRate(b.rate)}</strong>
              {canEdit && (
                <span className="row-actions">
                  <button type="button" className="button button-small" disabled={offline} title={reason} onClick={() => setEditing({ kind: 'edit', band: b })}>
                    Изменить
                  </button>
                  <button
                    type="button"
                    className="button button-small button-quiet"
                    disabled={offline}
                    title={reason}
                    aria-label={`Удалить полосу ${bandLabel(b)}`}
                    onClick={() => void remove(b)}
                  >
                    Удалить
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {canEdit && (top === undefined || top.max_quantity !== null) && (
        <button type="button" className="button" disabled={offline} title={reason} onClick={() => setEditing({ kind: 'add', min: top?.max_quantity ?? 0 })}>
          Добавить полосу {top ? `от ${formatQuantity(top.max_quantity, 'т')}` : 'от 0 т'}
        </button>
      )}
      {bands.length > 0 && (
        <div className="ladder-example">
          <Field label="Пример: объём за месяц, т" inputMode="decimal" value={volume} onChange={(event) => setVolume(event.target.value)} />
          <p aria-live="polite">
            {exampleVolume === null
              ? 'Введите объём, чтобы увидеть пример.'
              : rate === null
                ? `За ${formatQuantity(exampleVolume, 'т')} ставка по шкале не определена.`
                : `За ${formatQuantity(exampleVolume, 'т')} в месяц водитель получит ${formatQuantity(exampleVolume)} × ${formatRate(rate)} = ${formatMoney(Math.round(exampleVolume * rate * 100) / 100)} (без заданий с собственной ставкой).`}
          </p>
        </div>
      )}
      {editing && (
        <BandDialog
          editing={editing}
          companyId={companyId}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            toast.success(editing.kind === 'add' ? 'Полоса добавлена' : 'Полоса изменена');
          }}
        />
      )}
    </section>
  );
}

function BandDialog({ editing, companyId, onClose, onSaved }: { editing: NonNullable<Editing>; companyId: number; onClose: () => void; onSaved: () => void | Promise<void> }) {
  const band = editing.kind === 'edit' ? editing.band : null;
  const [min, setMin] = useState(quantityText(band ? band.min_quantity : editing.kind === 'add' ? editing.min : 0));
  const [max, setMax] = useState(band ? quantityText(band.max_quantity) : '');
  const [rate, setRate] = useState(band ? quantityText(band.rate) : '');
  const [errors, setErrors] = useState<Partial<Record<'min_quantity' | 'max_quantity' | 'rate', string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const change = useSend('PUT /progressive_rates/:id');
  const add = useSend('POST /progressive_rates/company/:id');
  const busy = change.isPending || add.isPending;

  async function submit(): Promise<void> {
    const pMin = parseQuantity(min);
    const pMax = parseQuantity(max);
    const pRate = parseQuantity(rate);
    const found: typeof errors = {};
    if (!pMin.ok) found.min_quantity = pMin.error;
    else if (pMin.value === null) found.min_quantity = 'Укажите нижнюю границу';
    if (!pMax.ok) found.max_quantity = pMax.error;
    if (!pRate.ok) found.rate = pRate.error;
    else if (pRate.value === null) found.rate = 'Укажите ставку';
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0 || !pMin.ok || !pMax.ok || !pRate.ok) return;
    if (pMin.value === null || pRate.value === null) return;
    const body = { min_quantity: pMin.value, max_quantity: pMax.value, rate: pRate.value };
    try {
      if (band) await change.mutateAsync({ params: { id: band.id }, body });
      else await add.mutateAsync({ params: { id: companyId }, body });
      await onSaved();
    } catch (error) {
      const message = failureMessage(error);
      const match = /^(min_quantity|max_quantity|rate):\s*(.+)$/.exec(message);
      if (match) setErrors({ [match[1] as 'rate']: match[2] });
      else setFormError(message);
    }
  }

  return (
    <FormDialog title={band ? `Полоса ${bandLabel(band)}` : 'Новая полоса'} submitLabel={band ? 'Сохранить' : 'Добавить'} busy={busy} error={formError} onSubmit={() => void submit()} onCancel={onClose}>
      <Field label="От, т" inputMode="decimal" value={min} error={errors.min_quantity} onChange={(event) => setMin(event.target.value)} />
      <Field
        label="До, т"
        inputMode="decimal"
        value={max}
        error={errors.max_quantity}
        hint={band ? 'Сдвиг границы сдвинет и соседнюю полосу. Пусто — «и больше».' : 'Пусто — «и больше» (верхняя полоса).'}
        onChange={(event) => setMax(event.target.value)}
      />
      <Field label="Ставка, ₽ за т" inputMode="decimal" value={rate} error={errors.rate} onChange={(event) => setRate(event.target.value)} />
    </FormDialog>
  );
}
