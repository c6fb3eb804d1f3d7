/**
 * A customer's «Ссылка для заказчика» (issue 34 §3; docs/customer-link.md): make a link for N days — its address
 * shown once, with «Скопировать» — and the customer's links with their last use (when, which page, the address),
 * each revocable («Отозвать», asked first).
 */
import { useState } from 'react';
import { LINK_DAYS_MAX, type CustomerLink, type CustomerLinkCreated } from '../../../contract/customer-links.ts';
import type { Counterparty } from '../../../contract/registers.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';
import './registers.css';

const STATE_LABELS: Record<CustomerLink['state'], string> = { active: 'действует', expired: 'срок истёк', revoked: 'отозвана' };

function lastUse(link: CustomerLink): string {
  if (!link.last_used_at) return 'ещё не открывали';
  return `${formatDateTime(link.last_used_at)} · ${link.last_page ?? ''} · ${link.last_address ?? ''} · просмотров: ${link.views}`;
}

export function CustomerLinksDialog({ customer, onClose }: { customer: Counterparty; onClose: () => void }) {
  // The last use changes without a write of ours: asked afresh each time the dialog opens.
  const query = useGet('GET /customer-links/', { counterparty_id: customer.id }, { refetchOnMount: 'always' });
  const create = useSend('POST /customer-links/');
  const revoke = useSend('DELETE /customer-links/:id');
  const [days, setDays] = useState('30');
  const [made, setMade] = useState<CustomerLinkCreated | null>(null);
  const [asking, setAsking] = useState<CustomerLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const address = made ? `${window.location.origin}${made.url}` : '';

  async function makeLink(): Promise<void> {
    setError(null);
    try {
      setMade(await create.mutateAsync({ body: { counterparty_id: customer.id, days: Number(days) } }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Ссылка не создалась');
    }
  }

  return (
    <Modal className="dialog dialog-wide links-dialog" aria-label={`Ссылка для заказчика ${customer.name}`} onClose={onClose}>
      <div className="dialog-body">
        <h2 className="dialog-title">Ссылка для заказчика — {customer.name}</h2>
        <p className="muted">
          По ссылке заказчик без входа видит только свои рейсы: сегодняшние — вживую, за период — с талонами, объёмами, подписью получателя и фото — и может оспорить рейс.
        </p>
        <form
          className="links-make"
          onSubmit={(e) => {
            e.preventDefault();
            void makeLink();
          }}
        >
          <label>
            Действует, дней
            <input type="number" inputMode="numeric" min={1} max={LINK_DAYS_MAX} value={days} onChange={(e) => setDays(e.target.value)} required />
          </label>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Создать ссылку
          </button>
        </form>
        {error && <p role="alert" className="form-error">{error}</p>}
        {made && (
          <div className="links-made" role="status">
            <p>Ссылка создана. Она показывается только сейчас — скопируйте и отправьте заказчику:</p>
            <input type="text" readOnly value={address} aria-label="Ссылка для заказчика" onFocus={(e) => e.target.select()} />
            <button
              type="button"
              className="button button-small"
              onClick={() =>
                void navigator.clipboard.writeText(address).then(
                  () => showToast('success', 'Ссылка скопирована'),
                  () => showToast('error', 'Не удалось скопировать: выделите ссылку и скопируйте вручную'),
                )
              }
            >
              Скопировать
            </button>
          </div>
        )}
        <h3>Ссылки заказчика</h3>
        <Loaded query={query} empty={query.data && query.data.data.length === 0 ? <Empty title="Ссылок пока нет." /> : null}>
          {(links) => (
            <ul className="links-list">
              {links.map((link) => (
                <li key={link.id} className="links-item card" data-link={link.id}>
                  <span>
                    <strong>Создана {formatDateTime(link.created_at)}</strong>
                    {link.created_by_name ? `, ${link.created_by_name}` : ''} · до {formatDateTime(link.expires_at)} · {STATE_LABELS[link.state]}
                  </span>
                  <span className="muted">Последнее открытие: {lastUse(link)}</span>
                  {link.state === 'active' && (
                    <button type="button" className="button button-small button-danger" onClick={() => setAsking(link)}>
                      Отозвать
                    </button>
                  )}
                </li>
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
      {asking && (
        <ConfirmDialog
          title="Отозвать ссылку?"
          message={`Заказчик «${customer.name}» больше не сможет открыть эту ссылку. Это не отменить: понадобится новая ссылка.`}
          confirmLabel="Отозвать"
          danger
          onAnswer={(yes) => {
            const link = asking;
            setAsking(null);
            if (yes)
              revoke.mutateAsync({ params: { id: link.id } }).then(
                () => showToast('success', 'Ссылка отозвана'),
                (failure: unknown) => showToast('error', failure instanceof Error ? failure.message : 'Не удалось отозвать ссылку'),
              );
          }}
        />
      )}
    </Modal>
  );
}
