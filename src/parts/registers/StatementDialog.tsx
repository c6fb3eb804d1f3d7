/**
 * A customer's «Реестр и счета» (issue 34 §2; docs/statements.md): a period; the statement of trips to download as
 * xlsx or PDF with its total; «Выставить акт и счёт» for the period's approved trips not yet billed; the customer's
 * acts with their state and age, their PDFs, and «Оплачен» with a date.
 */
import { useState } from 'react';
import { INVOICE_STATE_LABELS, type Invoice } from '../../../contract/statements.ts';
import type { Counterparty } from '../../../contract/registers.ts';
import { downloadOnce, useGet, useSend } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { Modal } from '../../ui/Modal.tsx';
import { DateField } from '../../ui/Field.tsx';
import { Loaded } from '../../ui/states.tsx';
import { showToast } from '../../ui/toasts.ts';
import { XlsxButton } from '../../ui/console/XlsxButton.tsx';
import { formatDate, formatMoney, isoDate, plural } from '../../ui/format.ts';
import { DAYS, TRIPS } from '../../../contract/words.ts';
import './registers.css';

const STATE_CLASS: Record<Invoice['state'], string> = { issued: 'status-in_progress', paid: 'status-completed', corrected: 'status-cancelled' };

/** The current month up to today. */
function thisMonth(): { from: string; to: string } {
  const today = new Date();
  return { from: isoDate(new Date(today.getFullYear(), today.getMonth(), 1)), to: isoDate(today) };
}

export function StatementDialog({ customer, onClose }: { customer: Counterparty; onClose: () => void }) {
  const [period, setPeriod] = useState(thisMonth);
  const server = useNeedsServer();
  const valid = period.from !== '' && period.to !== '' && period.from <= period.to;
  const statement = useGet(valid ? 'GET /counterparties/:id/statement' : null, { id: customer.id, from: period.from, to: period.to });
  const invoices = useGet('GET /invoices/', { counterparty_id: customer.id });
  const issue = useSend('POST /invoices/');
  const file = (format: 'xlsx' | 'pdf') => () => downloadOnce('GET /counterparties/:id/statement', { id: customer.id, from: period.from, to: period.to, format });

  async function issueAct(): Promise<void> {
    try {
      const invoice = await issue.mutateAsync({ body: { counterparty_id: customer.id, from: period.from, to: period.to } });
      showToast('success', `Выставлены акт и счёт № ${invoice.number} на ${formatMoney(invoice.total)}`);
    } catch (error) {
      showToast('error', (error as Error).message);
    }
  }

  return (
    <Modal className="dialog dialog-wide statement-dialog" aria-label={`Реестр и счета: ${customer.name}`} onClose={onClose}>
      <div className="dialog-body">
        <h2 className="dialog-title">Реестр и счета — {customer.name}</h2>
        <div className="statement-period">
          <DateField label="С" value={period.from} onValue={(from) => setPeriod((p) => ({ ...p, from }))} />
          <DateField label="По" value={period.to} onValue={(to) => setPeriod((p) => ({ ...p, to }))} error={period.from > period.to && period.to !== '' ? 'Раньше даты «С»' : undefined} />
        </div>
        {valid && (
          <Loaded query={statement}>
            {(st) => (
              <section className="statement-summary card" aria-label="Реестр рейсов за период">
                <p>
                  <strong>{plural(st.total.trips, TRIPS)}</strong> принято на <strong>{formatMoney(st.total.amount)}</strong>
                  {st.under_review.length > 0 && <span className="muted"> · на проверке ещё {st.under_review.length}</span>}
                </p>
                {st.trips.length > 0 && st.trips.every((t) => t.invoice !== null) && <p className="muted">Все принятые рейсы периода уже вошли в акты.</p>}
                {st.unpriced > 0 && <p className="field-error">Рейсов без цены: {st.unpriced} — укажите цену в задачах, прежде чем выставлять акт.</p>}
                <div className="statement-actions">
                  <XlsxButton label="Реестр xlsx" download={file('xlsx')} disabled={server.offline} title={server.reason} />
                  <XlsxButton label="Реестр PDF" download={file('pdf')} disabled={server.offline} title={server.reason} />
                  <button type="button" className="button button-primary" disabled={server.offline || issue.isPending || st.trips.every((t) => t.invoice !== null)} title={server.reason} onClick={() => void issueAct()}>
                    Выставить акт и счёт
                  </button>
                </div>
              </section>
            )}
          </Loaded>
        )}
        <h3>Акты и счета</h3>
        <Loaded query={invoices} empty={invoices.data && invoices.data.data.length === 0 ? <p className="muted">Актов пока нет.</p> : null}>
          {(list) => (
            <ul className="invoice-list">
              {list.map((invoice) => (
                <InvoiceRow key={invoice.id} invoice={invoice} offline={server.offline} reason={server.reason} />
              ))}
            </ul>
          )}
        </Loaded>
        <div className="dialog-actions">
          <button type="button" className="button button-quiet" onClick={onClose}>
            Закрыть
          </button>
        </div>
      </div>
    </Modal>
  );
}

function InvoiceRow({ invoice, offline, reason }: { invoice: Invoice; offline: boolean; reason: string | undefined }) {
  const [paidOn, setPaidOn] = useState(isoDate(new Date()));
  const paid = useSend('POST /invoices/:id/paid');
  const state = INVOICE_STATE_LABELS[invoice.state];
  async function markPaid(): Promise<void> {
    try {
      await paid.mutateAsync({ params: { id: invoice.id }, body: { date: paidOn } });
      showToast('success', `Счёт № ${invoice.number} отмечен оплаченным`);
    } catch (error) {
      showToast('error', (error as Error).message);
    }
  }
  return (
    <li className="invoice-row card" data-invoice={invoice.id}>
      <div className="invoice-head">
        <strong>
          № {invoice.number} от {formatDate(invoice.issued_on)}
        </strong>
        <span>{formatMoney(invoice.total)}</span>
        <span className={`status-badge ${STATE_CLASS[invoice.state]}`}>
          {state}
          {invoice.state === 'paid' && invoice.paid_on ? ` ${formatDate(invoice.paid_on)}` : ''}
          {invoice.age_days !== null ? ` · ${plural(invoice.age_days, DAYS)}` : ''}
        </span>
      </div>
      <span className="muted">
        {formatDate(invoice.from)} – {formatDate(invoice.to)} · {plural(invoice.trips, TRIPS)}
        {invoice.corrects_id !== null ? ' · исправленный' : ''}
      </span>
      <div className="statement-actions">
        <XlsxButton label="Акт PDF" download={() => downloadOnce('GET /invoices/:id/act.pdf', { id: invoice.id })} disabled={offline} title={reason} />
        <XlsxButton label="Счёт PDF" download={() => downloadOnce('GET /invoices/:id/invoice.pdf', { id: invoice.id })} disabled={offline} title={reason} />
      </div>
      {invoice.state === 'issued' && (
        <div className="invoice-paid">
          <DateField label="Дата оплаты" value={paidOn} onValue={setPaidOn} />
          <button type="button" className="button" disabled={offline || paid.isPending || paidOn === ''} title={reason} onClick={() => void markPaid()}>
            Оплачен
          </button>
        </div>
      )}
    </li>
  );
}
