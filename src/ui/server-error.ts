/**
 * Where a refusal goes in a form: the server names the field first («quantity: Количество должно быть больше
 * нуля»), so the message stands under that field when the form has it; anything else is the form's own error.
 */
import { failureMessage } from '../engine/send.ts';

export function placeServerError<F extends string>(error: unknown, fields: readonly F[]): { field: F | null; message: string } {
  return placeDetail(failureMessage(error), fields);
}

/** The same for a refusal's text. */
export function placeDetail<F extends string>(detail: string, fields: readonly F[]): { field: F | null; message: string } {
  const match = /^([a-z_]+):\s*(.+)$/.exec(detail);
  const field = fields.find((f) => f === match?.[1]);
  return field && match?.[2] ? { field, message: match[2] } : { field: null, message: detail };
}
