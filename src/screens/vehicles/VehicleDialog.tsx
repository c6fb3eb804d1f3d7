/**
 * A fleet vehicle's card (issue 31): the plate shown as it will be stored while it is typed (contract/plates.ts:
 * Latin look-alikes as Cyrillic, spaces and case ignored), a foreign plate when marked, make, model, body type,
 * ownership (when not owned: the document it is held under and the lessor's ИНН — the waybill's), capacity, volume,
 * the trailer's plate (with one: its type, make, capacity and volume), in service or not. A refusal stands under its
 * field.
 */
import { useId } from 'react';
import { BODY_TYPE_LABELS, BODY_TYPES, LEASE_DOCUMENT_NAMES, OWNERSHIP_LABELS, OWNERSHIPS, type BodyType, type Ownership, type Vehicle } from '../../../contract/registers.ts';
import { useSend } from '../../engine/api.ts';
import { DateField, Field } from '../../ui/Field.tsx';
import { Options } from '../../ui/Options.tsx';
import { Select } from '../../ui/Select.tsx';
import { emptyVehicle, plateHint, VEHICLE_FIELDS, VEHICLE_LABELS, vehicleBody, vehicleValues, type VehicleBody, type VehicleField, type VehicleValues } from '../../parts/registers/register-form.ts';
import { CardDialog, saveCard, useCard } from '../../parts/registers/use-card.tsx';
import '../../parts/registers/registers.css';

const BODY_OPTIONS = BODY_TYPES.map((value) => ({ value, label: BODY_TYPE_LABELS[value] }));
const OWNERSHIP_OPTIONS = OWNERSHIPS.map((value) => ({ value, label: OWNERSHIP_LABELS[value] }));

export function VehicleDialog({ card, companyId, onSaved, onClose }: { card: Vehicle | null; companyId: number | null; onSaved: (saved: Vehicle) => void; onClose: () => void }) {
  const create = useSend('POST /vehicles/');
  const update = useSend('PUT /vehicles/:id');
  const scopeId = useId();
  const form = useCard({
    initial: card ? vehicleValues(card) : emptyVehicle(),
    fields: VEHICLE_FIELDS,
    labels: VEHICLE_LABELS,
    check: vehicleBody,
    save: saveCard(create, update, card, companyId),
    onSaved,
    scope: () => document.getElementById(scopeId),
  });
  const { values, errors, set, text } = form;
  const plate = plateHint(values.plate, { foreign: values.is_foreign });
  const trailer = plateHint(values.trailer_plate, { foreign: values.is_foreign, trailer: true, label: 'Госномер прицепа' });

  return (
    <CardDialog title={card ? `Машина ${card.plate}` : 'Новая машина'} submitLabel={card ? 'Сохранить' : 'Добавить'} card={form} scopeId={scopeId} onClose={onClose}>
        <div className="register-wide register-plate">
          <Field label="Госномер" placeholder="А123ВС 77" hint={plate?.text} {...text('plate')} />
          <label className="check">
            <input type="checkbox" name="is_foreign" checked={values.is_foreign} onChange={(event) => set({ is_foreign: event.target.checked })} />
            Иностранный номер
          </label>
        </div>
        <Field label="Марка" placeholder="КамАЗ" {...text('make')} />
        <Field label="Модель" placeholder="65115" {...text('model')} />
        <Select label="Тип кузова" name="body_type" value={values.body_type} error={errors.body_type} onChange={(event) => set({ body_type: event.target.value as BodyType | '' })}>
          <option value="">Не указан</option>
          <Options options={BODY_OPTIONS} />
        </Select>
        <Select label="Владение" name="ownership" value={values.ownership} error={errors.ownership} onChange={(event) => set({ ownership: event.target.value as Ownership | '' })}>
          <option value="">Не указано</option>
          <Options options={OWNERSHIP_OPTIONS} />
        </Select>
        <Field label="Грузоподъёмность, т" inputMode="decimal" placeholder="22,5" hint="Можно с запятой: 22,5" {...text('capacity_t')} />
        <Field label="Объём кузова, м³" inputMode="decimal" placeholder="16" {...text('volume_m3')} />
        {values.ownership !== '' && values.ownership !== 'own' && <LeaseFields form={form} ownership={values.ownership} prefix="" legend="Документ владения (для накладной)" />}
        <Field label="Госномер прицепа" placeholder="АВ1234 77" hint={trailer?.text ?? 'Пусто — без прицепа'} {...text('trailer_plate')} />
        {values.trailer_plate.trim() !== '' && (
          <fieldset className="register-wide register-group">
            <legend>Прицеп (для накладной)</legend>
            <Field label="Тип прицепа" placeholder="Полуприцеп" {...text('trailer_type')} />
            <Field label="Марка прицепа" placeholder="НефАЗ 9509" {...text('trailer_make')} />
            <Field label="Грузоподъёмность прицепа, т" inputMode="decimal" placeholder="30" {...text('trailer_capacity_t')} />
            <Field label="Объём прицепа, м³" inputMode="decimal" placeholder="28" {...text('trailer_volume_m3')} />
            <Select
              label="Владение прицепом"
              name="trailer_ownership"
              value={values.trailer_ownership}
              error={errors.trailer_ownership}
              onChange={(event) => set({ trailer_ownership: event.target.value as Ownership | '' })}
            >
              <option value="">Не указано</option>
              <Options options={OWNERSHIP_OPTIONS} />
            </Select>
          </fieldset>
        )}
        {values.trailer_plate.trim() !== '' && values.trailer_ownership !== '' && values.trailer_ownership !== 'own' && (
          <LeaseFields form={form} ownership={values.trailer_ownership} prefix="trailer_" legend="Документ владения прицепом (для накладной)" />
        )}
        <label className="check register-active">
          <input type="checkbox" name="is_active" checked={values.is_active} onChange={(event) => set({ is_active: event.target.checked })} />
          В работе (снятую с работы машину нельзя назначить водителю)
        </label>
    </CardDialog>
  );
}

type VehicleForm = ReturnType<typeof useCard<VehicleValues, VehicleField, VehicleBody, Vehicle>>;

/** The document a vehicle (`prefix` '') or its trailer (`trailer_`) is held under when not owned, and the lessor's ИНН. */
function LeaseFields({ form, ownership, prefix, legend }: { form: VehicleForm; ownership: Exclude<Ownership, 'own'>; prefix: '' | 'trailer_'; legend: string }) {
  const { values, errors, set, text } = form;
  const date = `${prefix}lease_doc_date` as const;
  return (
    <fieldset className="register-wide register-group">
      <legend>{legend}</legend>
      <Field label="Документ" placeholder={LEASE_DOCUMENT_NAMES[ownership]} hint={`Пусто — «${LEASE_DOCUMENT_NAMES[ownership]}»`} {...text(`${prefix}lease_doc_name`)} />
      <Field label="Номер документа" placeholder="Л-2025/77" {...text(`${prefix}lease_doc_number`)} />
      <DateField label="Дата документа" name={date} value={values[date]} error={errors[date]} onValue={(iso) => set({ [date]: iso })} />
      <Field label="ИНН арендодателя" inputMode="numeric" placeholder="10 или 12 цифр" {...text(`${prefix}lessor_inn`)} />
    </fieldset>
  );
}
