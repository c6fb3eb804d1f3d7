/**
 * A counterparty's card (issue 31): create or edit every field, or — `essential`, from the task form — a new one
 * with what a task needs (form, name, ИНН, КПП, roles). The form's check is the server's schema
 * (contract/requisites.ts); a refusal, the form's or the server's (a duplicate ИНН + КПП names the card that has
 * it), stands under its field, and everything typed stays.
 */
import { useId } from 'react';
import { COUNTERPARTY_ROLE_LABELS, COUNTERPARTY_ROLES, INN_LENGTH, LEGAL_FORM_NAMES, LEGAL_FORMS, type LegalForm } from '../../../contract/requisites.ts';
import type { Counterparty } from '../../../contract/registers.ts';
import { useSend } from '../../engine/api.ts';
import { Field, TextAreaField } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Options } from '../../ui/Options.tsx';
import {
  checkCounterparty,
  COUNTERPARTY_FIELDS,
  COUNTERPARTY_LABELS,
  counterpartyBody,
  counterpartyValues,
  emptyCounterparty,
  type CounterpartyValues,
} from './register-form.ts';
import { CardDialog, saveCard, useCard } from './use-card.tsx';
import './registers.css';

const FORM_OPTIONS = LEGAL_FORMS.map((form) => ({ value: form, label: LEGAL_FORM_NAMES[form] }));

export interface CounterpartyDialogProps {
  /** The card to edit; null: a new one. */
  card: Counterparty | null;
  /** What a new card starts with (a role, a name typed in a picker). */
  initial?: Partial<CounterpartyValues>;
  /** Only the fields a task needs (the task form's in-place create). */
  essential?: boolean;
  /** A super-admin's company for a new card. */
  companyId?: number | null;
  onSaved: (saved: Counterparty) => void;
  onClose: () => void;
}

export function CounterpartyDialog({ card, initial, essential = false, companyId, onSaved, onClose }: CounterpartyDialogProps) {
  const create = useSend('POST /counterparties/');
  const update = useSend('PUT /counterparties/:id');
  const scopeId = useId();
  const form = useCard({
    initial: card ? counterpartyValues(card) : { ...emptyCounterparty(), ...initial },
    fields: COUNTERPARTY_FIELDS,
    labels: COUNTERPARTY_LABELS,
    check: async (values: CounterpartyValues) => {
      const errors = await checkCounterparty(values);
      return Object.keys(errors).length > 0 ? { ok: false as const, errors } : { ok: true as const, body: counterpartyBody(values) };
    },
    save: saveCard(create, update, card, companyId),
    onSaved,
    scope: () => document.getElementById(scopeId),
  });
  const { values, errors, set, text } = form;
  const form_ = values.legal_form;
  const ogrnLabel = form_ === 'ip' ? 'ОГРНИП' : 'ОГРН';

  return (
    <CardDialog title={card ? `Контрагент «${card.name}»` : 'Новый контрагент'} submitLabel={card ? 'Сохранить' : 'Создать'} card={form} scopeId={scopeId} onClose={onClose}>
        <Select label="Форма" name="legal_form" value={form_} error={errors.legal_form} onChange={(event) => set({ legal_form: event.target.value as LegalForm })}>
          <Options options={FORM_OPTIONS} />
        </Select>
        <Field label="Название" placeholder="ООО «Гранит»" {...text('name')} />
        {!essential && <Field label="Полное наименование" placeholder="Общество с ограниченной ответственностью «Гранит»" {...text('full_name')} />}
        <Field label="ИНН" inputMode="numeric" hint={`${INN_LENGTH[form_]} цифр${form_ === 'fl' ? ', можно не указывать' : ''}`} {...text('inn')} />
        {form_ === 'ul' && <Field label="КПП" inputMode="numeric" hint="9 знаков" {...text('kpp')} />}
        {!essential && form_ !== 'fl' && <Field label={ogrnLabel} inputMode="numeric" hint={form_ === 'ip' ? '15 цифр' : '13 цифр'} {...text('ogrn')} />}
        <fieldset className="register-roles field-full" aria-describedby={errors.roles ? `${scopeId}-roles` : undefined}>
          <legend>Роли</legend>
          {COUNTERPARTY_ROLES.map((role) => (
            <label key={role} className="check">
              <input
                type="checkbox"
                name="roles"
                checked={values.roles.includes(role)}
                onChange={(event) =>
                  set({ roles: event.target.checked ? [...values.roles, role] : values.roles.filter((r) => r !== role) })
                }
              />
              {COUNTERPARTY_ROLE_LABELS[role]}
            </label>
          ))}
          {errors.roles && (
            <span id={`${scopeId}-roles`} className="field-error">
              {errors.roles}
            </span>
          )}
        </fieldset>
        {!essential && (
          <>
            <Field label="Юридический адрес" {...text('address')} />
            <Field label="Контактное лицо" {...text('contact_name')} />
            <Field label="Телефон" type="tel" placeholder="+7 900 123-45-67" {...text('phone')} />
            <Field label="Идентификатор ЭДО" hint="Для обмена электронными накладными" {...text('edo_id')} />
            <TextAreaField label="Примечание" rows={2} {...text('note')} />
          </>
        )}
    </CardDialog>
  );
}
