/**
 * The task's register links (issue 31, docs/registers.md): the customer, the shipper and the consignee (each a
 * counterparty with that role), the loading and unloading places — picked by search-as-you-type (a counterparty by
 * name or ИНН), or created in place with their essential fields in a small dialog. A place may still be typed: the
 * server links the company's place of that name. The shipper and the consignee left empty default on the server
 * to the places' owners, else the customer.
 */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { CounterpartyRole } from '../../../contract/requisites.ts';
import { CounterpartyDialog } from '../../parts/registers/CounterpartyDialog.tsx';
import { PlaceDialog } from '../../parts/registers/PlaceDialog.tsx';
import { RegisterPicker, type Picked } from '../../parts/registers/RegisterPicker.tsx';
import type { FieldErrors, LinkValue, PartyKey, TaskFormValues } from './task-form.ts';

const PARTIES: { key: PartyKey; role: CounterpartyRole; label: string; hint?: string }[] = [
  { key: 'customer', role: 'customer', label: 'Заказчик' },
  { key: 'shipper', role: 'shipper', label: 'Грузоотправитель', hint: 'Пусто — владелец места погрузки или заказчик' },
  { key: 'consignee', role: 'consignee', label: 'Грузополучатель', hint: 'Пусто — владелец места выгрузки или заказчик' },
];
const SIDES = [
  { side: 'loading', text: 'loading_place', label: 'Место погрузки' },
  { side: 'unloading', text: 'unloading_place', label: 'Место выгрузки' },
] as const;
type Side = (typeof SIDES)[number]['side'];

type Creating = { kind: 'party'; key: PartyKey; role: CounterpartyRole; text: string } | { kind: 'place'; side: Side; text: string } | null;

interface TaskLinksProps {
  values: TaskFormValues;
  errors: FieldErrors;
  onChange: (patch: Partial<TaskFormValues>) => void;
  companyId: number | null;
  disabled: boolean;
  part: 'parties' | 'places';
}

/** Typed digits are an ИНН, anything else a name. */
const startOf = (text: string) => (/^\d{10}(\d{2})?$/.test(text.replace(/\s/g, '')) ? { inn: text.replace(/\s/g, '') } : { name: text });

export function TaskLinks({ values, errors, onChange, companyId, disabled, part }: TaskLinksProps) {
  const [creating, setCreating] = useState<Creating>(null);
  const parties = values.parties ?? {};
  const partyText = values.party_text ?? {};

  // The patch names the picker's field too (`customer_id`), so the form clears its error as it does a typed field's.
  const setParty = (key: PartyKey, picked: LinkValue | null, text: string) =>
    onChange({ parties: { ...parties, [key]: picked }, party_text: { ...partyText, [key]: text }, ...({ [`${key}_id`]: undefined } as object) });
  const setPlace = (side: Side, picked: LinkValue | null, text: string) =>
    onChange(side === 'loading' ? { loading: picked, loading_place: text } : { unloading: picked, unloading_place: text });
  const pick = (p: Picked): LinkValue => ({ id: p.id, name: p.name, detail: p.detail ?? null });

  // The dialogs have forms of their own: outside the task's form in the page, and their submit kept from it.
  const dialog =
    creating &&
    createPortal(
      <div onSubmit={(event) => event.stopPropagation()}>
        {creating.kind === 'party' ? (
          <CounterpartyDialog
            card={null}
            essential
            companyId={companyId}
            initial={{ roles: [creating.role], ...startOf(creating.text) }}
            onClose={() => setCreating(null)}
            onSaved={(saved) => {
              setParty(creating.key, { id: saved.id, name: saved.name, detail: saved.inn ? `ИНН ${saved.inn}` : null }, saved.name);
              setCreating(null);
            }}
          />
        ) : (
          <PlaceDialog
            card={null}
            essential
            companyId={companyId}
            initial={{ name: creating.text }}
            onClose={() => setCreating(null)}
            onSaved={(saved) => {
              setPlace(creating.side, { id: saved.id, name: saved.name, detail: saved.address }, saved.name);
              setCreating(null);
            }}
          />
        )}
      </div>,
      document.body,
    );

  if (part === 'parties') {
    return (
      <div className="task-form-parties">
        {dialog}
        {PARTIES.map(({ key, role, label, hint }) => (
          <RegisterPicker
            key={key}
            register="counterparties"
            role={role}
            label={label}
            name={`${key}_id`}
            text={partyText[key] ?? ''}
            picked={parties[key] ?? null}
            onText={(text) => setParty(key, null, text)}
            onPick={(p) => setParty(key, pick(p), p.name)}
            onCreate={(text) => setCreating({ kind: 'party', key, role, text })}
            createLabel="Создать контрагента"
            placeholder="Название или ИНН"
            error={errors[`${key}_id`]}
            hint={hint ?? 'Необязательно'}
            companyId={companyId}
            disabled={disabled}
          />
        ))}
      </div>
    );
  }
  return (
    <div className="task-form-pair">
      {dialog}
      {SIDES.map(({ side, text, label }) => (
        <RegisterPicker
          key={side}
          register="places"
          label={label}
          name={text}
          text={values[text]}
          picked={values[side] ?? null}
          onText={(typed) => setPlace(side, null, typed)}
          onPick={(p) => setPlace(side, pick(p), p.name)}
          onCreate={(typed) => setCreating({ kind: 'place', side, text: typed })}
          createLabel="Создать место"
          error={errors[text]}
          hint={values[text].trim() ? 'Не из справочника: задача найдёт место с таким названием или сохранит текст' : 'Название или адрес'}
          companyId={companyId}
          disabled={disabled}
        />
      ))}
    </div>
  );
}
