/**
 * The Диадок API adapter's job (server/documents/operator-job.ts, server/documents/diadoc.ts; docs/documents.md «The
 * Диадок API adapter») against a fake Диадок that answers with the recorded examples of tests/fixtures/diadoc/ (no
 * network): a title sent once under its key and accepted with the УИД; rejected with ГИС ЭПД's reason; a timeout
 * whose outcome is unknown, then found sent by its key and not sent again; two instances' jobs sending it once; a
 * restart mid-way (the claim of a process that died) taken over after the lease, asked before sending; the screen's
 * line (the adapter and the last pass). On both databases (the claim is a conditional UPDATE).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { carrierCards, SHIPPER_EDO, stampedTrip, type CarrierCards } from '../fixtures/papers.ts';
import { buildApp } from '../../server/app.ts';
import type { DiadocSettings } from '../../server/config.ts';
import { backoffMs, LEASE_MS, startOperatorJob } from '../../server/documents/operator-job.ts';
import type { Fetch } from '../../server/documents/diadoc.ts';
import type { DocumentItem, DocumentPage } from '../../contract/documents.ts';

const DAY = '2026-11-27';
const FIXTURES = join(import.meta.dirname, '../fixtures/diadoc');
const recorded = (name: string) => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, { status: number; body: unknown }>;
const fill = (value: unknown, vars: Record<string, string>): unknown => JSON.parse(JSON.stringify(value).replace(/\{\{(\w+)\}\}/g, (m, k: string) => vars[k] ?? m));

type Outcome = 'processing' | 'accepted' | 'rejected';

/** Диадок as the docs describe it, answering with the recorded examples; counts what it created. */
class FakeDiadoc {
  requests: { method: string; path: string; query: Record<string, string>; headers: Record<string, string>; body: unknown }[] = [];
  /** Documents by CustomDocumentId (= our key): what PostMessage created. */
  docs = new Map<string, { messageId: string; entityId: string; xml: string }>();
  outcome = new Map<string, Outcome>();
  /** The next PostMessage creates the document but its answer is lost (the client times out). */
  loseNextAnswer = false;
  private n = 0;
  constructor(private readonly settings: DiadocSettings) {}

  posts(key?: string) {
    return this.requests.filter((r) => r.path === '/V3/PostMessage' && (key === undefined || r.query.operationId === key)).length;
  }

  fetch: Fetch = async (url, init) => {
    const u = new URL(url);
    const query = Object.fromEntries(u.searchParams);
    const body = init.body ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    this.requests.push({ method: init.method, path: u.pathname, query, headers: init.headers, body });
    await new Promise((r) => setImmediate(r));
    const reply = (r: { status: number; body: unknown }, vars: Record<string, string>) => ({ status: r.status, text: async () => JSON.stringify(fill(r.body, vars)) });
    if (init.headers.authorization !== `Bearer ${this.settings.token}`) return { status: 401, text: async () => '' };
    if (u.pathname === '/V3/PostMessage' && init.method === 'POST') {
      const key = query.operationId ?? '';
      const attachment = (body?.DocumentAttachments as { SignedContent: { Content: string } }[])[0];
      // Диадок's operationId: a repeated call answers the first success, no second document.
      let doc = this.docs.get(key);
      if (!doc) {
        this.n += 1;
        doc = { messageId: `a1b2c3d4-0000-4000-8000-${String(this.n).padStart(12, '0')}`, entityId: `e5f6a7b8-0000-4000-8000-${String(this.n).padStart(12, '0')}`, xml: new TextDecoder('windows-1251').decode(Buffer.from(attachment?.SignedContent.Content ?? '', 'base64')) };
        this.docs.set(key, doc);
      }
      if (this.loseNextAnswer) {
        this.loseNextAnswer = false;
        throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
      }
      return reply(recorded('post-message').response!, { key, messageId: doc.messageId, entityId: doc.entityId, boxId: this.settings.boxId });
    }
    if (u.pathname === '/GetDocumentsByCustomId') {
      const key = query.customDocumentId ?? '';
      const doc = this.docs.get(key);
      const r = recorded('get-documents-by-custom-id');
      return doc ? reply(r.response!, { key, messageId: doc.messageId, entityId: doc.entityId }) : reply(r.none!, {});
    }
    if (u.pathname === '/V3/GetMessage') {
      return reply(recorded('get-message')[this.outcome.get(query.messageId ?? '') ?? 'processing']!, { messageId: query.messageId ?? '', entityId: query.entityId ?? '' });
    }
    return { status: 404, text: async () => '' };
  };
}

