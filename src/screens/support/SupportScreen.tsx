/**
 * Support: for a super-admin, the uncaught client errors that tabs and engines posted to the server
 * (docs/product.md §7, "Client errors"), newest first. An admin has no error log to read and sees where to turn.
 */
import { useState } from 'react';
import { useGet } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { Page } from '../../ui/Page.tsx';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';

const PAGE_SIZE = 50;

function formatTime(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('ru-RU');
}

function ClientErrors() {
  const [offset, setOffset] = useState(0);
  const query = useGet('GET /client-errors/', { limit: PAGE_SIZE, offset });
  if (query.isPending) return <Loading text="Загрузка ошибок..." />;
  if (query.isError) return <QueryError query={query} />;
  const { items, next_offset, total } = query.data.data;
  return (
    <>
      <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />
      <p className="muted">Всего ошибок: {total}</p>
      {items.length === 0 ? (
        <Empty>Ошибок нет — приложения пользователей работают без сбоев.</Empty>
      ) : (
        <ul className="error-log">
          {items.map((entry) => (
            <li key={entry.id} className="card error-log-item">
              <p className="error-log-message">{entry.message}</p>
              <p className="muted">
                {formatTime(entry.time ?? entry.created_at)} · пользователь {entry.user_id ?? 'не вошёл'} · {entry.url ?? '—'}
              </p>
              {entry.stack && (
                <details>
                  <summary>Стек вызовов</summary>
                  <pre className="error-log-stack">{entry.stack}</pre>
                </details>
              )}
              {entry.user_agent && <p className="muted error-log-agent">{entry.user_agent}</p>}
            </li>
          ))}
        </ul>
      )}
      {total > PAGE_SIZE && (
      <div className="pager">
        <button type="button" className="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
          Новее
        </button>
        <button type="button" className="button" disabled={next_offset === null} onClick={() => next_offset !== null && setOffset(next_offset)}>
          Старее
        </button>
      </div>
      )}
    </>
  );
}

export function SupportScreen({ title }: { title: string }) {
  const { auth } = useEngineSnapshot();
  const isSuper = auth.user?.role === 'super-admin';
  return (
    <Page title={title}>
      {isSuper ? (
        <>
          <h2>Ошибки клиентов</h2>
          <ClientErrors />
        </>
      ) : (
        <Empty>Журнал ошибок приложений доступен суперадминистратору. По вопросам работы обращайтесь к нему.</Empty>
      )}
    </Page>
  );
}
