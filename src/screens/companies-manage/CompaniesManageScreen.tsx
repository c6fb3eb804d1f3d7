/**
 * /companies/manage (admin, super-admin): the companies (an admin sees their own), created and renamed in a
 * dialog, deleted by the super-admin (the server refuses a company with people or tasks and says so); a
 * user added to a company; and the company's progressive rate ladder with an example. The chosen company is
 * in the URL, so a tab can be reloaded or shared.
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import type { Company } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { spellingsMatch } from '../../ui/search-text.ts';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { ROLE_LABELS } from '../../../contract/roles.ts';
import { roleOf } from '../../parts/accounts/account-form.ts';
import { RateLadder } from './RateLadder.tsx';
import { CheckThresholdsCard } from './CheckThresholds.tsx';
import { TripSettingsCard } from './TripSettings.tsx';
import { PhotoRetentionCard } from './PhotoRetention.tsx';
import { OperatorSettingsCard } from './OperatorSettings.tsx';
import { CompanyRequisites } from './CompanyRequisites.tsx';
import '../../ui/console/console.css';
import './companies.css';

type Dialog = { kind: 'create' } | { kind: 'rename'; company: Company } | { kind: 'add-user'; company: Company } | null;

export function CompaniesManageScreen({ title }: ScreenProps) {
  const user = useEngineSnapshot().auth.user;
  const superAdmin = user?.role === 'super-admin';
  const [state, setState] = useUrlState({ search: '', company: '' });
  const server = useNeedsServer();
  const [confirmElement, ask] = useConfirm();
  const [dialog, setDialog] = useState<Dialog>(null);
  const query = useGet('GET /companies/');
  const deletion = useSend('DELETE /companies/:id');
  const all = query.data?.data ?? [];
  // An admin manages their own company; the public list holds every company.
  const mine = superAdmin ? all : all.filter((c) => c.id === user?.company_id);
  const shown = mine.filter((c) => !state.search.trim() || spellingsMatch(c.name, state.search));
  const selected = mine.find((c) => String(c.id) === state.company) ?? (superAdmin ? null : (mine[0] ?? null));

  async function remove(company: Company): Promise<void> {
    const yes = await ask({
      title: `Удалить компанию «${company.name}»?`,
      message: 'Удалить можно только компанию без пользователей и задач. Её шкала ставок удалится вместе с ней.',
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!yes) return;
    try {
      await deletion.mutateAsync({ params: { id: company.id } });
      showToast('success', `Компания «${company.name}» удалена`);
      setState({ company: '' });
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  return (
    <Page title={title} wide>
      {confirmElement}
      <NeedsServerHint offline={server.offline} what="изменять компании и ставки" />
      <div className="companies-layout">
        <section className="companies-list" aria-label="Компании">
          <div className="companies-tools">
            {superAdmin && (
              <input
                type="search"
                className="companies-search"
                aria-label="Поиск компании"
                placeholder="Поиск по названию"
                value={state.search}
                onChange={(event) => setState({ search: event.target.value })}
              />
            )}
            <button type="button" className="button button-primary" disabled={server.offline} title={server.reason} onClick={() => setDialog({ kind: 'create' })}>
              Новая компания
            </button>
          </div>
          {query.isPending ? (
            <Loading text="Загрузка компаний..." />
          ) : query.isError && !query.data ? (
            <QueryError query={query} />
          ) : shown.length === 0 ? (
            <Empty>{mine.length === 0 ? 'Компаний пока нет.' : 'По этому поиску компаний нет.'}</Empty>
          ) : (
            <ul className="companies-items">
              {shown.map((c) => (
                <li key={c.id}>
                  <button type="button" className={`companies-item${selected?.id === c.id ? ' is-active' : ''}`} aria-current={selected?.id === c.id || undefined} onClick={() => setState({ company: String(c.id) })}>
                    {c.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="company-detail" aria-live="polite">
          {!selected ? (
            <Empty>Выберите компанию слева, чтобы изменить её и её шкалу ставок.</Empty>
          ) : (
            <div className="card">
              <div className="card-head">
                <h2 className="company-name">{selected.name}</h2>
                <div className="row-actions">
                  <button type="button" className="button button-small" disabled={server.offline} title={server.reason} onClick={() => setDialog({ kind: 'rename', company: selected })}>
                    Переименовать
                  </button>
                  <button type="button" className="button button-small" disabled={server.offline} title={server.reason} onClick={() => setDialog({ kind: 'add-user', company: selected })}>
                    Добавить пользователя
                  </button>
                  {superAdmin && (
                    <button type="button" className="button button-small button-quiet" disabled={server.offline} title={server.reason} onClick={() => void remove(selected)}>
                      Удалить
                    </button>
                  )}
                </div>
              </div>
              <CompanyRequisites companyId={selected.id} offline={server.offline} reason={server.reason} />
              <RateLadder companyId={selected.id} canEdit offline={server.offline} reason={server.reason} />
              <CheckThresholdsCard companyId={selected.id} canEdit offline={server.offline} reason={server.reason} />
              <TripSettingsCard companyId={selected.id} canEdit offline={server.offline} reason={server.reason} />
              <PhotoRetentionCard companyId={selected.id} offline={server.offline} reason={server.reason} />
              <OperatorSettingsCard companyId={selected.id} offline={server.offline} reason={server.reason} />
            </div>
          )}
        </section>
      </div>
      {(dialog?.kind === 'create' || dialog?.kind === 'rename') && (
        <CompanyNameDialog
          company={dialog.kind === 'rename' ? dialog.company : null}
          onClose={() => setDialog(null)}
          onSaved={async (saved) => {
            setDialog(null);
            showToast('success', dialog.kind === 'create' ? `Компания «${saved.name}» создана` : `Компания переименована в «${saved.name}»`);
            if (superAdmin) setState({ company: String(saved.id) });
          }}
        />
      )}
      {dialog?.kind === 'add-user' && (
        <AddUserDialog
          company={dialog.company}
          superAdmin={superAdmin}
          onClose={() => setDialog(null)}
          onSaved={(name) => {
            setDialog(null);
            showToast('success', `${name} теперь в компании «${dialog.company.name}»`);
          }}
        />
      )}
    </Page>
  );
}

function CompanyNameDialog({ company, onClose, onSaved }: { company: Company | null; onClose: () => void; onSaved: (saved: Company) => void | Promise<void> }) {
  const [name, setName] = useState(company?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const rename = useSend('PUT /companies/:id');
  const create = useSend('POST /companies/');
  const busy = rename.isPending || create.isPending;

  async function submit(): Promise<void> {
    if (!name.trim()) return setError('Укажите название');
    try {
      const body = { name: name.trim() };
      await onSaved(company ? await rename.mutateAsync({ params: { id: company.id }, body }) : await create.mutateAsync({ body }));
    } catch (e) {
      setError(failureMessage(e).replace(/^name:\s*/, ''));
    }
  }

  return (
    <FormDialog title={company ? `Переименовать «${company.name}»` : 'Новая компания'} submitLabel={company ? 'Сохранить' : 'Создать'} busy={busy} onSubmit={() => void submit()} onCancel={onClose}>
      <Field label="Название" value={name} maxLength={200} error={error ?? undefined} placeholder="ООО «Перевозчик»" onChange={(event) => setName(event.target.value)} />
    </FormDialog>
  );
}

