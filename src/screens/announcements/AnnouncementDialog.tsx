/** «Новое объявление»: title, text, whether drivers must respond, and (super-admin) whom it is for. */
import { useState } from 'react';
import type { Company } from '../../../contract/entities.ts';
import type { Announcement } from '../../../contract/announcements.ts';
import { useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { Field, TextAreaField } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { Select } from '../../ui/Select.tsx';
import { NamedOptions } from '../../ui/Options.tsx';

type FieldName = 'title' | 'body' | 'company_id';

export function AnnouncementDialog({
  companies,
  superAdmin,
  onClose,
  onSaved,
}: {
  companies: Company[];
  superAdmin: boolean;
  onClose: () => void;
  onSaved: (created: Announcement) => void | Promise<void>;
}) {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [requiresResponse, setRequiresResponse] = useState(false);
  const [company, setCompany] = useState('');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const post = useSend('POST /announcements/');

  async function submit(): Promise<void> {
    const found: Partial<Record<FieldName, string>> = {};
    if (!title.trim()) found.title = 'Укажите заголовок';
    if (!body.trim()) found.body = 'Напишите текст объявления';
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const created = await post.mutateAsync({
        body: {
          title: title.trim(),
          body: body.trim(),
          requires_response: requiresResponse,
          ...(superAdmin ? { company_id: company ? Number(company) : null } : {}),
        },
      });
      await onSaved(created);
    } catch (error) {
      const message = failureMessage(error);
      const match = /^(title|body|company_id):\s*(.+)$/.exec(message);
      if (match) setErrors({ [match[1] as FieldName]: match[2] });
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog title="Новое объявление" submitLabel="Опубликовать" busy={busy} error={formError} onSubmit={() => void submit()} onCancel={onClose}>
      <Field label="Заголовок" value={title} maxLength={200} error={errors.title} onChange={(event) => setTitle(event.target.value)} />
      <TextAreaField label="Текст" rows={6} value={body} maxLength={5000} error={errors.body} onChange={(event) => setBody(event.target.value)} />
      {superAdmin && (
        <Select label="Для кого" value={company} error={errors.company_id} onChange={(event) => setCompany(event.target.value)}>
          <option value="">Все компании</option>
          <NamedOptions items={companies} />
        </Select>
      )}
      <label className="field-check">
        <input type="checkbox" checked={requiresResponse} onChange={(event) => setRequiresResponse(event.target.checked)} />
        Требовать ответа от водителей
      </label>
      {requiresResponse && <p className="muted">Водители увидят форму ответа; ответы придут на вкладку «Ответы водителей».</p>}
    </FormDialog>
  );
}
