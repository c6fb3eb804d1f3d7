/**
 * The key a ticket number is compared by (the duplicate-ticket check, docs/reports-review.md): trimmed and in
 * upper case, as JavaScript does it for any script — stored as `reports.ticket_key` with the ticket.
 */
export const ticketKey = (ticket: string | null | undefined): string | null => {
  const key = ticket?.trim().toUpperCase();
  return key ? key : null;
};