/**
 * A user joins the company: the super-admin finds anyone by name or e-mail; an admin, who cannot list other
 * companies' people, gives the number of a user without a company (shown to that user in their profile).
 */
function AddUserDialog({ company, superAdmin, onClose, onSaved }: { company: Company; superAdmin: boolean; onClose: () => void; onSaved: (name: string) => void | Promise<void> }) {
  const [search, setSearch] = useState('');
  const [userId, setUserId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const attach = useSend('POST /companies/:id/users/');
  const found = useGet(superAdmin && search.trim().length >= 2 ? 'GET /users/' : null, { search: search.trim(), limit: 20, active: 'true' });
  const candidates = (found.data?.data.items ?? []).filter((u) => u.company_id !== company.id && roleOf(u) !== 'super-admin');

  async function submit(): Promise<void> {
    const id = Number(userId);
    if (!Number.isSafeInteger(id) || id <= 0) return setError(superAdmin ? 'Выберите пользователя' : 'Укажите номер пользователя');
    try {
      const user = await attach.mutateAsync({ params: { id: company.id }, body: { user_id: id } });
      await onSaved(user.name);
    } catch (e) {
      setError(failureMessage(e).replace(/^user_id:\s*/, ''));
    }
  }

  return (
    <FormDialog title={`Добавить пользователя в «${company.name}»`} submitLabel="Добавить" busy={attach.isPending} onSubmit={() => void submit()} onCancel={onClose}>
      {superAdmin ? (
        <>
          <Field label="Найти пользователя" value={search} placeholder="Имя или e-mail, от 2 букв" onChange={(event) => setSearch(event.target.value)} />
          <div className="field">
            <span className="field-label">Пользователь</span>
            {search.trim().length < 2 ? (
              <p className="muted">Начните вводить имя или e-mail.</p>
            ) : found.isPending ? (
              <p className="muted">Ищем...</p>
            ) : candidates.length === 0 ? (
              <p className="muted">Никого не нашли.</p>
            ) : (
              <ul className="user-picks" role="radiogroup" aria-label="Пользователь">
                {candidates.map((u) => (
                  <li key={u.id}>
                    <label className="field-check">
                      <input type="radio" name="user" value={u.id} checked={userId === String(u.id)} onChange={() => setUserId(String(u.id))} />
                      {u.name} · {ROLE_LABELS[roleOf(u)]} · {u.company_name ?? 'без компании'}
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {error && <span className="field-error">{error}</span>}
          </div>
        </>
      ) : (
        <Field
          label="Номер пользователя"
          inputMode="numeric"
          value={userId}
          error={error ?? undefined}
          hint="Пользователь без компании видит свой номер в профиле. Водителей вашей компании добавляют в «Управлении водителями»."
          onChange={(event) => setUserId(event.target.value.replace(/\D/g, ''))}
        />
      )}
    </FormDialog>
  );
}