describe.each(backends)('the Диадок API adapter’s job ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let cards: CarrierCards;
  let company: number;
  let manager: SignedInUser;
  let settings: DiadocSettings;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    company = await makeCompany(s, `ТК «Рейс» ${Date.now()}`);
    cards = await carrierCards(s, company, { shipperEdo: SHIPPER_EDO, carrierEdo: true });
    manager = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
    settings = { url: 'https://diadoc-api.kontur.ru', token: 'test-access-token', boxId: '8d3f1c2a-5b6e-4f70-9a81-2c3d4e5f6a7b', companyId: company, pollMs: 60_000, timeoutMs: 30_000 };
  });

  const post = <T = DocumentItem>(url: string, body: unknown = undefined) => call<T & { detail: string }>(s, 'POST', url, { token: manager.token, body });
  /** A stamped trip's Т1 made ready: its key stored before anything is sent. */
  async function readyTitle(driver: string): Promise<DocumentItem & { key: string }> {
    const trip = await stampedTrip(s, cards, DAY, driver);
    const draft = await post('/api/documents/', { report_id: trip.trip, title: 't1' });
    const ready = await post(`/api/documents/${draft.body.id}/ready`);
    expect(ready.body.state).toBe('ready');
    const row = await s.db.kysely.selectFrom('etrn_documents').select('idempotency_key').where('id', '=', ready.body.id).executeTakeFirstOrThrow();
    return { ...ready.body, key: row.idempotency_key as string };
  }
  const doc = (id: number) => s.db.kysely.selectFrom('etrn_documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const job = (fake: FakeDiadoc) => startOperatorJob(s.db, settings, { fetch: fake.fetch, timer: false });

  it('a title sent once under its key, unsigned for the carrier to sign in Диадок; accepted: the УИД and QR stored', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Петров Иван Сергеевич');
    const one = job(fake);
    const at = new Date('2026-11-28T10:00:00Z');
    const first = await one.runOnce(at);
    expect(first).toMatchObject({ sent: 1, accepted: 0, waiting: 1, errors: [] });
    expect(fake.posts()).toBe(1);
    const request = fake.requests.find((r) => r.path === '/V3/PostMessage')!;
    expect(request.query.operationId).toBe(title.key);
    expect(request.headers.authorization).toBe('Bearer test-access-token');
    expect(request.body).toMatchObject({ FromBoxId: settings.boxId, DelaySend: true, DocumentAttachments: [{ TypeNamedId: 'LogisticsWaybill', Version: 'kl_trn_mt_05_01', CustomDocumentId: title.key }] });
    const sent = fake.docs.get(title.key)!;
    expect(sent.xml).toContain(`ИдФайл="${title.file_name}"`);
    expect(sent.xml).not.toContain('Signature');
    expect(await doc(title.id)).toMatchObject({ state: 'sent', operator_message_id: sent.messageId, operator_entity_id: sent.entityId, operator_claim: null, operator_attempts: 1 });

    // Still in ГИС ЭПД: nothing changes, nothing is sent again.
    expect(await one.runOnce(new Date(at.getTime() + 60_000))).toMatchObject({ sent: 0, accepted: 0, waiting: 1 });
    fake.outcome.set(sent.messageId, 'accepted');
    expect(await one.runOnce(new Date(at.getTime() + 120_000))).toMatchObject({ sent: 0, accepted: 1, waiting: 0 });
    expect(await doc(title.id)).toMatchObject({ state: 'accepted', uid: 'd1e41efa-4cf4-4a1f-ace9-f2bfad05587b', qr: 'd1e41efa-4cf4-4a1f-ace9-f2bfad05587b' });
    expect(fake.posts()).toBe(1);
    await one.close();
  });

  it('rejected by ГИС ЭПД: «Отклонён» with its code and text, to be fixed and made ready again under a new key', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Сидоров Олег Петрович');
    const one = job(fake);
    await one.runOnce(new Date('2026-11-28T11:00:00Z'));
    fake.outcome.set(fake.docs.get(title.key)!.messageId, 'rejected');
    expect(await one.runOnce(new Date('2026-11-28T11:01:00Z'))).toMatchObject({ rejected: 1 });
    const row = await doc(title.id);
    expect(row.state).toBe('rejected');
    expect(row.reason).toBe('Ошибка обработки в ГИС ЭПД; TRN-0412: Не указан номер водительского удостоверения водителя');
    expect(row.fix).toContain('Готов к подписи');
    const again = await post(`/api/documents/${title.id}/ready`);
    expect(again.body.state).toBe('ready');
    const newKey = (await doc(title.id)).idempotency_key;
    expect(newKey).not.toBe(title.key);
    // Out of the next tests' way.
    expect((await post(`/api/documents/${title.id}/annul`, {})).body.state).toBe('annulled');
    await one.close();
  });

  it('a timeout whose outcome is unknown: retried after the backoff, asked first — found sent, not sent again', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Кузнецов Артём Ильич');
    const one = job(fake);
    const at = new Date('2026-11-28T12:00:00Z');
    fake.loseNextAnswer = true;
    const first = await one.runOnce(at);
    expect(first.sent).toBe(0);
    expect(first.errors).toEqual(['Диадок не ответил за 30 с']);
    expect(fake.docs.has(title.key)).toBe(true); // Диадок did create it
    expect(await doc(title.id)).toMatchObject({ state: 'ready', operator_claim: null, operator_attempts: 1, operator_error: 'Диадок не ответил за 30 с', operator_next_at: new Date(at.getTime() + backoffMs(1)).toISOString() });

    // Before the backoff: not touched, its error still shown.
    expect((await one.runOnce(new Date(at.getTime() + backoffMs(1) - 1000))).errors).toEqual(['Диадок не ответил за 30 с']);
    expect(fake.requests.filter((r) => r.path !== '/V3/GetMessage')).toHaveLength(1);
    // After: asked by its key, found, recorded as sent — no second PostMessage.
    const second = await one.runOnce(new Date(at.getTime() + backoffMs(1)));
    expect(second.sent).toBe(1);
    expect(fake.requests.map((r) => r.path).filter((p) => p !== '/V3/GetMessage')).toEqual(['/V3/PostMessage', '/GetDocumentsByCustomId']);
    expect(fake.posts(title.key)).toBe(1);
    expect(await doc(title.id)).toMatchObject({ state: 'sent', operator_message_id: fake.docs.get(title.key)!.messageId, operator_attempts: 2, operator_error: null });
    await one.close();
  });

  it('two instances’ jobs at once: each title claimed by one of them and sent once', async () => {
    const fake = new FakeDiadoc(settings);
    const titles = [await readyTitle('Андреев Павел Игоревич'), await readyTitle('Борисов Илья Олегович'), await readyTitle('Васильев Глеб Романович')];
    const a = job(fake);
    const b = job(fake);
    const at = new Date('2026-11-28T13:00:00Z');
    const [ra, rb] = await Promise.all([a.runOnce(at), b.runOnce(at)]);
    expect(ra.sent + rb.sent).toBe(3);
    for (const t of titles) {
      expect(fake.posts(t.key)).toBe(1);
      expect((await doc(t.id)).state).toBe('sent');
    }
    await Promise.all([a.runOnce(new Date(at.getTime() + 60_000)), b.runOnce(new Date(at.getTime() + 60_000))]);
    expect(fake.posts()).toBe(3);
    await Promise.all([a.close(), b.close()]);
  });

  it('a restart mid-way: the claim of a process that died is left alone within its lease, then taken over — asked before sending, sent once', async () => {
    const fake = new FakeDiadoc(settings);
    const lost = await readyTitle('Григорьев Денис Андреевич');
    const never = await readyTitle('Дмитриев Егор Семёнович');
    const at = new Date('2026-11-28T14:00:00Z');
    // The process that died: it had claimed both and counted the attempts; Диадок got the first title, not the second.
    for (const t of [lost, never]) {
      await s.db.kysely.updateTable('etrn_documents').set({ operator_claim: 'dead-process', operator_claimed_at: at.toISOString(), operator_attempts: 1 }).where('id', '=', t.id).execute();
    }
    await fake.fetch(`${settings.url}/V3/PostMessage?operationId=${lost.key}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.token}` },
      body: JSON.stringify({ FromBoxId: settings.boxId, DelaySend: true, DocumentAttachments: [{ SignedContent: { Content: '' } }] }),
    });
    fake.requests = [];
    const calls = () => fake.requests.filter((r) => r.path !== '/V3/GetMessage');

    // Restarted within the lease: the claims are still the dead process's.
    const restarted = job(fake);
    expect(await restarted.runOnce(new Date(at.getTime() + LEASE_MS - 1000))).toMatchObject({ sent: 0 });
    expect(calls()).toHaveLength(0);
    // Past the lease: both taken over, each asked first; the one Диадок has is recorded, the other sent once.
    expect(await restarted.runOnce(new Date(at.getTime() + LEASE_MS + 1000))).toMatchObject({ sent: 2, errors: [] });
    expect(fake.posts(lost.key)).toBe(0);
    expect(fake.posts(never.key)).toBe(1);
    expect(calls().filter((r) => r.path === '/GetDocumentsByCustomId').map((r) => r.query.customDocumentId).sort()).toEqual([lost.key, never.key].sort());
    expect((await doc(lost.id)).operator_message_id).toBe(fake.docs.get(lost.key)!.messageId);
    expect((await doc(never.id)).state).toBe('sent');
    await restarted.close();
  });

  it('a request Диадок refuses (400): «Отклонён» with its words, not retried; the screen names the adapter and the last pass', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Евдокимов Фёдор Львович');
    const refusing: Fetch = async (url, init) => (url.includes('/V3/PostMessage') ? { status: 400, text: async () => 'Документ не соответствует XSD-схеме' } : fake.fetch(url, init));
    const one = startOperatorJob(s.db, settings, { fetch: refusing, timer: false });
    const run = await one.runOnce(new Date('2026-11-28T15:00:00Z'));
    expect(run.errors).toEqual(['Диадок отказал (400): Документ не соответствует XSD-схеме']);
    expect(await doc(title.id)).toMatchObject({ state: 'rejected', reason: 'Диадок отказал (400): Документ не соответствует XSD-схеме', operator_claim: null });
    await one.close();

    const app = await buildApp({ config: { ...s.config, diadoc: settings, operatorJob: false }, db: s.db });
    try {
      const page = await app.inject({ method: 'GET', url: '/api/documents/', headers: { authorization: `Bearer ${manager.token}` } });
      expect((page.json() as DocumentPage).exchange).toEqual({ adapter: 'diadoc', box_id: settings.boxId, last_run: run });
      const zip = await app.inject({ method: 'GET', url: `/api/documents/export?date=${DAY}`, headers: { authorization: `Bearer ${manager.token}` } });
      expect(zip.statusCode).toBe(409);
      expect((zip.json() as { detail: string }).detail).toContain('Диадок по API');
    } finally {
      await app.close();
    }
    const files = await call<DocumentPage>(s, 'GET', '/api/documents/', { token: manager.token });
    expect(files.body.exchange).toEqual({ adapter: 'files', box_id: null, last_run: null });
  });
});
