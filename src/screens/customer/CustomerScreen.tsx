/**
 * /c/{token}: the customer's page (issue 34 §3, docs/customer-link.md), outside the signed-in shell, no account.
 * Today's trips live (polled every 20 s: the page has no session for the change feed), the period's list with the
 * ticket, the vehicle, the quantities, the receiver's signature and the photos, the totals; a trip disputed with a
 * reason; the statement of the period (xlsx, PDF), the acts and invoices issued to him and each trip's proof of
 * delivery and waybill to download. Everything comes from `/api/c/{token}/…`, which answers only this customer's.
 */
import { useEffect, useState } from 'react';
import { useParams } from 'wouter';
import { CUSTOMER_PAGE_POLL_MS, PUBLIC_TRIP_STATE_LABELS, publicWaybillLine, type PublicTrip, type PublicTrips } from '../../../contract/customer-links.ts';
import { INVOICE_STATE_LABELS } from '../../../contract/statements.ts';
import { TRIP_STEP_DONE, TRIP_STEPS } from '../../../contract/trips.ts';
import { sendOnce, useGet } from '../../engine/api.ts';
import { formatDate, formatDateTime, formatMoney, formatQuantity } from '../../ui/format.ts';
import { Loading } from '../../ui/states.tsx';
import './customer.css';

const clock = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' }) : '');
const REVIEW_LABELS: Record<PublicTrip['review'], string> = { pending: 'На проверке у перевозчика', approved: 'Проверен перевозчиком', disputed: 'Исправляется водителем' };

export function CustomerScreen() {
  const { token = '' } = useParams<{ token: string }>();
  const [period, setPeriod] = useState<{ from?: string; to?: string }>({});
  const page = useGet('GET /c/:token/trips', { token, ...period }, { refetchInterval: CUSTOMER_PAGE_POLL_MS, retry: false });

  useEffect(() => {
    document.title = 'Рейсы заказчика — Рейс';
  }, []);

  if (page.isPending) return <main className="cust-page"><Loading text="Открываем рейсы..." /></main>;
  if (page.isError) {
    const text = page.error.network ? 'Нет связи с сервером: рейсы не загрузились. Страница попробует снова сама.' : page.error.message;
    return (
      <main className="cust-page">
        <h1>Рейсы заказчика</h1>
        <p role="alert">{text}</p>
      </main>
    );
  }
  const data = page.data.data;
  return (
    <main className="cust-page">
      <header className="cust-head">
        <h1>Рейсы — {data.customer_name}</h1>
        <p className="cust-muted">
          Перевозчик: {data.carrier_name}. Ссылка действует до {formatDateTime(data.expires_at)}. Обновляется сама каждые 20 секунд.
        </p>
      </header>

      <section aria-labelledby="cust-live">
        <h2 id="cust-live">Сегодня, {formatDate(data.today)}</h2>
        {data.live.length === 0 ? <p className="cust-muted">Сегодня рейсов пока нет.</p> : <TripList trips={data.live} token={token} onChanged={() => void page.refetch()} />}
      </section>

      <section aria-labelledby="cust-period">
        <h2 id="cust-period">Рейсы за период</h2>
        <PeriodForm from={data.from} to={data.to} onChange={setPeriod} />
        <Totals data={data} />
        {data.trips.length === 0 ? <p className="cust-muted">За этот период рейсов нет.</p> : <TripList trips={data.trips} token={token} onChanged={() => void page.refetch()} />}
      </section>

      <Documents token={token} from={data.from} to={data.to} />
    </main>
  );
}

function PeriodForm({ from, to, onChange }: { from: string; to: string; onChange: (p: { from: string; to: string }) => void }) {
  const [draft, setDraft] = useState({ from, to });
  return (
    <form
      className="cust-period"
      onSubmit={(e) => {
        e.preventDefault();
        onChange(draft);
      }}
    >
      <label>
        С <input type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} required />
      </label>
      <label>
        по <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} required />
      </label>
      <button type="submit" className="button button-small">Показать</button>
    </form>
  );
}

