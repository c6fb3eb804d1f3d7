/**
 * The request that delivers one outbox record (the engine's and the service worker's sends): a report is the
 * multipart POST /reports/ (report-form.ts); a trip step is the multipart `PUT /trips/{uid}/steps/{step}`
 * (contract/trips.ts): a `data` part with the step's JSON, its photos as `photo` parts and the receiver's
 * signature as the one `signature` part; a per-shift acceptance is the multipart `POST /trips/acceptance` (`data` and
 * the `signature` PNG). All go with `Idempotency-Key: record.idempotencyKey`.
 */
import type { OutboxRecord } from './db.ts';
import { buildReportForm, photoName } from './report-form.ts';

export interface OutboxRequest {
  method: 'POST' | 'PUT';
  /** Relative to the API's base, no leading slash. */
  path: string;
  form: FormData;
}

export function outboxRequest(record: OutboxRecord, blobs: readonly Blob[]): OutboxRequest {
  if (record.acceptance) {
    const form = new FormData();
    form.append('data', JSON.stringify(record.acceptance.body));
    const signature = record.acceptance.signature ? blobs[0] : undefined;
    if (signature) form.append('signature', signature, 'signature.png');
    return { method: 'POST', path: 'trips/acceptance', form };
  }
  const odometer = record.odometer;
  if (odometer) {
    const form = new FormData();
    form.append('data', JSON.stringify({ value: odometer.value, at: odometer.at }));
    const photo = blobs[0];
    if (photo) form.append('photo', photo, photoName(photo, 0));
    return { method: 'PUT', path: `trip-sheets/${odometer.sheetId}/odometer/${odometer.which}`, form };
  }
  const trip = record.trip;
  if (!trip) return { method: 'POST', path: 'reports/', form: buildReportForm(record, blobs) };
  const form = new FormData();
  form.append('data', JSON.stringify(trip.body));
  // A corrected time changes only the time: the photos and the signature are on the server already.
  if (trip.correction) return { method: 'PUT', path: `trips/${encodeURIComponent(trip.uid)}/steps/${trip.step}`, form };
  const photos = trip.signature ? blobs.slice(0, -1) : blobs;
  photos.forEach((photo, index) => form.append('photo', photo, photoName(photo, index)));
  const signature = trip.signature ? blobs.at(-1) : undefined;
  if (signature) form.append('signature', signature, 'signature.png');
  return { method: 'PUT', path: `trips/${encodeURIComponent(trip.uid)}/steps/${trip.step}`, form };
}

/** The stored report's id from the answer: POST /reports/ answers `id`, a trip step `report_id`. */
export function answeredId(body: unknown): number {
  if (!body || typeof body !== 'object') return 0;
  const { id, report_id: reportId } = body as { id?: unknown; report_id?: unknown };
  return typeof id === 'number' ? id : typeof reportId === 'number' ? reportId : 0;
}
