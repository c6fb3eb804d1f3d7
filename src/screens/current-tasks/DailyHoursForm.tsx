/** Hours worked on a date (POST /reports/daily_hours/): the server keeps one value per driver and day. */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { NEEDS_SERVER } from '../../engine/use-online.ts';
import { formatDate, isoDate } from '../../ui/format.ts';
import { failureMessage } from '../../engine/send.ts';
import { useSend } from '../../engine/api.ts';
import { parseHours } from '../../parts/driver/quantity.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { Form } from '../../ui/Form.tsx';

export function DailyHoursForm({ online }: { online: boolean }) {
  const [date, setDate] = useState(() => isoDate(new Date()));
  const [hours, setHours] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useSend('POST /reports/daily_hours/');

  async function submit() {
    const parsed = parseHours(hours);
    if (!date) {
      setError('Укажите дату');
      return;
    }
    if (!parsed.ok || parsed.value === null) {
      setError(parsed.ok ? 'Укажите количество часов' : parsed.error);
      return;
    }
    setError(null);
    try {
      await save.mutateAsync({ body: { date, hours: parsed.value } });
      showToast('success', `Часы за ${formatDate(date)} сохранены`);
      setHours('');
    } catch (failure) {
      showToast('error', failureMessage(failure, 'Нет подключения к сети: часы не сохранены.'));
    }
  }

  return (
    <section className="drv-card drv-hours" aria-labelledby="drv-hours-title">
      <h2 id="drv-hours-title" className="drv-card__title">
        Рабочие часы
      </h2>
      <Form className="drv-hours__form" onSubmit={submit}>
        <label className="drv-field">
          <span className="drv-field__label">Дата</span>
          <DateInput className="drv-input" value={date} onValue={setDate} />
        </label>
        <label className="drv-field">
          <span className="drv-field__label">Часы</span>
          <input
            className="drv-input"
            inputMode="decimal"
            autoComplete="off"
            value={hours}
            aria-invalid={Boolean(error)}
            onChange={(event) => setHours(event.target.value)}
          />
        </label>
        <button
          type="submit"
          className="drv-btn drv-btn--primary"
          disabled={!online || save.isPending}
          title={online ? undefined : NEEDS_SERVER}
        >
          {save.isPending ? 'Сохраняем...' : 'Сохранить часы'}
        </button>
      </Form>
      {error ? (
        <p className="drv-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
