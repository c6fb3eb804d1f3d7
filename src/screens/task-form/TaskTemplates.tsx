/**
 * The create form's templates (docs/task-entry.md): «Создать из шаблона» fills the form (its date stays);
 * «Сохранить как шаблон» names the form's fields for next time (a template of the same name is replaced — said
 * before); a chosen template can be deleted, after a confirmation.
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import type { TaskTemplate, TemplateFields } from '../../../contract/calls/tasks.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { NamedOptions } from '../../ui/Options.tsx';

interface Props {
  companyId: number | undefined;
  /** The form's fields as a template, or null (with the form's errors shown) when the form is not valid yet. */
  current: () => TemplateFields | null;
  suggestedName: string;
  onApply: (template: TaskTemplate) => void;
  disabled: boolean;
  /** False while the company's drivers load: a template applied then would keep none of its drivers. */
  canApply: boolean;
}

export function TaskTemplates({ companyId, current, suggestedName, onApply, disabled, canApply }: Props) {
  const list = useGet('GET /tasks/templates', companyId ? { company_id: companyId } : {});
  const save = useSend('POST /tasks/templates');
  const remove = useSend('DELETE /tasks/templates/:id');
  const [confirmElement, ask] = useConfirm();
  const [chosen, setChosen] = useState('');
  const [naming, setNaming] = useState<{ name: string; fields: TemplateFields } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const templates = list.data?.data ?? [];
  const replacing = naming ? templates.find((t) => t.name === naming.name.trim()) : undefined;

  function startSaving(): void {
    const fields = current();
    if (!fields) return;
    setError(null);
    setNaming({ name: suggestedName, fields });
  }

  async function submit(): Promise<void> {
    if (!naming) return;
    try {
      const saved = await save.mutateAsync({ body: { name: naming.name, fields: naming.fields, ...(companyId ? { company_id: companyId } : {}) } });
      showToast('success', `Шаблон «${saved.name}» ${replacing ? 'обновлён' : 'сохранён'}`);
      setNaming(null);
      setChosen(String(saved.id));
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  async function deleteChosen(): Promise<void> {
    const template = templates.find((t) => String(t.id) === chosen);
    if (!template) return;
    const yes = await ask({ title: 'Удалить шаблон?', message: `Шаблон «${template.name}» будет удалён. Созданные по нему задачи останутся.`, confirmLabel: 'Удалить', danger: true });
    if (!yes) return;
    try {
      await remove.mutateAsync({ params: { id: template.id } });
      setChosen('');
      showToast('success', `Шаблон «${template.name}» удалён`);
    } catch (failure) {
      showToast('error', `Шаблон не удалён: ${(failure as Error).message}`);
    }
  }

  return (
    <div className="task-templates">
      {confirmElement}
      <label className="task-templates__pick">
        Создать из шаблона
        <select
          value={chosen}
          disabled={disabled || !canApply || templates.length === 0}
          onChange={(event) => {
            setChosen(event.target.value);
            const template = templates.find((t) => String(t.id) === event.target.value);
            if (template) onApply(template);
          }}
        >
          <option value="">{list.isPending || !canApply ? 'Загрузка...' : templates.length === 0 ? 'Шаблонов пока нет' : 'Выберите шаблон'}</option>
          <NamedOptions items={templates} />
        </select>
      </label>
      {chosen && (
        <button type="button" className="button button-quiet" disabled={disabled || remove.isPending} onClick={() => void deleteChosen()}>
          Удалить шаблон
        </button>
      )}
      <button type="button" className="button" disabled={disabled} onClick={startSaving}>
        Сохранить как шаблон
      </button>
      {naming && (
        <FormDialog
          title="Сохранить как шаблон"
          submitLabel={replacing ? 'Заменить шаблон' : 'Сохранить'}
          busy={save.isPending}
          error={error}
          onSubmit={() => void submit()}
          onCancel={() => setNaming(null)}
        >
          <label className="field">
            Название шаблона
            <input name="template-name" value={naming.name} maxLength={100} autoFocus onChange={(event) => setNaming({ ...naming, name: event.target.value })} />
          </label>
          <p className="muted">
            В шаблон войдут груз, места, объём, цена, комментарий и водители с их долями и ставками — без даты.
            {replacing ? ` Шаблон «${replacing.name}» уже есть: он будет заменён.` : ''}
          </p>
        </FormDialog>
      )}
    </div>
  );
}
