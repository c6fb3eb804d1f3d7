/**
 * A company's progressive rates as a readable ladder («от 0 до 100 т — 450 ₽/т»), in versions by start date
 * («с 01.12.2026»): the one in force now, the ones that start later, the earlier ones folded away. An example of
 * what a driver earns for a month's volume, and (for admins) adding, changing and removing bands — each change
 * names the date it is in force from, and the dialog says what it will reprice before it is saved. The server
 * checks the whole ladder after each change and names the band it refuses; the message is shown as it came.
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { bandLabel, ladderRate } from '../../../contract/ladder.ts';
import type { RateBand, ScaleImpact } from '../../../contract/wages.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { failureMessage } from '../../engine/send.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';
import { Field } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { formatMoney, formatQuantity, formatRate, plural } from '../../ui/format.ts';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';
import { placeServerError } from '../../ui/server-error.ts';

type Editing = { kind: 'add'; min: number; from: string } | { kind: 'edit'; band: RateBand } | null;

const dateText = (iso: string): string => (iso <= '2000-01-01' ? 'с начала' : `с ${iso.split('-').reverse().join('.')}`);
const todayIso = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The bands grouped by version, oldest first, and which one is in force today. */
function versionsOf(bands: readonly RateBand[]): { from: string; bands: RateBand[]; state: 'past' | 'current' | 'future' }[] {
  const froms = [...new Set(bands.map((b) => b.valid_from))].sort();
  const today = todayIso();
  const current = froms.filter((f) => f <= today).at(-1);
  return froms.map((from) => ({
    from,
    bands: bands.filter((b) => b.valid_from === from).sort((a, b) => a.min_quantity - b.min_quantity),
    state: from === current ? 'current' : from > today ? 'future' : 'past',
  }));
}

function rangeText(b: RateBand): string {
  return b.max_quantity === null ? `от ${formatQuantity(b.min_quantity, 'т')} и больше` : `от ${formatQuantity(b.min_quantity)} до ${formatQuantity(b.max_quantity, 'т')}`;
}

