/** Records the staff e2e tests start from, made through the real API as the app would make them. */
import { randomUUID } from 'node:crypto';
import type { Report } from '../../../contract/entities.ts';
import { login } from '../../fixtures/accounts.ts';
import { encodeForm, reportForm } from '../../fixtures/forms.ts';
import { JPEG_8x6, PNG_8x6 } from '../../fixtures/images.ts';
import { DEMO, DEMO_PASSWORD, type E2eApp } from '../harness/app.ts';
import { associationFor } from './driver-records.ts';

/** The demo driver files a report with two photos, as the outbox would: one trip, the last (it finishes their part). */
export async function fileReport(e2e: E2eApp, cargo: string, quantity: string): Promise<Report> {
  const association = await associationFor(e2e.server, cargo);
  const tokens = await login(e2e.server, DEMO.driver, DEMO_PASSWORD);
  const form = reportForm(
    { association_id: association.id, quantity, loading_is_buyer: '0', unloading_is_buyer: '0', completed_at: '2026-11-23T09:30:00.000Z', final: '1' },
    [
      { data: JPEG_8x6, filename: 'a.jpg' },
      { data: PNG_8x6, filename: 'b.png', type: 'image/png' },
    ],
  );
  const { payload, headers } = await encodeForm(form);
  const res = await e2e.server.app.inject({
    method: 'POST',
    url: '/api/reports/',
    payload,
    headers: { ...headers, authorization: `Bearer ${tokens.access_token}`, 'idempotency-key': randomUUID() },
  });
  if (res.statusCode !== 201) throw new Error(`report not stored: ${res.statusCode} ${res.body}`);
  return res.json() as Report;
}

