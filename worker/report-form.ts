/**
 * The multipart body of POST /reports/ for one outbox record (docs/product.md §5 and §7). The engine sends it
 * with the header `Idempotency-Key: record.idempotencyKey`.
 */
import { decimalToText } from '../contract/decimal-text.ts';
import type { FormFields } from './api.ts';
import type { OutboxRecord } from './db.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

type FormRecord = Pick<
  OutboxRecord,
  'association_id' | 'quantity' | 'total_loading_quantity' | 'total_unloading_quantity' | 'flags' | 'completedAt' | 'trips' | 'ticketNumber' | 'final' | 'typedTimes'
>;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/gif': 'gif',
};

/** A file name for the server's log and the download; the server checks the content, not this name. */
export function photoName(blob: Blob, index: number): string {
  return `photo-${index + 1}.${EXTENSIONS[blob.type] ?? 'bin'}`;
}

/**
 * Multipart has no null: an absent field means "no value". Numbers travel as plain decimals (the server takes
 * nothing else: contract/fields.ts). A total travels only when its buyer flag equals 1
 * (docs/product.md §5); the flags themselves always travel, as 0 or 1.
 */
export function buildReportForm(record: FormRecord, photos: readonly Blob[]): FormData {
  const form = new FormData();
  form.append('association_id', String(record.association_id));
  if (record.quantity !== null) form.append('quantity', decimalToText(record.quantity));
  if (record.flags.unloadingIsBuyer === 1 && record.total_unloading_quantity !== null) {
    form.append('total_unloading_quantity', decimalToText(record.total_unloading_quantity));
  }
  if (record.flags.loadingIsBuyer === 1 && record.total_loading_quantity !== null) {
    form.append('total_loading_quantity', decimalToText(record.total_loading_quantity));
  }
  form.append('unloading_is_buyer', String(record.flags.unloadingIsBuyer));
  form.append('loading_is_buyer', String(record.flags.loadingIsBuyer));
  form.append('completed_at', record.completedAt);
  form.append('trips', String(record.trips ?? 1));
  if (record.ticketNumber) form.append('ticket_number', record.ticketNumber);
  // A record queued before trips existed finished its task with its one report.
  form.append('final', record.final === false ? '0' : '1');
  // A trip entered after the fact: its typed times (contract/driver.ts), each its stamp on the server.
  for (const [field, at] of Object.entries(record.typedTimes ?? {})) if (at) form.append(field, at);
  photos.forEach((photo, index) => form.append('photos', photo, photoName(photo, index)));
  return form;
}

/**
 * A multipart body from plain fields and files (HttpApi.sendForm). Null travels as empty text, which the
 * server reads as null; on an edit that differs from leaving the field out, which keeps the stored value.
 */
export function buildFieldsForm(fields: FormFields, files: readonly Blob[], fileField = 'photos'): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value === null ? '' : typeof value === 'number' ? decimalToText(value) : String(value));
  files.forEach((file, index) => form.append(fileField, file, photoName(file, index)));
  return form;
}
