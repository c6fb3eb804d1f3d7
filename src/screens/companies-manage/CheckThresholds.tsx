/**
 * The automatic checks of loads (docs/reports-review.md): the company's thresholds, changed by an admin. What is
 * typed stays on an error; the server's refusal shows under its field. New thresholds apply to the next report.
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import type { CheckThresholds } from '../../../contract/report-checks.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';
import { Field } from '../../ui/Field.tsx';
import { Form } from '../../ui/Form.tsx';

// A Record, so a threshold the server's checks gain (contract/report-checks.ts) cannot be left off this card.
const FIELD_TEXTS: Record<keyof CheckThresholds, { label: string; hint: string }> = {
  capacity_tolerance_pct: { label: 'Перегруз сверх грузоподъёмности, %', hint: 'Рейс больше грузоподъёмности машины на столько процентов — «Перегруз»' },
  mismatch_tolerance_pct: { label: 'Расхождение погрузки и выгрузки, %', hint: 'Общие количества покупателя на погрузке и выгрузке расходятся больше — «Погрузка ≠ выгрузка»' },
  over_share_tolerance_pct: { label: 'Сверх доли водителя, %', hint: 'Водитель довёз больше своей доли на столько процентов — «Сверх доли»' },
  min_cycle_minutes: { label: 'Минимальный рейс, мин', hint: 'От прибытия на погрузку до следующего прибытия водителя меньше — «Слишком быстрый рейс»' },
  late_filing_hours: { label: 'Отчёт с опозданием, ч', hint: 'Рейс, внесённый задним числом, пришёл позже — отметка для сведения, не ошибка' },
};
const FIELDS = (Object.keys(FIELD_TEXTS) as (keyof CheckThresholds)[]).map((key) => ({ key, ...FIELD_TEXTS[key] }));

type Texts = Record<keyof CheckThresholds, string>;

export function CheckThresholdsCard({ companyId, canEdit, offline, reason }: { companyId: number; canEdit: boolean; offline: boolean; reason?: string | undefined }) {
  const query = useGet('GET /companies/:id/checks', { id: companyId });
  if (query.isPending) return <p className="muted">Загрузка порогов проверки…</p>;
  if (query.isError) return <p className="field-error">{query.error.message}</p>;
  return <ThresholdsForm key={JSON.stringify(query.data.data)} companyId={companyId} stored={query.data.data} canEdit={canEdit} offline={offline} reason={reason} />;
}

function ThresholdsForm({ companyId, stored, canEdit, offline, reason }: { companyId: number; stored: CheckThresholds; canEdit: boolean; offline: boolean; reason?: string | undefined }) {
  const [texts, setTexts] = useState<Texts>(() => Object.fromEntries(FIELDS.map((f) => [f.key, quantityText(stored[f.key])])) as Texts);
  const [errors, setErrors] = useState<Partial<Record<keyof CheckThresholds, string>>>({});
  const save = useSend('PUT /companies/:id/checks');
  const dirty = FIELDS.some((f) => texts[f.key] !== quantityText(stored[f.key]));

  async function submit(): Promise<void> {
    const body = {} as CheckThresholds;
    const found: typeof errors = {};
    for (const f of FIELDS) {
      const parsed = parseQuantity(texts[f.key]);
      if (!parsed.ok) found[f.key] = parsed.error;
      else if (parsed.value === null) found[f.key] = 'Укажите число';
      else body[f.key] = parsed.value;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await save.mutateAsync({ params: { id: companyId }, body });
      showToast('success', 'Пороги проверки сохранены: они действуют для следующих отчётов');
    } catch (error) {
      const message = failureMessage(error);
      const field = FIELDS.find((f) => message.startsWith(`${f.key}:`));
      if (field) setErrors({ [field.key]: message.slice(field.key.length + 1).trim() });
      else showToast('error', message);
    }
  }

  return (
    <section className="check-thresholds" aria-labelledby={`checks-${companyId}`}>
      <h3 id={`checks-${companyId}`}>Автоматическая проверка рейсов</h3>
      <p className="muted">Отчёты с замечаниями не попадают в «Подтвердить все без замечаний» на экране «Отчёты».</p>
      <Form className="check-thresholds-grid" onSubmit={submit}>
        {FIELDS.map((f) => (
          <Field
            key={f.key}
            label={f.label}
            hint={f.hint}
            inputMode="decimal"
            value={texts[f.key]}
            disabled={!canEdit}
            error={errors[f.key]}
            onChange={(event) => setTexts((t) => ({ ...t, [f.key]: event.target.value }))}
          />
        ))}
        {canEdit && (
          <div className="row-actions">
            <button type="submit" className="button button-primary" disabled={offline || !dirty || save.isPending} title={reason}>
              {save.isPending ? 'Сохраняем…' : 'Сохранить пороги'}
            </button>
          </div>
        )}
      </Form>
    </section>
  );
}
