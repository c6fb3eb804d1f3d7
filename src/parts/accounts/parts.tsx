/** Small pieces the account screens share: the activity tag and the person cell. */
import '../../ui/status-badge.css';

export function ActiveBadge({ active }: { active: boolean }) {
  return <span className={`status-badge ${active ? 'status-completed' : 'status-cancelled'}`}>{active ? 'Активен' : 'Отключён'}</span>;
}

export function PersonCell({ name, email, phone }: { name: string; email: string; phone?: string }) {
  return (
    <span className="person-cell">
      <strong>{name}</strong>
      <span className="muted">{email}</span>
      {phone ? <span className="muted">{phone}</span> : null}
    </span>
  );
}
