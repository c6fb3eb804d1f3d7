/** One registration request, laid out as the spec describes it. */
import type { RegistrationRequest } from '../../../contract/entities.ts';
import { ROLE_LABELS, isRole } from '../../../contract/roles.ts';
import { formatCapacity } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { APPROVED_BY_ADMIN } from './approval.ts';

interface RequestCardProps {
  request: RegistrationRequest;
  companyName: string;
  approving: boolean;
  disabled: boolean;
  /** Set while the server cannot be reached: the button is disabled and says why. */
  offlineReason?: string | undefined;
  /** False where the signed-in user may not approve this request: a note stands in for the button. */
  approvable: boolean;
  onApprove: () => void;
  onReject: () => void;
}

/** A driver's vehicle: from the current transport where the request has one, else from the request itself. */
export function vehicleOf(request: RegistrationRequest) {
  const transport = request.current_transport;
  return {
    number: transport?.vehicle_number ?? request.vehicle_number,
    brand: transport?.vehicle_brand ?? request.vehicle_brand,
    capacity: transport?.vehicle_capacity ?? request.vehicle_capacity,
  };
}

export function RequestCard({ request, companyName, approving, disabled, offlineReason, approvable, onApprove, onReject }: RequestCardProps) {
  const titleId = `request-${request.id}`;
  const vehicle = request.role === 'driver' ? vehicleOf(request) : null;
  return (
    <article className="card request" aria-labelledby={titleId}>
      <h2 id={titleId} className="request-title">
        Заявка №{request.id} — {request.email}
      </h2>
      <dl className="facts">
        <dt>Имя</dt>
        <dd>{request.name}</dd>
        <dt>Телефон</dt>
        <dd>{request.phone || '—'}</dd>
        <dt>Компания</dt>
        <dd>{companyName}</dd>
        <dt>Роль</dt>
        <dd>{isRole(request.role) ? ROLE_LABELS[request.role] : request.role}</dd>
        {vehicle && (
          <>
            <dt>Госномер</dt>
            <dd>{vehicle.number || '—'}</dd>
            <dt>Марка</dt>
            <dd>{vehicle.brand || '—'}</dd>
            <dt>Грузоподъёмность</dt>
            <dd>{formatCapacity(vehicle.capacity)}</dd>
          </>
        )}
      </dl>
      {approvable ? (
        <>
          <div className="request-actions">
            <button type="button" className="button button-primary" onClick={onApprove} disabled={disabled} title={offlineReason}>
              {approving ? 'Подтверждение...' : 'Подтвердить регистрацию'}
            </button>
            <button type="button" className="button button-quiet" onClick={onReject} disabled={disabled} title={offlineReason}>
              Отклонить
            </button>
          </div>
          <NeedsServerHint offline={offlineReason !== undefined} />
        </>
      ) : (
        <p className="muted request-note">{APPROVED_BY_ADMIN}</p>
      )}
    </article>
  );
}
