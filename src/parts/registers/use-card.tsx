/**
 * A register card's form state (counterparties, places, vehicles): the values as typed, each field's error, the
 * form's own error and the busy save. `submit` checks first (the first wrong field is focused), then saves; a
 * refusal stands under the field its label names and what was typed stays, so the person corrects and sends again.
 */
import { useState, type ReactNode } from 'react';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { ApiError } from '../../engine/queries.ts';
import { placeLabelled, type FieldErrors } from './register-form.ts';

export interface CardOptions<V, F extends string, B, R> {
  initial: V;
  /** Field order on screen: the first wrong one gets the focus. */
  fields: readonly F[];
  /** The labels refusals start with, and their fields. */
  labels: Readonly<Record<string, F>>;
  check: (values: V) => Promise<{ ok: true; body: B } | { ok: false; errors: FieldErrors<F> }> | { ok: true; body: B } | { ok: false; errors: FieldErrors<F> };
  save: (body: B) => Promise<R>;
  onSaved: (result: R) => void;
  /** Where the dialog is (its fields are found by name inside it). */
  scope: () => HTMLElement | null;
}

export function useCard<V, F extends string, B, R>(options: CardOptions<V, F, B, R>) {
  const [values, setValues] = useState<V>(options.initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function focusFirst(found: FieldErrors<F>): void {
    const first = options.fields.find((f) => found[f]);
    if (first) queueMicrotask(() => options.scope()?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  }

  function set(patch: Partial<V>): void {
    setValues((v) => ({ ...v, ...patch }));
    // An error clears when its field changes.
    const touched = Object.keys(patch).filter((k) => errors[k as F]);
    if (touched.length > 0) setErrors((e) => ({ ...e, ...Object.fromEntries(touched.map((k) => [k, undefined])) }));
  }

  async function submit(): Promise<void> {
    if (busy) return;
    setBusy(true);
    try {
      const checked = await options.check(values);
      if (!checked.ok) {
        setErrors(checked.errors);
        setFormError(null);
        focusFirst(checked.errors);
        return;
      }
      const result = await options.save(checked.body);
      options.onSaved(result);
    } catch (error) {
      if (error instanceof ApiError && !error.network) {
        const { field, message } = placeLabelled(error.message, options.labels);
        if (field) {
          setErrors({ [field]: message } as FieldErrors<F>);
          setFormError(null);
          focusFirst({ [field]: message } as FieldErrors<F>);
        } else setFormError(message);
      } else {
        setFormError('Нет связи с сервером: ничего не сохранено. Введённое осталось в форме — попробуйте ещё раз.');
      }
    } finally {
      setBusy(false);
    }
  }

  /** A text field's props: its name, what was typed, its error, and the change. */
  function text<Key extends keyof V & F & string>(key: Key) {
    return {
      name: key,
      value: values[key] as string,
      error: errors[key],
      autoComplete: 'off',
      onChange: (event: { target: { value: string } }) => set({ [key]: event.target.value } as Partial<V>),
    };
  }

  return { values, set, errors, formError, busy, submit, text };
}

/**
 * A card's save: PUT the whole card when it exists, else POST it (a super-admin's new card names its company).
 * `create` and `update` are the screen's `useSend` mutations.
 */
export function saveCard<B, R>(
  create: { mutateAsync: (input: { body: B; query?: Record<string, string> }) => Promise<R> },
  update: { mutateAsync: (input: { params: { id: number }; body: B }) => Promise<R> },
  card: { id: number } | null,
  companyId: number | null | undefined,
): (body: B) => Promise<R> {
  return (body) =>
    card ? update.mutateAsync({ params: { id: card.id }, body }) : create.mutateAsync({ body, ...(companyId ? { query: { company_id: String(companyId) } } : {}) });
}

export type Card = Pick<ReturnType<typeof useCard>, 'busy' | 'formError' | 'submit'>;

/** A card's dialog: the one modal form, its fields in two columns from 600 px, inside `scopeId` (where the focus looks for a wrong field). */
export function CardDialog({ title, submitLabel, card, scopeId, onClose, children }: { title: string; submitLabel: string; card: Card; scopeId: string; onClose: () => void; children: ReactNode }) {
  return (
    <FormDialog title={title} submitLabel={submitLabel} busy={card.busy} error={card.formError} onSubmit={() => void card.submit()} onCancel={onClose} wide>
      <div id={scopeId} className="field-full register-card-fields">
        {children}
      </div>
    </FormDialog>
  );
}
