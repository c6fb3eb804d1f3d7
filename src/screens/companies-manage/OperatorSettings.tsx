/**
 * The company's operator of ЭДО (docs/documents.md «The operator of a company»): the files adapter (any operator: the
 * day's zip carried to its portal) or Контур.Диадок's API, with the box and the credentials. The secrets are
 * write-only: the server says only whether each is set («задан»), an empty field keeps it. What is typed stays on an
 * error, the server's refusal stands under the field it names and that field is focused.
 */
import { useEffect, useId, useState } from 'react';
import { BOX_ID_HINT, OPERATOR_ADAPTER_LABELS, OPERATOR_ADAPTERS, type OperatorAdapterName, type OperatorSettings, type OperatorSettingsBody } from '../../../contract/calls/operator.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { Field } from '../../ui/Field.tsx';
import { Form } from '../../ui/Form.tsx';
import { Select } from '../../ui/Select.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';

type Key = 'adapter' | 'box_id' | 'token' | 'refresh_token' | 'client_id' | 'client_secret';
type Texts = Record<Exclude<Key, 'adapter'>, string> & { adapter: OperatorAdapterName };

/** The server's label of each field (contract/calls/operator.ts and server/documents/operator-settings.ts). */
const LABELLED: [string, Key][] = [
  ['Оператор', 'adapter'],
  ['Идентификатор ящика', 'box_id'],
  ['Токен доступа', 'token'],
  ['Токен обновления', 'refresh_token'],
  ['Идентификатор клиента', 'client_id'],
  ['Секрет клиента', 'client_secret'],
];

const SOURCE_TEXT: Record<OperatorSettings['source'], string> = {
  settings: 'Сохранено в настройках компании.',
  environment: 'Сейчас действуют переменные окружения сервера (DIADOC_*): сохранённая здесь настройка их заменит.',
  default: 'Настройка не сохранялась: документы выгружаются файлами.',
};

export function OperatorSettingsCard({ companyId, offline, reason }: { companyId: number; offline: boolean; reason?: string | undefined }) {
  const query = useGet('GET /companies/:id/operator', { id: companyId });
  if (query.isPending) return <p className="muted">Загрузка настроек оператора ЭДО…</p>;
  if (query.isError) return <p className="field-error">{query.error.message}</p>;
  return <OperatorForm key={JSON.stringify(query.data.data)} stored={query.data.data} offline={offline} reason={reason} />;
}

const textsOf = (s: OperatorSettings): Texts => ({ adapter: s.adapter, box_id: s.box_id ?? '', token: '', refresh_token: '', client_id: s.client_id ?? '', client_secret: '' });

function OperatorForm({ stored, offline, reason }: { stored: OperatorSettings; offline: boolean; reason?: string | undefined }) {
  const [texts, setTexts] = useState<Texts>(() => textsOf(stored));
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useSend('PUT /companies/:id/operator');
  const scope = useId();
  const dirty = JSON.stringify(texts) !== JSON.stringify(textsOf(stored));
  const set = (key: Exclude<Key, 'adapter'>) => (event: { target: { value: string } }) => setTexts((t) => ({ ...t, [key]: event.target.value }));

  // The first wrong field takes the focus.
  useEffect(() => {
    document.getElementById(scope)?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors, scope]);

  async function submit(): Promise<void> {
    setRefusal(null);
    if (texts.adapter === 'diadoc' && !texts.box_id.trim()) return setErrors({ box_id: 'Укажите ящик Диадока' });
    setErrors({});
    const body: OperatorSettingsBody = { adapter: texts.adapter, box_id: texts.box_id.trim(), client_id: texts.client_id.trim() || null };
    // An empty secret is not sent: the stored one stays.
    if (texts.token.trim()) body.token = texts.token.trim();
    if (texts.refresh_token.trim()) body.refresh_token = texts.refresh_token.trim();
    if (texts.client_secret.trim()) body.client_secret = texts.client_secret.trim();
    try {
      await save.mutateAsync({ params: { id: stored.company_id }, body });
      showToast('success', texts.adapter === 'diadoc' ? 'Настройки Диадока сохранены: фоновая задача отправит готовые документы' : 'Документы выгружаются файлами');
    } catch (failure) {
      const message = failureMessage(failure);
      const placed = LABELLED.find(([label]) => message.startsWith(`${label}: `));
      if (placed) setErrors({ [placed[1]]: message.slice(placed[0].length + 2) });
      else setRefusal(message);
    }
  }

  const secret = (key: 'token' | 'refresh_token' | 'client_secret', label: string, isSet: boolean, hint: string) => (
    <Field
      label={label}
      type="password"
      autoComplete="off"
      value={texts[key]}
      placeholder={isSet ? 'задан' : 'не задан'}
      hint={isSet ? `Задан; пустое поле его не меняет. ${hint}` : hint}
      error={errors[key]}
      disabled={offline}
      onChange={set(key)}
    />
  );

  return (
    <section className="check-thresholds" aria-labelledby={`${scope}-title`} id={scope}>
      <h3 id={`${scope}-title`}>Оператор ЭДО для накладных</h3>
      <p className="muted">
        Через кого уходят титулы ЭТрН. {SOURCE_TEXT[stored.source]}
        {stored.updated_at && ` Изменено ${formatDateTime(stored.updated_at)}.`}
      </p>
      <Form className="check-thresholds-grid operator-grid" onSubmit={submit}>
        <Select
          label="Оператор"
          value={texts.adapter}
          error={errors.adapter}
          disabled={offline}
          onChange={(event) => setTexts((t) => ({ ...t, adapter: event.target.value === 'diadoc' ? 'diadoc' : 'files' }))}
        >
          {OPERATOR_ADAPTERS.map((a) => (
            <option key={a} value={a}>
              {OPERATOR_ADAPTER_LABELS[a]}
            </option>
          ))}
        </Select>
        {texts.adapter === 'diadoc' && (
          <>
            <Field label="Идентификатор ящика" value={texts.box_id} placeholder="09ae254c-5cd0-4082-84de-7ccb46d86f82" hint={BOX_ID_HINT} error={errors.box_id} disabled={offline} onChange={set('box_id')} />
            {secret('token', 'Токен доступа', stored.token_set, 'Токен API Диадока (Bearer); сервер его не показывает')}
            {secret('refresh_token', 'Токен обновления', stored.refresh_token_set, 'Необязательно: с ним просроченный токен обновляется сам')}
            <Field label="Идентификатор клиента" value={texts.client_id} autoComplete="off" hint="client_id из кабинета интегратора" error={errors.client_id} disabled={offline} onChange={set('client_id')} />
            {secret('client_secret', 'Секрет клиента', stored.client_secret_set, 'client_secret из кабинета интегратора')}
          </>
        )}
        {texts.adapter === 'files' && <p className="muted">Готовые документы за день скачиваются архивом на экране «Документы» и загружаются на портал любого оператора; ответы оператора загружаются обратно.</p>}
        {stored.in_flight > 0 && (
          <p className="muted">Через ящик Диадока отправлено и ждёт ответа ГИС ЭПД: {stored.in_flight}. Пока они не получат ответ, ящик сменить нельзя.</p>
        )}
        {refusal && (
          <p className="field-error" role="alert">
            {refusal}
          </p>
        )}
        <div className="row-actions">
          <button type="submit" className="button button-primary" disabled={offline || !dirty || save.isPending} title={reason}>
            {save.isPending ? 'Сохраняем…' : 'Сохранить'}
          </button>
        </div>
      </Form>
    </section>
  );
}