function Totals({ data }: { data: PublicTrips }) {
  const t = data.totals;
  return (
    <dl className="cust-totals" aria-label="Итоги за период">
      <div><dt>Рейсов</dt><dd>{t.trips}</dd></div>
      <div><dt>Доставлено</dt><dd>{t.delivered}</dd></div>
      <div><dt>С подписью</dt><dd>{t.signed}</dd></div>
      {t.by_unit.map((u) => (
        <div key={u.unit}><dt>Погружено / выгружено</dt><dd>{formatQuantity(u.loaded, u.unit)} / {formatQuantity(u.unloaded, u.unit)}</dd></div>
      ))}
    </dl>
  );
}

/** The statement of the shown period and the acts and invoices issued to the customer, to download. */
function Documents({ token, from, to }: { token: string; from: string; to: string }) {
  const invoices = useGet('GET /c/:token/invoices', { token }, { retry: false });
  const statement = (format: 'xlsx' | 'pdf') => `/api/c/${token}/statement?from=${from}&to=${to}&format=${format}`;
  return (
    <section aria-labelledby="cust-docs">
      <h2 id="cust-docs">Документы</h2>
      <p>Реестр рейсов за {formatDate(from)} – {formatDate(to)}:</p>
      <div className="cust-actions">
        <a className="button button-small" href={statement('xlsx')} download>Реестр xlsx</a>
        <a className="button button-small" href={statement('pdf')} download>Реестр PDF</a>
      </div>
      {invoices.isPending ? (
        <p className="cust-muted">Загружаем акты...</p>
      ) : invoices.isError ? (
        <p role="alert">{invoices.error.message}</p>
      ) : invoices.data.data.length === 0 ? (
        <p className="cust-muted">Актов и счетов пока нет.</p>
      ) : (
        <ul className="cust-docs" aria-label="Акты и счета">
          {invoices.data.data.map((i) => (
            <li key={i.id} className="list-item">
              <span>
                Акт и счёт № {i.number} от {formatDate(i.issued_on)} за {formatDate(i.from)} – {formatDate(i.to)}: {formatMoney(i.total)} ·{' '}
                {i.state === 'paid' && i.paid_on ? `Оплачен ${formatDate(i.paid_on)}` : INVOICE_STATE_LABELS[i.state]}
              </span>
              <span className="cust-actions">
                <a className="button button-small" href={i.act_url} download>Акт PDF</a>
                <a className="button button-small" href={i.invoice_url} download>Счёт PDF</a>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TripList({ trips, token, onChanged }: { trips: PublicTrip[]; token: string; onChanged: () => void }) {
  return (
    <ul className="cust-list">
      {trips.map((t) => <TripCard key={t.id} trip={t} token={token} onChanged={onChanged} />)}
    </ul>
  );
}

/**
 * «Погружено 20 т, выгружено 19,5 т»; a quantity not reported yet is left out («Погружено 20 т»); none at all:
 * «Груз ещё не погружен» before the truck leaves the loading, else «Количество не указано».
 */
function loadLine(t: PublicTrip): string {
  const parts = [t.loaded !== null ? `погружено ${formatQuantity(t.loaded, t.unit)}` : null, t.unloaded !== null ? `выгружено ${formatQuantity(t.unloaded, t.unit)}` : null].filter(Boolean).join(', ');
  if (parts) return parts[0]!.toUpperCase() + parts.slice(1);
  return t.state === 'planned' || t.state === 'loading' ? 'Груз ещё не погружен' : 'Количество не указано';
}

function acceptanceText(t: PublicTrip): string {
  if (t.acceptance === 'signed') return `Принял: ${t.receiver_name ?? '—'}, подписано`;
  if (t.acceptance === 'refused') return `Получатель отказался подписать${t.refused_reason ? `: ${t.refused_reason}` : ''}`;
  return 'Подписи получателя нет';
}

function TripCard({ trip: t, token, onChanged }: { trip: PublicTrip; token: string; onChanged: () => void }) {
  const stamped = TRIP_STEPS.filter((s) => t.times[s]);
  const open = t.disputes.some((d) => d.answer === null);
  return (
    <li className="cust-card" aria-label={`Рейс ${t.ticket_number ?? t.id}`}>
      <div className="cust-card-top">
        <span className={`cust-state cust-state--${t.state}`}>{PUBLIC_TRIP_STATE_LABELS[t.state]}</span>
        <span className="cust-muted">{formatDate(t.date)}</span>
      </div>
      <p className="cust-title">
        {t.ticket_number ? `Талон ${t.ticket_number}` : 'Без талона'} · {t.vehicle_plate ?? 'машина не указана'} · {t.driver_name}
      </p>
      <p>{t.cargo}: {t.loading_place} → {t.unloading_place}</p>
      <p>{loadLine(t)}</p>
      {stamped.length > 0 && (
        <ol className="cust-times">
          {stamped.map((s) => <li key={s}>{clock(t.times[s])} — {TRIP_STEP_DONE[s]}</li>)}
        </ol>
      )}
      <p>{acceptanceText(t)}</p>
      {(t.signature_url || t.photo_urls.length > 0) && (
        <div className="cust-images">
          {t.signature_url && <a href={t.signature_url} target="_blank" rel="noreferrer"><img src={t.signature_url} alt="Подпись получателя" className="cust-signature" /></a>}
          {t.photo_urls.map((url, i) => <a key={url} href={url} target="_blank" rel="noreferrer"><img src={url} alt={`Фото ${i + 1}`} loading="lazy" /></a>)}
        </div>
      )}
      <p className={`cust-waybill${t.waybill.state ? ` cust-waybill--${t.waybill.state}` : ''}`}>
        {publicWaybillLine(t.waybill)}
        {t.waybill.uid && <span className="cust-muted"> · УИД {t.waybill.uid}</span>}
      </p>
      <div className="cust-actions">
        <a className="button button-small button-quiet" href={t.pod_url} download>Доставка PDF</a>
        <a className="button button-small button-quiet" href={t.waybill_url} download>Накладная PDF</a>
      </div>
      <p className="cust-muted">{REVIEW_LABELS[t.review]}</p>
      {t.disputes.map((d) => (
        <div key={d.id} className="cust-dispute">
          <p><strong>Вы оспорили {formatDateTime(d.created_at)}:</strong> {d.reason}</p>
          <p>{d.answer ? <><strong>Ответ перевозчика:</strong> {d.answer}</> : 'Перевозчик ещё не ответил.'}</p>
        </div>
      ))}
      {!open && <DisputeForm token={token} reportId={t.id} onDone={onChanged} />}
    </li>
  );
}

function DisputeForm({ token, reportId, onDone }: { token: string; reportId: number; onDone: () => void }) {
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!opened) return <button type="button" className="button button-small button-quiet" onClick={() => setOpened(true)}>Оспорить рейс</button>;
  return (
    <form
      className="cust-dispute-form"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        sendOnce('POST /c/:token/trips/:report_id/dispute', { params: { token, report_id: reportId }, body: { reason } })
          .then(() => {
            setOpened(false);
            onDone();
          })
          .catch((err: unknown) => setError(err instanceof Error ? err.message : 'Не отправилось'))
          .finally(() => setBusy(false));
      }}
    >
      <label>
        Что не так с рейсом
        <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={1000} required minLength={5} />
      </label>
      {error && <p role="alert" className="form-error">{error}</p>}
      <div className="cust-actions">
        <button type="submit" className="button button-small button-primary" disabled={busy}>Отправить перевозчику</button>
        <button type="button" className="button button-small button-quiet" onClick={() => setOpened(false)}>Отмена</button>
      </div>
    </form>
  );
}
