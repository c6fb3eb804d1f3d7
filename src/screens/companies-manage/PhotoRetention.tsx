/**
 * The company's photo-retention rule (docs/scale.md «Хранение фото»): keep every photo, or let photos of trips older
 * than N years go to the archive folder or be deleted, once a day by the server. The trip and its figures stay.
 * Choosing deletion asks first; what the last daily run did is shown.
 */
import { useState } from 'react';
import { RETENTION_ACTION_LABELS, type PhotoRetention, type RetentionAction } from '../../../contract/calls/retention.ts';
import { plural, REPORTS } from '../../../contract/words.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Form } from '../../ui/Form.tsx';
import { Select } from '../../ui/Select.tsx';
import { formatBytes, formatDate } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';

type Choice = 'keep' | RetentionAction;

export function PhotoRetentionCard({ companyId, offline, reason }: { companyId: number; offline: boolean; reason?: string | undefined }) {
  const query = useGet('GET /companies/:id/photo-retention', { id: companyId });
  if (query.isPending) return <p className="muted">Загрузка правила хранения фото…</p>;
  if (query.isError) return <p className="field-error">{query.error.message}</p>;
  return <RetentionForm key={JSON.stringify(query.data.data.rule)} companyId={companyId} stored={query.data.data} offline={offline} reason={reason} />;
}

function lastRunText(run: NonNullable<PhotoRetention['last_run']>): string {
  const what = run.action === 'archive' ? 'перенесены в архив' : 'удалены';
  if (run.photos === 0) return `Последняя проверка ${formatDate(run.on)}: фото рейсов до ${formatDate(run.before)} уже нет.`;
  return `Последняя проверка ${formatDate(run.on)}: ${run.photos} фото ${plural(run.reports, REPORTS)} до ${formatDate(run.before)} (${formatBytes(run.bytes)}) ${what}.`;
}

function RetentionForm({ companyId, stored, offline, reason }: { companyId: number; stored: PhotoRetention; offline: boolean; reason?: string | undefined }) {
  const [choice, setChoice] = useState<Choice>(stored.rule?.action ?? 'keep');
  const [years, setYears] = useState(String(stored.rule?.years ?? 3));
  const [error, setError] = useState<string | undefined>();
  const [confirmElement, ask] = useConfirm();
  const save = useSend('PUT /companies/:id/photo-retention');
  const dirty = choice !== (stored.rule?.action ?? 'keep') || (choice !== 'keep' && years !== String(stored.rule?.years ?? 3));

  async function submit(): Promise<void> {
    let rule: { years: number; action: RetentionAction } | null = null;
    if (choice !== 'keep') {
      const n = Number(years.trim());
      if (!/^\d+$/.test(years.trim()) || n < 1 || n > 50) {
        setError('Укажите целое число лет от 1 до 50');
        return;
      }
      rule = { years: n, action: choice };
      if (choice === 'delete') {
        const yes = await ask({
          title: 'Удалять старые фото?',
          message: `Каждый день фото рейсов старше ${plural(n, ['года', 'лет', 'лет'])} будут удаляться без возможности восстановления. Рейсы, количества и начисления останутся.`,
          confirmLabel: 'Удалять',
          danger: true,
        });
        if (!yes) return;
      }
    }
    setError(undefined);
    try {
      await save.mutateAsync({ params: { id: companyId }, body: { rule } });
      showToast('success', rule ? 'Правило хранения фото сохранено: сервер применит его сегодня' : 'Фото хранятся бессрочно');
    } catch (failure) {
      setError(failureMessage(failure));
    }
  }

  return (
    <section className="check-thresholds" aria-labelledby={`retention-${companyId}`}>
      <h3 id={`retention-${companyId}`}>Хранение фото рейсов</h3>
      <p className="muted">Фото занимают больше всего места. Рейсы, их количества, талоны и начисления хранятся всегда; история рейса скажет, куда делись фото.</p>
      <Form className="check-thresholds-grid" onSubmit={submit}>
        <Select label="Старые фото" value={choice} disabled={offline} onChange={(event) => setChoice(event.target.value as Choice)}>
          <option value="keep">Хранить бессрочно</option>
          <option value="archive">Переносить в архивную папку</option>
          <option value="delete">Удалять</option>
        </Select>
        {choice !== 'keep' && (
          <Field
            label="Хранить, лет"
            hint={`Фото рейсов старше этого срока ${RETENTION_ACTION_LABELS[choice] === 'удалять' ? 'удаляются' : 'переносятся в архив'} раз в день`}
            inputMode="numeric"
            value={years}
            error={error}
            disabled={offline}
            onChange={(event) => setYears(event.target.value)}
          />
        )}
        {choice === 'keep' && error && <p className="field-error">{error}</p>}
        <div className="row-actions">
          <button type="submit" className="button button-primary" disabled={offline || !dirty || save.isPending} title={reason}>
            {save.isPending ? 'Сохраняем…' : 'Сохранить'}
          </button>
        </div>
      </Form>
      {stored.last_run && <p className="muted">{lastRunText(stored.last_run)}</p>}
      {confirmElement}
    </section>
  );
}
