/**
 * Issue 33 end to end on the server: a trip stamped through the phone's calls (PUT /trips/{uid}/steps/…) → its paper
 * waybill read back → our Т1 draft signed by the shipper and accepted with its УИД → Т2 made, valid against the
 * official schema, accepted → the consignee's Т3, carrying that УИД, linked to the trip → Т4 made, valid, accepted →
 * the trip's «Документы» panel and the driver's card say «принят» with the УИД and QR.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { encodeForm } from '../fixtures/forms.ts';
import { carrierCards, SHIPPER_EDO, stampedTrip, type StampedTrip } from '../fixtures/papers.ts';
import { schemaPath, type SchemaTitle } from '../../server/etrn/read.ts';
import type { AnswersResult, DocumentItem } from '../../contract/documents.ts';
import type { IncomingTitle, ReportDocuments } from '../../contract/calls/papers.ts';
import type { Page, Task } from '../../contract/entities.ts';

const DAY = '2026-11-25';
const dir = mkdtempSync(join(tmpdir(), 'reis-papers-flow-'));

/** `command` with `args`, the bytes written to a file whose path takes the place of `{}`. */
function run(command: string, args: string[], name: string, bytes: Buffer) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return spawnSync(command, args.map((a) => (a === '{}' ? path : a)), { encoding: 'utf8' });
}
const validates = (title: SchemaTitle, bytes: Buffer) => run('xmllint', ['--noout', '--schema', schemaPath(title), '{}'], `${title}.xml`, bytes).stderr;

describe.each(backends)('a trip’s papers end to end ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let trip: StampedTrip;
  let manager: SignedInUser;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    const company = await makeCompany(s, `ТК «Рейс» ${Date.now()}`);
    const cards = await carrierCards(s, company, { shipperEdo: SHIPPER_EDO, carrierEdo: true });
    trip = await stampedTrip(s, cards, DAY);
    manager = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
  });

  const get = async (url: string) => {
    const res = await s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${manager.token}` } });
    return { status: res.statusCode, bytes: res.rawPayload };
  };
  const post = async <T = DocumentItem>(url: string, body?: unknown) => (await call<T>(s, 'POST', url, { token: manager.token, body })).body;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

  /** A title taken in, made ready (its frozen file valid against its schema), sent in the day's zip, accepted. */
  async function through(title: 't1' | 't2' | 't4', answer: Record<string, string>): Promise<DocumentItem> {
    const draft = await post('/api/documents/', { report_id: trip.trip, title });
    const ready = await post(`/api/documents/${draft.id}/ready`);
    expect([title, ready.state]).toEqual([title, 'ready']);
    const file = await get(`/api/documents/${draft.id}/file.xml`);
    expect(validates(title, file.bytes)).toContain('validates');
    expect((await get(`/api/documents/export?date=${DAY}`)).status).toBe(200);
    const applied = await post<AnswersResult>('/api/documents/answers', { files: [{ name: `${title}.json`, data: b64({ file: ready.file_name, status: 'accepted', ...answer }) }] });
    expect(applied.outcomes.map((o) => o.outcome)).toEqual(['accepted']);
    return ready;
  }

  it('stamped on the phone → the paper waybill, Т1 → Т2 → Т3 received by its УИД → Т4, each valid and accepted → the driver sees «принят» with the УИД and QR', async () => {
    const pdf = await get(`/api/reports/${trip.trip}/waybill.pdf`);
    expect(pdf.status).toBe(200);
    const text = run('pdftotext', ['-layout', '{}', '-'], 'waybill.pdf', pdf.bytes);
    expect(text.status).toBe(0);
    for (const fact of ['ООО «Карьер Северный»', 'ООО «СтройДом»', 'А123ВС 77', 'Петров Иван Сергеевич']) expect(text.stdout.replace(/\s+/g, ' ')).toContain(fact);

    const uid = randomUUID();
    const qr = `https://epd.example/trn/${uid}`;
    await through('t1', { uid, qr, signature: Buffer.from('подпись грузоотправителя').toString('base64') });
    const t2 = await through('t2', { uid, qr });

    // The consignee's Т3 carries only the УИД: it links to the trip through our own accepted Т1.
    const t3 = readFileSync(join(process.cwd(), 'tests/fixtures/etrn-t3-consignee.xml'), 'utf8')
      .replace('006b4a8f-fbe7-45a0-a37e-11d6b6980967', uid)
      .replace(/ИдФайл="[^"]*"/, `ИдФайл="ON_TRNACLGRPO_A_B_C_0_20261125_${randomUUID()}"`);
    const form = new FormData();
    form.append('file', new Blob([t3]), 't3.xml');
    form.append('signature', 'MIIBsignature==');
    const encoded = await encodeForm(form);
    const received = await s.app.inject({ method: 'POST', url: '/api/etrn/incoming', payload: encoded.payload, headers: { ...encoded.headers, authorization: `Bearer ${manager.token}` } });
    expect([received.statusCode, received.json<IncomingTitle>().report_id, received.json<IncomingTitle>().linked_by]).toEqual([201, trip.trip, 'uid']);
    const t4 = await through('t4', { uid, qr });
    expect(t4.file_name).toMatch(/^ON_TRNACLPVYN_/);
    expect(t2.file_name).toMatch(/^ON_TRNACLPPRIN_/);

    const panel = (await call<ReportDocuments>(s, 'GET', `/api/reports/${trip.trip}/documents`, { token: manager.token })).body;
    expect(panel.titles.map((t) => [t.title, t.exchange?.state, t.exchange?.uid])).toEqual([
      ['t1', 'accepted', uid],
      ['t2', 'accepted', uid],
      ['t4', 'accepted', uid],
    ]);
    const card = await call<Page<Task>>(s, 'GET', '/api/tasks/assigned/', { token: trip.driver.token });
    expect(card.body.items.find((t) => t.id === trip.task)?.waybills).toEqual([{ report_id: trip.trip, trip_uid: expect.any(String), state: 'accepted', title: expect.any(String), uid, qr }]);
  });
});