export function RateLadder({ companyId, canEdit, offline, reason }: { companyId: number; canEdit: boolean; offline: boolean; reason: string | undefined }) {
  const query = useGet('GET /progressive_rates/company/:id', { id: companyId });
  const removal = useSend('DELETE /progressive_rates/:id');
  const [confirmElement, ask] = useConfirm();
  const [editing, setEditing] = useState<Editing>(null);
  const [volume, setVolume] = useState('1200');
  const versions = versionsOf(query.data?.data ?? []);
  const current = versions.find((v) => v.state === 'current');
  const bands = current?.bands ?? [];
  const [showPast, setShowPast] = useState(false);
  const example = parseQuantity(volume);
  const exampleVolume = example.ok && example.value !== null ? example.value : null;
  const rate = exampleVolume === null ? null : ladderRate(bands, exampleVolume);

  async function remove(band: RateBand): Promise<void> {
    const yes = await ask({
      title: `Удалить полосу ${bandLabel(band)}?`,
      message: `Ставка ${formatRate(band.rate)} перестанет действовать в версии шкалы ${dateText(band.valid_from)}.`,
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!yes) return;
    try {
      await removal.mutateAsync({ params: { id: band.id }, query: { valid_from: band.valid_from } });
      showToast('success', `Полоса ${bandLabel(band)} удалена`);
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  return (
    <section className="ladder" aria-labelledby={`ladder-${companyId}`}>
      {confirmElement}
      <h3 id={`ladder-${companyId}`}>Прогрессивная шкала ставок водителей</h3>
      <p className="muted">
        Ставка за тонну зависит от того, сколько водитель перевёз за месяц: весь объём месяца оплачивается по ставке полосы, до которой он
        дорос. Шкала применяется к рейсам без собственной ставки водителя. Полосы идут от 0 т подряд, без разрывов; открытой может быть только
        верхняя. Изменение действует с выбранной даты: рейсы до неё сохраняют прежнюю ставку, закрытые месяцы не меняются.
      </p>
      {query.isPending ? (
        <Loading text="Загрузка ставок..." />
      ) : query.isError && !query.data ? (
        <QueryError query={query} />
      ) : versions.length === 0 ? (
        <Empty>Шкала не задана: заработок считается только по ставкам водителей в заданиях.</Empty>
      ) : (
        versions
          .filter((v) => v.state !== 'past' || showPast)
          .map((v) => (
            <div key={v.from} className={`ladder-version ladder-version--${v.state}`}>
              <h4 className="ladder-version__title">
                Версия {dateText(v.from)}
                {v.state === 'current' ? ' — действует сейчас' : v.state === 'future' ? ' — начнёт действовать' : ' — прежняя'}
              </h4>
              <ol className="ladder-steps">
                {v.bands.map((b) => (
                  <li key={b.id} className="ladder-step">
                    <span className="ladder-range">{rangeText(b)}</span>
                    <strong className="ladder-rate">{formatRate(b.rate)}</strong>
                    {canEdit && v.state !== 'past' && (
                      <span className="row-actions">
                        <button type="button" className="button button-small" disabled={offline} title={reason} onClick={() => setEditing({ kind: 'edit', band: b })}>
                          Изменить
                        </button>
                        <button
                          type="button"
                          className="button button-small button-quiet"
                          disabled={offline}
                          title={reason}
                          aria-label={`Удалить полосу ${bandLabel(b)} (версия ${dateText(b.valid_from)})`}
                          onClick={() => void remove(b)}
                        >
                          Удалить
                        </button>
                      </span>
                    )}
                  </li>
                ))}
              </ol>
              {canEdit && v.state !== 'past' && v.bands.at(-1)?.max_quantity !== null && (
                <button
                  type="button"
                  className="button"
                  disabled={offline}
                  title={reason}
                  onClick={() => setEditing({ kind: 'add', min: v.bands.at(-1)?.max_quantity ?? 0, from: v.from })}
                >
                  Добавить полосу от {formatQuantity(v.bands.at(-1)?.max_quantity ?? 0, 'т')}
                </button>
              )}
            </div>
          ))
      )}
      {versions.some((v) => v.state === 'past') && (
        <button type="button" className="button button-small button-quiet" onClick={() => setShowPast(!showPast)} aria-expanded={showPast}>
          {showPast ? 'Скрыть прежние версии' : `Прежние версии (${versions.filter((v) => v.state === 'past').length})`}
        </button>
      )}
      {canEdit && versions.length === 0 && (
        <button type="button" className="button" disabled={offline} title={reason} onClick={() => setEditing({ kind: 'add', min: 0, from: '' })}>
          Добавить полосу от 0 т
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
            showToast('success', editing.kind === 'add' ? 'Полоса добавлена' : 'Полоса изменена');
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
  const [errors, setErrors] = useState<Partial<Record<'min_quantity' | 'max_quantity' | 'rate' | 'valid_from', string>>>({});
  // The date the change is in force from: a future version's own date, else the server's default (the first day of
  // the current open month), which the impact call answers when asked without one.
  const ownFrom = band ? (band.valid_from > todayIso() ? band.valid_from : '') : editing.kind === 'add' && editing.from > todayIso() ? editing.from : '';
  const [from, setFrom] = useState(ownFrom);
  const impact = useGet('GET /progressive_rates/company/:id/impact', { id: companyId, ...(from ? { valid_from: from } : {}) });
  const effective = from || impact.data?.data.valid_from || '';
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
    const body = { min_quantity: pMin.value, max_quantity: pMax.value, rate: pRate.value, ...(effective ? { valid_from: effective } : {}) };
    try {
      if (band) await change.mutateAsync({ params: { id: band.id }, body });
      else await add.mutateAsync({ params: { id: companyId }, body });
      await onSaved();
    } catch (error) {
      const placed = placeServerError(error, ['min_quantity', 'max_quantity', 'rate', 'valid_from'] as const);
      if (placed.field) setErrors({ [placed.field]: placed.message });
      else setFormError(placed.message);
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
      <label className="field">
        <span>Действует с</span>
        <DateInput aria-label="Действует с" value={effective} min={impact.data?.data.first_open_day ?? undefined} onValue={setFrom} />
        {errors.valid_from && <span className="field-error">{errors.valid_from}</span>}
      </label>
      <p className="muted" aria-live="polite">
        {impact.data
          ? impactText(impact.data.data)
          : 'Считаем, что затронет изменение…'}
      </p>
    </FormDialog>
  );
}

/** What a change from its date reprices: «Затронет 12 принятых отчётов (340 т) 3 водителей с 01.11.2026 …». */
function impactText(i: ScaleImpact): string {
  const span = `${dateText(i.valid_from)}${i.until ? ` по ${i.until.split('-').reverse().join('.')} (дальше — следующая версия)` : ''}`;
  const closed = i.first_open_day ? ` Раньше ${i.first_open_day.split('-').reverse().join('.')} менять нельзя: месяц закрыт.` : '';
  if (i.loads === 0) return `Изменение действует ${span}. Принятых отчётов по шкале в эти дни пока нет.${closed}`;
  return `Изменение действует ${span} и пересчитает ${plural(i.loads, ['принятый отчёт', 'принятых отчёта', 'принятых отчётов'])} на ${formatQuantity(i.quantity, 'т')} у ${plural(i.drivers, ['водителя', 'водителей', 'водителей'])}.${closed}`;
}
