/**
 * /counterparties «Неоплаченные счета» (issue 34 §2; docs/statements.md): every unpaid act of the company, oldest
 * first, with its customer, total and age; nothing is shown while there is none.
 */
import { useGet } from '../../engine/api.ts';
import { formatDate, formatMoney, plural } from '../../ui/format.ts';
import { DAYS } from '../../../contract/words.ts';
import './registers.css';

export function UnpaidInvoices() {
  const query = useGet('GET /invoices/', { state: 'issued' });
  const unpaid = [...(query.data?.data ?? [])].sort((a, b) => (b.age_days ?? 0) - (a.age_days ?? 0) || a.id - b.id);
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
            <span>{i.counterparty_name}</span>
            <span>{formatMoney(i.total)}</span>
            <span className="muted">{plural(i.age_days ?? 0, DAYS)} без оплаты</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
