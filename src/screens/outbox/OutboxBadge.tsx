/** PLACEHOLDER (owned by the driver-screens engineer, replaced at merge): the outbox count in the header. */
export function OutboxBadge() {
  return null;
}
