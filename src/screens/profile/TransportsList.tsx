/** A driver's vehicles, and choosing the current one (PUT /users/me/transport/{id}/). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { Transport } from '../../../contract/entities.ts';
import { getEngine } from '../../engine/engine.ts';
import { unwrap, useApiQuery, type ApiError } from '../../engine/queries.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { formatCapacity } from '../../ui/format.ts';
import { listOf } from '../../ui/list.ts';
import { Empty, ErrorState, Loading } from '../../ui/states.tsx';

const TRANSPORTS = '/users/me/transports/';

export function TransportsList() {
  const query = useApiQuery<Transport[] | { items: Transport[] }>(TRANSPORTS);
  const client = useQueryClient();
  const server = useNeedsServer();
  const choose = useMutation<unknown, ApiError, number>({
    mutationFn: async (id) => unwrap(await getEngine().send('PUT', `/users/me/transport/${id}/`)),
    onSuccess: async () => {
      toast.success('Текущий транспорт выбран');
      await Promise.all([
        client.invalidateQueries({ queryKey: [TRANSPORTS] }),
        client.invalidateQueries({ queryKey: ['/users/me/'] }),
      ]);
    },
    onError: (error) => toast.error(error.message),
  });

  let body;
  if (query.isPending) body = <Loading text="Загрузка транспорта..." />;
  else if (query.isError) body = <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />;
  else {
    const transports = listOf(query.data.data);
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
                    onClick={() => choose.mutate(transport.id)}
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
