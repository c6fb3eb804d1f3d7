/**
 * A report's trip as it happened (docs/trips.md), for staff: the four stamps with how each was made, the distance
 * from its place and the accuracy, each position on a map; the waits (простой) with those over the company's
 * threshold marked; the receiver's acceptance with the signature (its bytes through the engine, like the photos),
 * or the refusal and its reason. A trip filed in one form says «внесён задним числом».
 */
import { useQuery } from '@tanstack/react-query';
import { TRIP_STEP_DONE, TRIP_STEPS, type Acceptance, type Position, type TimelineStamp, type TripFacts } from '../../../contract/trips.ts';
import { useGet } from '../../engine/api.ts';
import { signatureBlobQuery } from '../../engine/photo-blob.ts';
import { formatDateTime } from '../../ui/format.ts';
import { BlobImage } from './Gallery.tsx';
import { mapLink, minutesText, STAMP_SOURCE_WORDS, stampPlaceText, waitLines } from './trip-words.ts';

/** The stamp's receipt is shown apart when it came this much later than its device time (an offline phone). */
const LATE_RECEIPT_MS = 5 * 60_000;

export function TripTimeline({ trip, companyId }: { trip: TripFacts; companyId: number }) {
  const settings = useGet('GET /companies/:id/trip-settings', { id: companyId });
  const longWait = settings.data?.data.long_wait_minutes ?? null;
  // A report stored on this device before the server answered timelines (the engine's cache) has none to show.
  if ((trip as Partial<TripFacts>).timeline === undefined) return null;
  const stamped = TRIP_STEPS.some((step) => trip.timeline[step] && trip.timeline[step].source !== 'form');
  return (
    <section className="card report-trip" aria-labelledby="report-trip-title">
      <h2 id="report-trip-title">
        Рейс
        {trip.after_the_fact && <span className="status-badge report-trip__late">внесён задним числом</span>}
      </h2>
      {trip.after_the_fact && (
        <p className="muted">Водитель внёс рейс одной формой после его окончания: времена введены вручную, координат нет.</p>
      )}
      <ol className="trip-timeline" aria-label="Отметки рейса">
        {TRIP_STEPS.map((step) => (
          <Stamp key={step} name={TRIP_STEP_DONE[step]} stamp={trip.timeline[step]} />
        ))}
      </ol>
      {stamped && (
        <>
          <h3>Простой и время в пути</h3>
          <dl className="facts trip-waits">
            {waitLines(trip.waits, longWait).map((line) => (
              <div key={line.key} className={`trip-waits__line${line.long ? ' trip-waits__line--long' : ''}`}>
                <dt>{line.label}</dt>
                <dd>
                  {line.minutes === null ? <span className="muted">— {line.missing}</span> : minutesText(line.minutes)}
                  {line.long && longWait !== null ? <span className="trip-waits__over"> · дольше порога {minutesText(longWait)}</span> : null}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <h3>Приёмка груза</h3>
      <AcceptanceView acceptance={trip.acceptance} afterTheFact={trip.after_the_fact} />
    </section>
  );
}

function MapLink({ position, what }: { position: Position; what: string }) {
  return (
    <a href={mapLink(position)} target="_blank" rel="noreferrer" aria-label={`${what}: на карте`}>
      на карте
    </a>
  );
}

function Stamp({ name, stamp }: { name: string; stamp: TimelineStamp | null }) {
  if (!stamp) {
    return (
      <li className="trip-timeline__step trip-timeline__step--missing">
        <span className="trip-timeline__time">—</span>
        <span className="trip-timeline__name">{name}</span>
        <span className="trip-timeline__meta muted">нет отметки</span>
      </li>
    );
  }
  // A typed stamp's receipt is the report's, shown in its facts.
  const late = stamp.source !== 'form' && Date.parse(stamp.received_at) - Date.parse(stamp.at) > LATE_RECEIPT_MS;
  return (
    <li className="trip-timeline__step">
      <span className="trip-timeline__time">{formatDateTime(stamp.at)}</span>
      <span className="trip-timeline__name">{name}</span>
      <span className="trip-timeline__meta">
        <span className={`trip-source trip-source--${stamp.source}`}>{STAMP_SOURCE_WORDS[stamp.source]}</span>
        {stamp.source !== 'form' && (
          <>
            {' · '}
            {stampPlaceText(stamp)}
            {stamp.position && (
              <>
                {' · '}
                <MapLink position={stamp.position} what={name} />
              </>
            )}
          </>
        )}
        {late && <span className="muted"> · дошло до сервера {formatDateTime(stamp.received_at)}</span>}
      </span>
    </li>
  );
}

function AcceptanceView({ acceptance, afterTheFact }: { acceptance: Acceptance; afterTheFact: boolean }) {
  if (acceptance.kind === 'none') {
    return <p className="muted">{afterTheFact ? 'Подпись получателя не собиралась: рейс внесён задним числом.' : 'Получатель не расписался: приёмки нет.'}</p>;
  }
  const when = (
    <>
      {acceptance.at ? formatDateTime(acceptance.at) : ''}
      {acceptance.scope === 'shift' ? ' · одна подпись за смену' : ''}
      {acceptance.position && (
        <>
          {' · '}
          <MapLink position={acceptance.position} what="Место приёмки" />
        </>
      )}
    </>
  );
  if (acceptance.kind === 'refused') {
    return (
      <div className="trip-acceptance">
        <p className="trip-acceptance__refused">
          <strong>Получатель отказался подписать</strong>
          {acceptance.receiver_name ? ` (${acceptance.receiver_name})` : ''}
        </p>
        <p>Причина: «{acceptance.refused_reason ?? 'не указана'}»</p>
        <p className="muted">{when}</p>
      </div>
    );
  }
  return (
    <div className="trip-acceptance">
      <p>
        Принял: <strong>{acceptance.receiver_name ?? 'имя не указано'}</strong>
        {acceptance.receiver_position ? `, ${acceptance.receiver_position}` : ''}
      </p>
      <p className="muted">{when}</p>
      {acceptance.signature_url ? <Signature url={acceptance.signature_url} /> : <p className="muted">Изображение подписи не сохранено.</p>}
    </div>
  );
}

function Signature({ url }: { url: string }) {
  const query = useQuery(signatureBlobQuery(url));
  if (query.isError) return <p className="field-error">Подпись не загрузилась: {query.error.message}</p>;
  return (
    <figure className="trip-signature">
      {query.data ? <BlobImage blob={query.data} alt="Подпись получателя" className="trip-signature__img" /> : <span className="skeleton trip-signature__skeleton" />}
      <figcaption className="muted">Подпись получателя</figcaption>
    </figure>
  );
}
