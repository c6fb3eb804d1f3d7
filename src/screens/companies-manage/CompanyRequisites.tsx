/**
 * The carrier's own requisites on its company (issue 31; the waybill names the carrier by them): full name, ИНН,
 * КПП, ОГРН (ОГРНИП for an entrepreneur), legal address, phone — shown on the company's card and edited by an admin
 * in a dialog checked by the server's own rule (contract/requisites.ts); a refusal stands under its field. Beside
 * them the VAT the company's acts and invoices bill at (docs/statements.md): a rate, or «Без НДС».
 */
import { useId, useState } from 'react';
import { COMPANY_VAT_RATES } from '../../../contract/statements.ts';
import type { CompanyCard } from '../../../contract/entities.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { Field } from '../../ui/Field.tsx';
import { QueryError } from '../../ui/states.tsx';
import { showToast } from '../../ui/toasts.ts';
import { CardDialog, useCard } from '../../parts/registers/use-card.tsx';
import { placeLabelled, type FieldErrors } from '../../parts/registers/register-form.ts';
import { Select } from '../../ui/Select.tsx';

const vatText = (rate: number | null) => (rate === null ? 'Без НДС' : `${rate} % (в том числе в цене)`);

const FIELDS = ['full_name', 'inn', 'kpp', 'ogrn', 'address', 'phone', 'edo_id'] as const;
type RequisiteField = (typeof FIELDS)[number];
type Values = Record<RequisiteField, string>;

const LABELS: Readonly<Record<string, RequisiteField>> = {
  'Полное наименование': 'full_name',
  ИНН: 'inn',
  КПП: 'kpp',
  ОГРН: 'ogrn',
  ОГРНИП: 'ogrn',
  'Юридический адрес': 'address',
  Телефон: 'phone',
  'Идентификатор ЭДО': 'edo_id',
};

const SHOWN: { key: RequisiteField; label: string }[] = [
  { key: 'full_name', label: 'Полное наименование' },
  { key: 'inn', label: 'ИНН' },
  { key: 'kpp', label: 'КПП' },
  { key: 'ogrn', label: 'ОГРН / ОГРНИП' },
  { key: 'address', label: 'Юридический адрес' },
  { key: 'phone', label: 'Телефон' },
  { key: 'edo_id', label: 'Идентификатор ЭДО' },
];

async function check(values: Values): Promise<{ ok: true; body: Values } | { ok: false; errors: FieldErrors<RequisiteField> }> {
  const { companyRequisitesSchema } = await import('../../../contract/requisites.ts');
  const checked = companyRequisitesSchema.safeParse(values);
  if (checked.success) return { ok: true, body: values };
  const errors: FieldErrors<RequisiteField> = {};
  for (const issue of checked.error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]);
    if (field && !errors[field]) errors[field] = placeLabelled(issue.message, LABELS).message;
  }
  return { ok: false, errors };
}

export function CompanyRequisites({ companyId, offline, reason }: { companyId: number; offline: boolean; reason?: string | undefined }) {
  const query = useGet('GET /companies/:id', { id: companyId });
  const [editing, setEditing] = useState(false);
  const card = query.data?.data;
  return (
    <section className="company-requisites" aria-labelledby={`requisites-${companyId}`}>
      <div className="card-head">
        <h3 id={`requisites-${companyId}`}>Реквизиты перевозчика</h3>
        <button type="button" className="button button-small" disabled={offline || !card} title={reason} onClick={() => setEditing(true)}>
          Изменить реквизиты
        </button>
      </div>
      {query.isError && !card ? (
        <QueryError query={query} />
      ) : (
        <dl className="company-requisites-list">
          {SHOWN.map(({ key, label }) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{card ? (card[key] ?? <span className="muted">не указано</span>) : '…'}</dd>
            </div>
          ))}
          <div>
            <dt>НДС в актах и счетах</dt>
            <dd>{card ? vatText(card.vat_rate) : '…'}</dd>
          </div>
        </dl>
      )}
      {editing && card && <RequisitesDialog card={card} onClose={() => setEditing(false)} />}
    </section>
  );
}

function RequisitesDialog({ card, onClose }: { card: CompanyCard; onClose: () => void }) {
  const update = useSend('PUT /companies/:id');
  const scopeId = useId();
  const [vat, setVat] = useState(card.vat_rate === null ? '' : String(card.vat_rate));
  const form = useCard({
    initial: Object.fromEntries(FIELDS.map((f) => [f, card[f] ?? ''])) as Values,
    fields: FIELDS,
    labels: LABELS,
    check,
    // The call takes the name with the requisites; it is sent as it is.
    save: (body: Values) => update.mutateAsync({ params: { id: card.id }, body: { name: card.name, ...body, vat_rate: vat === '' ? null : Number(vat) } }),
    onSaved: () => {
      showToast('success', `Реквизиты компании «${card.name}» сохранены`);
      onClose();
    },
    scope: () => document.getElementById(scopeId),
  });
  const { text } = form;
  return (
    <CardDialog title={`Реквизиты «${card.name}»`} submitLabel="Сохранить" card={form} scopeId={scopeId} onClose={onClose}>
      <div className="register-wide">
        <Field label="Полное наименование" placeholder="Общество с ограниченной ответственностью «Перевозчик»" {...text('full_name')} />
      </div>
      <Field label="ИНН" inputMode="numeric" hint="10 цифр у организации, 12 у ИП" {...text('inn')} />
      <Field label="КПП" inputMode="numeric" hint="Только у организации" {...text('kpp')} />
      <Field label="ОГРН / ОГРНИП" inputMode="numeric" hint="13 цифр, у ИП — 15" {...text('ogrn')} />
      <Field label="Телефон" type="tel" placeholder="+7 900 123-45-67" {...text('phone')} />
      <div className="register-wide">
        <Field label="Юридический адрес" {...text('address')} />
      </div>
      <div className="register-wide">
        <Field label="Идентификатор ЭДО" placeholder="2BM-6623012345-662301001-202201010000000000001" hint="Выдаёт оператор ЭДО; нужен для электронных транспортных накладных" {...text('edo_id')} />
      </div>
      <Select label="НДС в актах и счетах" value={vat} onChange={(e) => setVat(e.target.value)}>
        <option value="">Без НДС (УСН)</option>
        {COMPANY_VAT_RATES.map((rate) => (
          <option key={rate} value={String(rate)}>
            {rate} % — в том числе в цене
          </option>
        ))}
      </Select>
    </CardDialog>
  );
}
