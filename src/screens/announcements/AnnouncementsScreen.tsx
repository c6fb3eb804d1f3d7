/**
 * /announcements (all four roles). Everyone reads what is addressed to their company or to all; what was
 * unread is marked «Новое» for this visit and counted as read once shown (the sidebar's count drops). Staff
 * post and delete, and decide on drivers' responses in the «Ответы» tab; a driver answers an announcement
 * that asks for it and sees how their answer stands.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { showToast } from '../../ui/toasts.ts';

import { RESPONSE_STATUS_LABELS, type Announcement, type PendingResponse } from '../../../contract/announcements.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { invalidateAfter, sendOnce, useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { AnnouncementDialog } from './AnnouncementDialog.tsx';
import { ResponseForm } from './ResponseForm.tsx';
import '../../ui/console/console.css';
import '../../ui/status-badge.css';
import './announcements.css';
import { Tabs } from '../../ui/Tabs.tsx';

/** Staff: the drivers' responses waiting for a decision (not asked for a driver). */
function usePendingResponses(staff: boolean) {
  return useGet(staff ? 'GET /announcements/responses/pending' : null);
}

export function AnnouncementsScreen({ title }: ScreenProps) {
  const user = useEngineSnapshot().auth.user;
  const staff = user !== null && user.role !== 'driver';
  const superAdmin = user?.role === 'super-admin';
  const [state, setState] = useUrlState({ tab: 'list' });
  const client = useQueryClient();
  const server = useNeedsServer();
  const [confirmElement, ask] = useConfirm();
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const query = useGet('GET /announcements/');
  const pending = usePendingResponses(staff);
  const companies = useGet(superAdmin ? 'GET /companies/' : null);
  // Each write refetches the announcements when it settles (its own area on the route table).
  const removeCall = useSend('DELETE /announcements/:id');
  const confirmCall = useSend('POST /announcements/responses/:id/confirm');
  const items = query.data?.data.items ?? [];
  const pendingList = pending.data?.data ?? [];
  const tab = staff && state.tab === 'responses' ? 'responses' : 'list';

  // What was unread when shown is read now; it keeps its «Новое» mark for this visit.
  const unreadIds = items.filter((a) => !a.is_read).map((a) => a.id);
  const unreadKey = unreadIds.join(',');
  useEffect(() => {
    if (!unreadKey || server.offline) return;
    const ids = unreadKey.split(',').map(Number);
    void (async () => {
      try {
        for (const id of ids) await sendOnce('POST /announcements/:id/read', { params: { id } });
        setFresh((current) => new Set([...current, ...ids]));
        // One refetch once all are read, not one per announcement.
        await invalidateAfter(client, 'POST', '/announcements/');
      } catch (error) {
        console.warn('marking announcements read failed', error);
      }
    })();
  }, [unreadKey, server.offline, client]);

  async function remove(a: Announcement): Promise<void> {
    const yes = await ask({ title: `Удалить объявление «${a.title}»?`, message: 'Объявление и ответы на него удалятся у всех.', confirmLabel: 'Удалить', danger: true });
    if (!yes) return;
    try {
      await removeCall.mutateAsync({ params: { id: a.id } });
      showToast('success', `Объявление «${a.title}» удалено`);
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  async function decide(r: PendingResponse, approve: boolean): Promise<void> {
    if (!approve) {
      const yes = await ask({ title: `Отклонить ответ (водитель: ${r.user_name})?`, message: `На объявление «${r.announcement_title}».`, confirmLabel: 'Отклонить', danger: true });
      if (!yes) return;
    }
    try {
      await confirmCall.mutateAsync({ params: { id: r.id }, query: { approve: approve ? 'true' : 'false' } });
      showToast('success', approve ? `Ответ подтверждён (водитель: ${r.user_name})` : `Ответ отклонён (водитель: ${r.user_name})`);
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  const canDelete = (a: Announcement) => staff && (a.company_id !== null || superAdmin);

  return (
    <Page title={title} aside={query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      {confirmElement}
      {staff && (
        <>
          <div className="ann-toolbar">
            <Tabs
              label="Объявления и ответы"
              tabs={[
                { id: 'list', label: 'Объявления' },
                { id: 'responses', label: `Ответы водителей${pendingList.length > 0 ? ` (${pendingList.length})` : ''}` },
              ]}
              selected={tab}
              onSelect={(next) => setState({ tab: next })}
            />
            <button type="button" className="button button-primary" disabled={server.offline} title={server.reason} onClick={() => setCreating(true)}>
              Новое объявление
            </button>
          </div>
          <NeedsServerHint offline={server.offline} what="публиковать объявления и рассматривать ответы" />
        </>
      )}
      {tab === 'responses' ? (
        <PendingResponses query={pending} list={pendingList} offline={server.offline} reason={server.reason} onDecide={(r, approve) => void decide(r, approve)} />
      ) : query.isPending ? (
        <Loading text="Загрузка объявлений..." />
      ) : query.isError && !query.data ? (
        <QueryError query={query} />
      ) : items.length === 0 ? (
        <Empty>{staff ? 'Объявлений пока нет. Напишите первое кнопкой «Новое объявление».' : 'Объявлений пока нет.'}</Empty>
      ) : (
        <ul className="ann-list">
          {items.map((a) => (
            <li key={a.id} className={`card ann-card${!a.is_read || fresh.has(a.id) ? ' is-new' : ''}`}>
              <div className="ann-head">
                <h2 className="ann-title">{a.title}</h2>
                {(!a.is_read || fresh.has(a.id)) && <span className="status-badge status-open">Новое</span>}
              </div>
              <p className="muted ann-meta">
                {formatDateTime(a.created_at)} · {a.author_name ?? 'автор удалён'} · {a.company_name}
              </p>
              <p className="ann-body">{a.body}</p>
              {a.requires_response && staff && a.responses && (
                <p className="ann-tally">
                  Нужен ответ водителей. На рассмотрении: {a.responses.pending}, подтверждено: {a.responses.approved}, отклонено: {a.responses.declined}.
                </p>
              )}
              {a.requires_response && !staff && <ResponseForm announcement={a} offline={server.offline} reason={server.reason} />}
              {canDelete(a) && (
                <div className="row-actions ann-actions">
                  <button type="button" className="button button-small button-quiet" disabled={server.offline} title={server.reason} onClick={() => void remove(a)}>
                    Удалить
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {creating && (
        <AnnouncementDialog
          companies={companies.data?.data ?? []}
          superAdmin={superAdmin}
          onClose={() => setCreating(false)}
          onSaved={(created) => {
            setCreating(false);
            showToast('success', `Объявление «${created.title}» опубликовано`);
          }}
        />
      )}
    </Page>
  );
}

function PendingResponses({
  query,
  list,
  offline,
  reason,
  onDecide,
}: {
  query: ReturnType<typeof usePendingResponses>;
  list: PendingResponse[];
  offline: boolean;
  reason: string | undefined;
  onDecide: (r: PendingResponse, approve: boolean) => void;
}) {
  if (query.isPending) return <Loading text="Загрузка ответов..." />;
  if (query.isError && !query.data) return <QueryError query={query} />;
  if (list.length === 0) return <Empty>Ответов на рассмотрении нет: водители ещё не ответили или всё уже рассмотрено.</Empty>;
  return (
    <ul className="ann-list">
      {list.map((r) => (
        <li key={r.id} className="card ann-card">
          <div className="ann-head">
            <h2 className="ann-title">{r.user_name}</h2>
            <span className="status-badge status-in_progress">{RESPONSE_STATUS_LABELS.pending}</span>
          </div>
          <p className="muted ann-meta">
            На «{r.announcement_title}» · {formatDateTime(r.created_at)}
            {r.company_name ? ` · ${r.company_name}` : ''}
          </p>
          <p className="ann-body">{r.text || <span className="muted">Без текста: водитель подтвердил, что прочитал.</span>}</p>
          <div className="row-actions ann-actions">
            <button type="button" className="button button-small button-primary" disabled={offline} title={reason} onClick={() => onDecide(r, true)}>
              Подтвердить
            </button>
            <button type="button" className="button button-small button-quiet" disabled={offline} title={reason} onClick={() => onDecide(r, false)}>
              Отклонить
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
