/**
 * The company's trip settings (docs/trips.md «Trip settings»), beside the checks' thresholds: whether the receiver
 * signs per trip, once per shift or not at all; when a wait is long; how long the phone stays in a place's radius
 * before the arrival is stamped by itself; when the board says «нет данных»; whether a shift needs a trip sheet. Admins change them; what is typed stays
 * on an error, the server's refusal shows under its field.
 */
import { useState } from 'react';
import { ACCEPTANCE_MODE_LABELS, ACCEPTANCE_MODES, type TripSettings } from '../../../contract/trips.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { Field } from '../../ui/Field.tsx';
import { Form } from '../../ui/Form.tsx';
import { Select } from '../../ui/Select.tsx';
import { showToast } from '../../ui/toasts.ts';
import { isAcceptanceMode, placeRefusal, settingsBody, textsOf, type NumberKey, type SettingsErrors, type SettingsTexts } from './trip-settings-form.ts';

const NUMBER_FIELDS: Record<NumberKey, { label: string; hint: string }> = {
  long_wait_minutes: { label: 'Долгий простой, мин', hint: 'Простой на погрузке или выгрузке дольше — отметка «Долгий простой» (от 5 до 1440)' },
  geofence_dwell_seconds: { label: 'Автоотметка прибытия, с', hint: 'Столько секунд в радиусе места — и прибытие отмечается само (от 10 до 1800)' },
  no_data_minutes: { label: '«Нет данных» на доске, мин', hint: 'Рейс идёт, а отметок нет дольше — в диспетчерской «нет данных» (от 10 до 1440)' },
};

export function TripSettingsCard({ companyId, canEdit, offline, reason }: { companyId: number; canEdit: boolean; offline: boolean; reason?: string | undefined }) {
  const query = useGet('GET /companies/:id/trip-settings', { id: companyId });
  if (query.isPending) return <p className="muted">Загрузка настроек рейса…</p>;
  if (query.isError) return <p className="field-error">{query.error.message}</p>;
  return <SettingsForm key={JSON.stringify(query.data.data)} companyId={companyId} stored={query.data.data} canEdit={canEdit} offline={offline} reason={reason} />;
}

function SettingsForm({ companyId, stored, canEdit, offline, reason }: { companyId: number; stored: TripSettings; canEdit: boolean; offline: boolean; reason?: string | undefined }) {
  const [texts, setTexts] = useState<SettingsTexts>(() => textsOf(stored));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useSend('PUT /companies/:id/trip-settings');
  const dirty = JSON.stringify(texts) !== JSON.stringify(textsOf(stored));

  async function submit(): Promise<void> {
    setRefusal(null);
    const checked = settingsBody(texts);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    try {
      await save.mutateAsync({ params: { id: companyId }, body: checked.body });
      showToast('success', 'Настройки рейса сохранены');
    } catch (error) {
      const message = failureMessage(error);
      const placed = placeRefusal(message);
      if (placed) setErrors({ [placed.field]: placed.text });
      else setRefusal(message);
    }
  }

  return (
    <section className="check-thresholds" aria-labelledby={`trip-settings-${companyId}`}>
      <h3 id={`trip-settings-${companyId}`}>Рейс на телефоне водителя</h3>
      <p className="muted">Подпись получателя, автоматические отметки и когда простой считается долгим.</p>
      <Form className="check-thresholds-grid" onSubmit={submit}>
        <Select
          label="Подпись получателя"
          value={texts.acceptance_mode}
          disabled={!canEdit}
          error={errors.acceptance_mode}
          onChange={(event) => {
            const mode = event.target.value;
            if (isAcceptanceMode(mode)) setTexts((t) => ({ ...t, acceptance_mode: mode }));
          }}
        >
          {ACCEPTANCE_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {ACCEPTANCE_MODE_LABELS[mode]}
            </option>
          ))}
        </Select>
        {(Object.keys(NUMBER_FIELDS) as NumberKey[]).map((key) => (
          <Field
            key={key}
            label={NUMBER_FIELDS[key].label}
            hint={NUMBER_FIELDS[key].hint}
            inputMode="numeric"
            value={texts[key]}
            disabled={!canEdit}
            error={errors[key]}
            onChange={(event) => setTexts((t) => ({ ...t, [key]: event.target.value }))}
          />
        ))}
        <label className="check-switch">
          <input type="checkbox" checked={texts.require_trip_sheet} disabled={!canEdit} onChange={(event) => setTexts((t) => ({ ...t, require_trip_sheet: event.target.checked }))} />
          <span>
            Без путевого листа смену не начать
            <span className="muted check-switch__hint">
              Первая отметка рейса за день не принимается, пока на водителя или его машину не выписан путевой лист на этот день. В диспетчерской у
              такого водителя — «нет путевого листа».
            </span>
          </span>
        </label>
        <label className="check-switch">
          <input type="checkbox" checked={texts.driver_confirms} disabled={!canEdit} onChange={(event) => setTexts((t) => ({ ...t, driver_confirms: event.target.checked }))} />
          <span>
            Водитель подтверждает приём и сдачу груза (ПЭП)
            <span className="muted check-switch__hint">
              При выезде с погрузки водитель подтверждает на телефоне «Груз принят к перевозке», при выезде с выгрузки — «Груз сдан» простой
              электронной подписью. Титулы перевозчика Т2 и Т4 такого рейса подписывает водитель. Включайте, если оператор ЭДО принимает ПЭП
              водителя.
            </span>
          </span>
        </label>
        {refusal && (
          <p className="field-error" role="alert">
            {refusal}
          </p>
        )}
        {canEdit && (
          <div className="row-actions">
            <button type="submit" className="button button-primary" disabled={offline || !dirty || save.isPending} title={reason}>
              {save.isPending ? 'Сохраняем…' : 'Сохранить настройки рейса'}
            </button>
          </div>
        )}
      </Form>
    </section>
  );
}
