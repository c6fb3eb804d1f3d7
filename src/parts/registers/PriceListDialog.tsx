/**
 * A customer's «Цены» (issue 34 §1; docs/prices.md): the price list's lines grouped by what they price (cargo,
 * route, unit), each with its versions by date, newest first; add a line, change one, or add a new price from a
 * date. A line in force in a closed payroll month is not changed (the server refuses it too): a new version from
 * an open day is offered instead.
 */
import { useState } from 'react';
import { PRICE_UNITS, VAT_MODE_LABELS, VAT_MODES, VAT_RATES, lineLabel, type PriceLine, type PriceList } from '../../../contract/prices.ts';
import type { Counterparty } from '../../../contract/registers.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { Modal } from '../../ui/Modal.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { DateField, Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { showToast } from '../../ui/toasts.ts';
import { isoDate } from '../../ui/format.ts';
import { actVatNote, emptyLine, lineBody, lineValues, periodText, priceGroups, priceText, type LineErrors, type PriceLineValues } from './price-form.ts';
import './registers.css';

type Editing = { line: PriceLine | null; values: PriceLineValues };

export function PriceListDialog({ customer, onClose }: { customer: Counterparty; onClose: () => void }) {
  const query = useGet('GET /price-lists/', { counterparty_id: customer.id });
  // The company's VAT setting: what the acts bill, whatever a line says (actVatNote).
  const company = useGet('GET /companies/:id', { id: customer.company_id });
  const [editing, setEditing] = useState<Editing | null>(null);
  const today = isoDate(new Date());
  const startDay = (list: PriceList) => (list.first_open_day !== null && list.first_open_day > today ? list.first_open_day : today);

  return (
    <Modal className="dialog dialog-wide price-dialog" aria-label={`Цены заказчика ${customer.name}`} onClose={onClose}>
      <div className="dialog-body">
        <h2 className="dialog-title">Цены — {customer.name}</h2>
        <Loaded query={query} empty={query.data && query.data.data.lines.length === 0 ? <PricesEmpty /> : null}>
          {(list) => (
            <ul className="price-groups">
              {priceGroups(list.lines).map((group) => {
                const latest = group[0] as PriceLine;
                return (
                  <li key={latest.id} className="price-group card">
                    <div className="price-group-head">
                      <strong>{lineLabel(latest)}</strong>
                      <button type="button" className="button button-small button-quiet" onClick={() => setEditing({ line: null, values: lineValues(latest, startDay(list)) })}>
                        Новая цена с даты
                      </button>
                    </div>
                    <ol className="price-versions" aria-label="Версии цены по датам">
                      {group.map((line) => (
                        <li key={line.id} className="price-version" data-line={line.id}>
                          <span className="price-version-period">{periodText(line)}</span>
                          <span>{priceText(line)}</span>
                          {actVatNote(line, company.data?.data.vat_rate) && <span className="price-vat-note">{actVatNote(line, company.data?.data.vat_rate)}</span>}
                          {line.frozen ? (
                            <span className="muted">в закрытом месяце — не меняется</span>
                          ) : (
                            <button type="button" className="button button-small button-quiet" aria-label={`Изменить цену ${periodText(line)}`} onClick={() => setEditing({ line, values: lineValues(line) })}>
                              Изменить
                            </button>
                          )}
                        </li>
                      ))}
                    </ol>
                  </li>
                );
              })}
            </ul>
          )}
        </Loaded>
        <div className="dialog-actions">
          <button type="button" className="button button-quiet" onClick={onClose}>
            Закрыть
          </button>
          <button type="button" className="button button-primary" disabled={!query.data} onClick={() => query.data && setEditing({ line: null, values: emptyLine(startDay(query.data.data)) })}>
            Добавить цену
          </button>
        </div>
      </div>
      {editing && <PriceLineDialog customer={customer} editing={editing} onClose={() => setEditing(null)} />}
    </Modal>
  );
}

function PricesEmpty() {
  return (
    <Empty title="Цен пока нет. ">
      Добавьте цену за тонну, кубометр, рейс или час простоя — по грузу и маршруту или на любой. Новая задача этого заказчика возьмёт цену из прайса.
    </Empty>
  );
}

function PriceLineDialog({ customer, editing, onClose }: { customer: Counterparty; editing: Editing; onClose: () => void }) {
  const places = useGet('GET /places/', { limit: 200, company_id: customer.company_id });
  const create = useSend('POST /price-lists/');
  const update = useSend('PUT /price-lists/:id');
  const [values, setValues] = useState(editing.values);
  const [errors, setErrors] = useState<LineErrors>({});
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<PriceLineValues>) => setValues((v) => ({ ...v, ...patch }));
  const text = (key: keyof PriceLineValues) => ({ name: key, value: values[key], error: errors[key], onChange: (e: { target: { value: string } }) => set({ [key]: e.target.value }) });
  const placeOptions = (places.data?.data.items ?? []).map((p) => (
    <option key={p.id} value={String(p.id)}>
      {p.name}
    </option>
  ));

  async function submit(): Promise<void> {
    const checked = lineBody(values);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    setError(null);
    try {
      if (editing.line) await update.mutateAsync({ params: { id: editing.line.id }, body: checked.body });
      else await create.mutateAsync({ body: { ...checked.body, counterparty_id: customer.id } });
      showToast('success', editing.line ? 'Цена изменена' : 'Цена добавлена');
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Не удалось сохранить цену');
    }
  }

  return (
    <FormDialog
      wide
      title={editing.line ? 'Изменить цену' : 'Новая цена'}
      submitLabel={editing.line ? 'Сохранить' : 'Добавить'}
      busy={create.isPending || update.isPending}
      error={error}
      onSubmit={() => void submit()}
      onCancel={onClose}
    >
      <div className="register-card-fields">
        <Field label="Груз" placeholder="пусто — любой груз" {...text('cargo')} />
        <Select label="Единица" {...text('unit')}>
          {PRICE_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {unit === 'час' ? 'час (простой)' : unit}
            </option>
          ))}
        </Select>
        <Select label="Место погрузки" {...text('loading_place_id')}>
          <option value="">Любой маршрут</option>
          {placeOptions}
        </Select>
        <Select label="Место выгрузки" {...text('unloading_place_id')}>
          <option value="">Любой маршрут</option>
          {placeOptions}
        </Select>
        <Field label={`Цена, ₽ за ${values.unit}`} inputMode="decimal" placeholder="450,50" hint="До копеек: 450,50" {...text('price')} />
        {values.unit === 'час' && <Field label="Бесплатное время, мин" inputMode="numeric" placeholder="60" hint="Простой дольше — по часам" {...text('free_minutes')} />}
        <Select label="НДС" {...text('vat_mode')}>
          {VAT_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {VAT_MODE_LABELS[mode]}
            </option>
          ))}
        </Select>
        {values.vat_mode !== 'none' && (
          <Select label="Ставка НДС" {...text('vat_rate')}>
            <option value="">Выберите</option>
            {VAT_RATES.map((rate) => (
              <option key={rate} value={String(rate)}>
                {rate} %
              </option>
            ))}
          </Select>
        )}
        <DateField label="Действует с" name="valid_from" value={values.valid_from} error={errors.valid_from} onValue={(valid_from) => set({ valid_from })} hint="Задачи раньше этой даты сохранят свою цену" />
      </div>
    </FormDialog>
  );
}
