/** A driver's vehicles, and choosing the current one (PUT /users/me/transport/{id}/). */
import { showToast } from '../../ui/toasts.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { formatCapacity } from '../../ui/format.ts';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';

export function TransportsList() {
  const query = useGet('GET /users/me/transports/');
  const server = useNeedsServer();
  // Refetches the vehicles and the profile (its current vehicle) when it settles.
  const choose = useSend('PUT /users/me/transport/:id/');
  const chooseTransport = (id: number) =>
    choose.mutate({ params: { id } }, { onSuccess: () => showToast('success', 'Текущий транспорт выбран'), onError: (error) => showToast('error', error.message) });

  let body;
  if (query.isPending) body = <Loading text="Загрузка транспорта..." />;
  else if (query.isError) body = <QueryError query={query} />;
  else {
    const transports = query.data.data;
    body =
      transports.length === 0 ? (
        <Empty>Транспорт не добавлен.</Empty>
      ) : (
        <>
          <ul className="list">
            {transports.map((transport) => (
              <li key={transport.id} className={transport.is_current ? 'list-item is-current' : 'list-item'}>
                <div>
                  <strong>{transport.vehicle_number}</strong> {transport.vehicle_brand}
                  <div className="muted">Грузоподъёмность: {formatCapacity(transport.vehicle_capacity)}</div>
                </div>
                {transport.is_current ? (
                  <span className="tag">Текущий</span>
                ) : (
                  <button
                    type="button"
                    className="button"
                    disabled={choose.isPending || server.offline}
                    title={server.reason}
                    onClick={() => chooseTransport(transport.id)}
                    aria-label={`Сделать текущим ${transport.vehicle_number}`}
                  >
                    Сделать текущим
                  </button>
                )}
              </li>
            ))}
          </ul>
          {transports.some((transport) => !transport.is_current) && (
            <NeedsServerHint offline={server.offline} what="выбрать текущий транспорт" />
          )}
        </>
      );
  }

  return (
    <section className="card" aria-labelledby="transports-title">
      <div className="card-head">
        <h2 id="transports-title">Транспорт</h2>
        {query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}
      </div>
      {body}
    </section>
  );
}
