/** Registration requests awaiting a manager (docs/product.md §2; the spec describes this screen in full), with rejection. */
import { useEffect, useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import type { RegistrationRequest } from '../../../contract/entities.ts';
import { REJECT_REASON_MAX } from '../../../contract/calls/registration.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { Page } from '../../ui/Page.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';
import { canApprove } from './approval.ts';
import { RequestCard } from './RequestCard.tsx';

export function RegistrationRequestsScreen() {
  const query = useGet('GET /registration-requests/');
  // Only for company names the request itself does not carry.
  const companies = useGet('GET /companies/');
  const role = useEngineSnapshot().auth.user?.role;
  const [confirmElement, confirm] = useConfirm();
  const [rejecting, setRejecting] = useState<RegistrationRequest | null>(null);
  const server = useNeedsServer();
  const approve = useSend('POST /registration-requests/:id/approve');
  const reject = useSend('POST /registration-requests/:id/reject');

  useEffect(() => {
    if (query.isError) showToast('error', 'Ошибка при загрузке заявок.', { toastId: 'registration-requests-load' });
  }, [query.isError, query.errorUpdatedAt]);

  async function confirmApprove(request: RegistrationRequest): Promise<void> {
    if (!(await confirm({ title: `Подтвердить регистрацию ${request.email}?`, confirmLabel: 'Подтвердить' }))) return;
    approve.mutate(
      { params: { id: request.id } },
      {
        onSuccess: () => void showToast('success', 'Пользователь успешно создан.'),
        onError: (error) => {
          console.error('approving a registration request failed', error);
          showToast('error', 'Ошибка при подтверждении заявки.');
        },
      },
    );
  }

  function companyName(request: RegistrationRequest): string {
    if (request.company_name) return request.company_name;
    const company = (companies.data?.data ?? []).find((candidate) => candidate.id === request.company_id);
    return company?.name ?? `№${request.company_id}`;
  }

  let body;
  if (query.isPending) body = <Loading text="Загрузка заявок..." />;
  else if (query.isError) body = <QueryError query={query} />;
  else {
    const requests = query.data.data.filter((request) => request.status === 'pending');
    const busy = approve.isPending || reject.isPending;
    body =
      requests.length === 0 ? (
        <Empty>Новых заявок нет.</Empty>
      ) : (
        <div className="cards">
          {requests.map((request) => (
            <RequestCard
              key={request.id}
              request={request}
              companyName={companyName(request)}
              approving={approve.isPending && approve.variables.params.id === request.id}
              disabled={busy || server.offline}
              offlineReason={server.reason}
              approvable={canApprove(role, request.role)}
              onApprove={() => void confirmApprove(request)}
              onReject={() => setRejecting(request)}
            />
          ))}
        </div>
      );
  }

  return (
    <Page title="Заявки на регистрацию" aside={query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      {confirmElement}
      {rejecting && (
        <ReasonDialog
          title={`Отклонить заявку №${rejecting.id}?`}
          submitLabel="Отклонить"
          required="Укажите причину: заявитель увидит её при входе"
          maxLength={REJECT_REASON_MAX}
          onSubmit={async (reason) => {
            await reject.mutateAsync({ params: { id: rejecting.id }, body: { reason } });
            showToast('success', `Заявка ${rejecting.email} отклонена.`);
            setRejecting(null);
          }}
          onClose={() => setRejecting(null)}
        >
          <p>
            {rejecting.name}, {rejecting.email}. Заявитель увидит причину, когда попробует войти, и сможет подать заявку снова.
          </p>
        </ReasonDialog>
      )}
      {body}
    </Page>
  );
}
