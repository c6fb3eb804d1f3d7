/** Registration requests awaiting a manager (SPEC.md section 2, the one screen described in full). */
import { useEffect } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { RegistrationRequest } from '../../../contract/entities.ts';
import { getEngine } from '../../engine/engine.ts';
import { unwrap, useApiQuery, type ApiError } from '../../engine/queries.ts';
import { useGet } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { listOf } from '../../ui/list.ts';
import { Page } from '../../ui/Page.tsx';
import { Empty, ErrorState, Loading } from '../../ui/states.tsx';
import { canApprove } from './approval.ts';
import { RequestCard } from './RequestCard.tsx';

const REQUESTS = '/registration-requests/';

export function RegistrationRequestsScreen() {
  const query = useApiQuery<RegistrationRequest[] | { items: RegistrationRequest[] }>(REQUESTS);
  // Only for company names the request itself does not carry.
  const companies = useGet('GET /companies/');
  const role = useEngineSnapshot().auth.user?.role;
  const client = useQueryClient();
  const [confirmElement, confirm] = useConfirm();
  const server = useNeedsServer();
  const approve = useMutation<unknown, ApiError, number>({
    mutationFn: async (id) => unwrap(await getEngine().send('POST', `/registration-requests/${id}/approve`)),
    onSuccess: async () => {
      toast.success('Пользователь успешно создан.');
      await client.invalidateQueries({ queryKey: [REQUESTS] });
    },
    onError: (error) => {
      console.error('approving a registration request failed', error);
      toast.error('Ошибка при подтверждении заявки.');
    },
  });

  useEffect(() => {
    if (query.isError) toast.error('Ошибка при загрузке заявок.', { toastId: 'registration-requests-load' });
  }, [query.isError, query.errorUpdatedAt]);

  async function confirmApprove(request: RegistrationRequest): Promise<void> {
    if (await confirm({ title: `Подтвердить регистрацию ${request.email}?`, confirmLabel: 'Подтвердить' })) approve.mutate(request.id);
  }

  function companyName(request: RegistrationRequest): string {
    if (request.company_name) return request.company_name;
    const company = (companies.data?.data ?? []).find((candidate) => candidate.id === request.company_id);
    return company?.name ?? `№${request.company_id}`;
  }

  let body;
  if (query.isPending) body = <Loading text="Загрузка заявок..." />;
  else if (query.isError) body = <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />;
  else {
    const requests = listOf(query.data.data).filter((request) => request.status !== 'approved');
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
              approving={approve.isPending && approve.variables === request.id}
              disabled={approve.isPending || server.offline}
              offlineReason={server.reason}
              approvable={canApprove(role, request.role)}
              onApprove={() => void confirmApprove(request)}
            />
          ))}
        </div>
      );
  }

  return (
    <Page title="Заявки на регистрацию" aside={query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      {confirmElement}
      {body}
    </Page>
  );
}
