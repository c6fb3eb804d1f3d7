/** The signed-in user's profile: who they are, editing name and phone, and a driver's vehicles. */
import { Suspense, useState } from 'react';
import { ROLE_LABELS } from '../../../contract/roles.ts';
import { lazyNamed } from '../../app/lazy.ts';
import { useGet } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { Loading, QueryError } from '../../ui/states.tsx';
import { TransportsList } from './TransportsList.tsx';
import { PushSettings } from './PushSettings.tsx';
import { AlertSettings } from './AlertSettings.tsx';
import { DriverMoreLinks } from './DriverMoreLinks.tsx';
import { DESKTOP_QUERY } from '../../app/Shell.tsx';
import { useMediaQuery } from '../../ui/use-media-query.ts';
import { flattenUser } from './user.ts';

// The form brings zod with it; most visits only read the profile.
const ProfileEditForm = lazyNamed(() => import('./ProfileEditForm.tsx'), 'ProfileEditForm');

export function ProfileScreen({ title = 'Профиль' }: { title?: string }) {
  const { auth } = useEngineSnapshot();
  const query = useGet('GET /users/me/');
  const [editing, setEditing] = useState(false);
  const server = useNeedsServer();
  // Under the desktop width a driver has the bottom bar, not the sidebar: the sections it lacks start the profile.
  const desktop = useMediaQuery(DESKTOP_QUERY);
  // The engine's copy shows at once; the query brings the freshest one.
  const user = query.data ? flattenUser(query.data.data) : auth.user;

  if (!user) {
    return (
      <Page title={title}>
        {query.isError ? <QueryError query={query} /> : <Loading />}
      </Page>
    );
  }

  return (
    <Page title={title} aside={query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      {user.role === 'driver' && !desktop && <DriverMoreLinks />}
      <div className="card">
        {editing ? (
          <Suspense fallback={<Loading />}>
            <ProfileEditForm user={user} onDone={() => setEditing(false)} />
          </Suspense>
        ) : (
          <>
            <dl className="facts">
              <dt>Имя</dt>
              <dd>{user.name}</dd>
              <dt>E-mail</dt>
              <dd>{user.email}</dd>
              <dt>Телефон</dt>
              <dd>{user.phone || '—'}</dd>
              <dt>Компания</dt>
              <dd>{user.company_name ?? '—'}</dd>
              <dt>Роль</dt>
              <dd>{ROLE_LABELS[user.role]}</dd>
              <dt>Номер пользователя</dt>
              <dd>{user.id}</dd>
            </dl>
            <button type="button" className="button" disabled={server.offline} title={server.reason} onClick={() => setEditing(true)}>
              Изменить имя и телефон
            </button>
            <NeedsServerHint offline={server.offline} what="изменить имя и телефон" />
          </>
        )}
        {query.isError && (
          <p className="cache-note" role="status">
            Не удалось обновить профиль: {query.error.message}
          </p>
        )}
      </div>
      {user.role === 'driver' && <TransportsList />}
      <PushSettings />
      {user.role !== 'driver' && <AlertSettings />}
    </Page>
  );
}
