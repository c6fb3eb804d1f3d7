/** The payroll's two forms: an adjustment (driver, ± amount, reason, the day, maybe the load) and reopening a month. */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { monthLabel, type PayrollMonth } from '../../../contract/money.ts';
import { useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { Field, TextAreaField } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { Select } from '../../ui/Select.tsx';
import { formatMoney } from '../../ui/format.ts';
import { placeServerError } from '../../ui/server-error.ts';

const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** «1 500,50» or «-250» → a number with at most two decimals; null with a message otherwise. */
function parseAmount(text: string): { value: number } | { error: string } {
  const clean = text.replace(/\s/g, '').replace(',', '.').replace('−', '-');
  if (!/^-?\d+(\.\d{1,2})?$/.test(clean)) return { error: 'Сумма: число, до двух знаков после запятой; минус — удержание' };
  const value = Number(clean);
  return value === 0 ? { error: 'Сумма не может быть нулевой' } : { value };
}

export function AdjustmentDialog({ month, onClose }: { month: PayrollMonth; onClose: () => void }) {
  const [driver, setDriver] = useState(month.drivers[0] ? String(month.drivers[0].driver_id) : '');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [date, setDate] = useState(month.status === 'closed' ? today() : today().slice(0, 7) === month.month ? today() : `${month.month}-01`);
  const [report, setReport] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'driver' | 'amount' | 'reason' | 'report', string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const add = useSend('POST /payroll/adjustments');

  async function submit(): Promise<void> {
    const found: typeof errors = {};
    const parsed = parseAmount(amount);
    if (!driver) found.driver = 'Выберите водителя';
    if ('error' in parsed) found.amount = parsed.error;
    if (reason.trim().length < 3) found.reason = 'Укажите причину';
    if (report && !/^\d+$/.test(report.trim())) found.report = 'Номер отчёта — число';
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0 || 'error' in parsed) return;
    try {
      const made = await add.mutateAsync({
        body: { company_id: month.company_id, driver_id: Number(driver), amount: parsed.value, reason: reason.trim(), date, ...(report ? { report_id: Number(report) } : {}) },
      });
      showToast('success', `Корректировка ${formatMoney(made.amount)} проведена ${made.date.split('-').reverse().join('.')}`);
      onClose();
    } catch (error) {
      const placed = placeServerError(error, ['amount', 'reason', 'report_id', 'driver_id'] as const);
      if (placed.field) setErrors({ [({ amount: 'amount', reason: 'reason', report_id: 'report', driver_id: 'driver' } as const)[placed.field]]: placed.message });
      else setFormError(placed.message);
    }
  }

  return (
    <FormDialog title="Корректировка" submitLabel="Провести" busy={add.isPending} error={formError} onSubmit={() => void submit()} onCancel={onClose}>
      <p className="muted">Корректировка проводится днём открытого месяца и входит в его расчёт. Закрытые месяцы не меняются.</p>
      <Select label="Водитель" value={driver} error={errors.driver} onChange={(e) => setDriver(e.target.value)}>
        {month.drivers.length === 0 && <option value="">В этом месяце водителей нет</option>}
        {month.drivers.map((d) => (
          <option key={d.driver_id} value={d.driver_id}>
            {d.driver_name}
          </option>
        ))}
      </Select>
      <Field label="Сумма, ₽ (минус — удержание)" inputMode="decimal" value={amount} error={errors.amount} onChange={(e) => setAmount(e.target.value)} />
      <TextAreaField label="Причина" value={reason} error={errors.reason} rows={2} onChange={(e) => setReason(e.target.value)} />
      <label className="field">
        <span>День проведения</span>
        <DateInput aria-label="День проведения" value={date} onValue={setDate} />
      </label>
      <Field label="№ отчёта, если корректировка касается отчёта" inputMode="numeric" value={report} error={errors.report} onChange={(e) => setReport(e.target.value)} />
    </FormDialog>
  );
}

export function ReopenDialog({ month, onClose }: { month: PayrollMonth; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reopen = useSend('POST /payroll/reopen');

  async function submit(): Promise<void> {
    if (reason.trim().length < 3) {
      setError('Укажите причину: она останется в истории месяца');
      return;
    }
    try {
      await reopen.mutateAsync({ body: { company_id: month.company_id, month: month.month, reason: reason.trim() } });
      showToast('success', `${monthLabel(month.month)}: месяц снова открыт`);
      onClose();
    } catch (e) {
      setError(failureMessage(e));
    }
  }

  return (
    <FormDialog title={`Открыть заново ${monthLabel(month.month)}?`} submitLabel="Открыть месяц" busy={reopen.isPending} error={error} onSubmit={() => void submit()} onCancel={onClose}>
      <p className="muted">Сохранённые цифры будут удалены, месяц снова станет считаться по рейсам. Причина попадёт в историю месяца.</p>
      <TextAreaField label="Причина" value={reason} rows={3} onChange={(e) => setReason(e.target.value)} />
    </FormDialog>
  );
}
