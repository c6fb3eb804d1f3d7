/**
 * «Неоплаченные счета» (issue 34 §2; docs/statements.md) on /counterparties and /statistics: every unpaid act of the
 * company, oldest first, with its customer, total and age; nothing is shown while there is none. `companyId` keeps
 * one company's (a super-admin's list holds every company's); on /statistics each row leads to /counterparties.
 */
import { Link } from 'wouter';
import { useGet } from '../../engine/api.ts';
import { formatDate, formatMoney, plural } from '../../ui/format.ts';
import { DAYS } from '../../../contract/words.ts';
import './registers.css';

export function UnpaidInvoices({ companyId, linked = false }: { companyId?: number; linked?: boolean }) {
  const query = useGet('GET /invoices/', { state: 'issued' });
  const unpaid = (query.data?.data ?? []).filter((i) => companyId === undefined || i.company_id === companyId).sort((a, b) => (b.age_days ?? 0) - (a.age_days ?? 0) || a.id - b.id);
  if (unpaid.length === 0) return null;
  const total = unpaid.reduce((sum, i) => sum + Math.round(i.total * 100), 0) / 100;
  return (
    <section className="unpaid-invoices card" aria-labelledby="unpaid-invoices">
      <h2 id="unpaid-invoices">
        Неоплаченные счета: {unpaid.length} на {formatMoney(total)}
      </h2>
      <ul className="invoice-list">
        {unpaid.map((i) => (
          <li key={i.id} className="unpaid-invoice" data-invoice={i.id}>
            <strong>
              № {i.number} от {formatDate(i.issued_on)}
            </strong>
            {linked ? <Link href={`/counterparties?search=${encodeURIComponent(i.counterparty_name)}`}>{i.counterparty_name}</Link> : <span>{i.counterparty_name}</span>}
            <span>{formatMoney(i.total)}</span>
            <span className="muted">{plural(i.age_days ?? 0, DAYS)} без оплаты</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
