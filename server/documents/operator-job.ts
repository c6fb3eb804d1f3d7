/**
 * The operator job (docs/documents.md «The Диадок API adapter», «The operator of a company»): every `pollMs` (and at
 * start), for each company whose operator is Диадок's API — its saved setting, or the environment's company while it
 * saved none —, it sends the company's ready titles and polls the sent ones, with that company's own client.
 *
 * Sending, per title: claimed by one conditional UPDATE (ready, not claimed or its claim older than the lease, not
 * before its backoff) that also counts the attempt — of two instances, or of a pass and a restarted process, only
 * one holds it. The key the title is sent under was stored when it was made ready (store.ts `markReady`), before
 * any send. A second attempt (the first timed out, failed, or its process died) first asks Диадок for a document
 * with that key (`GetDocumentsByCustomId`): found, it is recorded as sent and not sent again; only when Диадок has
 * none is it posted again, still under the same `operationId` (Диадок answers a repeated one with the first
 * result). A failed attempt releases the claim and waits 30 s × 2^(attempts−1), at most an hour; a request Диадок
 * refuses outright (400) makes the title «Отклонён» with Диадок's words, to be fixed and made ready anew.
 *
 * The carrier's Т2 and Т4 answer a title already in Диадок: posted by `PostMessagePatch` into the message of the Т1
 * (the shipper's, fetched from the box, or our own draft we sent) or of the Т3 the file cites (`ИдФайлИнфГО` /
 * `ИдФайлИнфГП`), with that title's EntityId as the parent. A title whose Т1/Т3 Диадок does not hold (uploaded as a
 * file) waits with the reason shown until it arrives through the box. A repeated attempt reposts under the same
 * `operationId`, which Диадок answers with the first success (a patch has no CustomDocumentId to look it up by).
 *
 * Polling: each sent title's message read (`GetMessage`); ГИС ЭПД's final status applied by exchange.ts
 * `applyAnswer` (a conditional update on «sent», the same as the files adapter's answers), so two instances
 * polling at once apply it once. Then the box's new waybill events (`GetNewEvents` after the stored cursor): each
 * Т1/Т3 of another party fetched (`GetEntityContent`) and taken in by the same path as an upload (papers/receive.ts:
 * linked to its trip, its differences stored), with the ids Диадок knows it by; an event is recorded once taken in and
 * skipped on every later poll (and a file already stored, by its ИдФайл, is not stored twice). Each pass's result is
 * stored per company for the screen.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import type { DiadocApi, DiadocSettings } from '../config.ts';
import { apiOf, diadocCompanies } from './operator-settings.ts';
import type { OperatorRun } from '../../contract/documents.ts';
import { diadocClient, type BoxTitle, type DiadocClient, type DiadocIds, type Fetch } from './diadoc.ts';
import { applyAnswer } from './exchange.ts';
import { receiveTitle } from '../papers/receive.ts';
import { IncomingRefused } from '../etrn/incoming.ts';
import { HttpError } from '../errors.ts';

/** Pages of events read per pass (100 events a page, as GetNewEvents gives them). */
const EVENT_PAGES = 5;
/** Whose name our facts carry when the job compares a fetched title with the trip (not shown: only differences are). */
const JOB_SIGNER = { name: 'Обмен с Диадоком', position: 'Оператор ЭДО' };

export const LEASE_MS = 5 * 60_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;
const BATCH = 50;

export const backoffMs = (attempts: number) => Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);

export interface OperatorJob {
  /** One pass at `now` (tests choose it): sends, polls, stores and returns the pass's result. */
  runOnce(now?: Date): Promise<OperatorRun>;
  /** The same pass, its result per company served. */
  runEach(now?: Date): Promise<Map<number, OperatorRun>>;
  close(): Promise<void>;
}

/** One company's side of the job: its own Диадок client (its box, its token refreshed in memory) and its pass. */
function companyJob(db: Db, settings: DiadocSettings, fetch: Fetch, isClosed: () => boolean) {
  const client = diadocClient(settings, fetch);
  const company = settings.companyId;

  const due = (now: string, cutoff: string) =>
    db.kysely
      .selectFrom('etrn_documents')
      .where('company_id', '=', company)
      .where('direction', '=', 'out')
      .where('state', '=', 'ready')
      .where((eb) => eb.or([eb('operator_next_at', 'is', null), eb('operator_next_at', '<=', now)]))
      .where((eb) => eb.or([eb('operator_claimed_at', 'is', null), eb('operator_claimed_at', '<', cutoff)]));

  /** Sends one claimed title; returns null when sent (or found sent), else the error in Russian. */
  async function sendClaimed(id: number, token: string, at: Date): Promise<string | null> {
    const row = await db.kysely
      .selectFrom('etrn_documents')
      .select(['title', 'report_id', 'file_name', 'xml', 'idempotency_key', 'operator_attempts'])
      .where('id', '=', id)
      .where('operator_claim', '=', token)
      .executeTakeFirst();
    if (!row?.idempotency_key || !row.xml || !row.file_name) return release(id, token, at, 1, 'Документ не сформирован: нет файла или ключа');
    const key = row.idempotency_key;
    let ids: DiadocIds | null = null;
    if (row.title === 't2' || row.title === 't4') {
      const parent = await answeredTitle(row.title, row.report_id, row.xml);
      if (typeof parent === 'string') return release(id, token, at, row.operator_attempts, parent);
      const posted = await client.postAnswer({ title: row.title, file_name: row.file_name, xml: row.xml, key }, parent);
      if (!posted.ok) return posted.permanent ? refuse(id, token, at, posted.detail) : release(id, token, at, row.operator_attempts, posted.detail);
      ids = posted.value;
    } else {
      if (row.operator_attempts > 1) {
        // An earlier attempt's outcome is unknown: ask before sending again.
        const found = await client.findByKey(key);
        if (!found.ok) return release(id, token, at, row.operator_attempts, found.detail);
        ids = found.value;
      }
      if (ids === null) {
        const posted = await client.post({ title: row.title, file_name: row.file_name, xml: row.xml, key });
        if (!posted.ok) return posted.permanent ? refuse(id, token, at, posted.detail) : release(id, token, at, row.operator_attempts, posted.detail);
        ids = posted.value;
      }
    }
    const now = at.toISOString();
    await db.kysely
      .updateTable('etrn_documents')
      .set({ state: 'sent', sent_at: now, sent_batch: `diadoc:${ids.message_id}`, operator_message_id: ids.message_id, operator_entity_id: ids.entity_id, operator_claim: null, operator_error: null, operator_next_at: null, updated_at: now })
      .where('id', '=', id)
      .where('operator_claim', '=', token)
      .where('state', '=', 'ready')
      .execute();
    return null;
  }

  /**
   * Where in Диадок the title a Т2 (Т4) answers is: the Т1 (Т3) its file cites, by `ИдФайлИнфГО` (`ИдФайлИнфГП`) —
   * our own Т1 draft we sent, or a title fetched from the box. A string: why it cannot be answered yet.
   */
  async function answeredTitle(title: 't2' | 't4', reportId: number, xml: string): Promise<DiadocIds | string> {
    const suffix = title === 't2' ? 'ГО' : 'ГП';
    const cited = new RegExp(`ИдФайлИнф${suffix}="([^"]+)"`).exec(xml)?.[1] ?? null;
    const what = title === 't2' ? 'Т1 грузоотправителя' : 'Т3 грузополучателя';
    if (!cited) return `${title === 't2' ? 'Т2' : 'Т4'} не ссылается на ${what}: сформируйте его заново`;
    const own =
      title === 't2'
        ? await db.kysely
            .selectFrom('etrn_documents')
            .select(['operator_message_id', 'operator_entity_id'])
            .where('report_id', '=', reportId)
            .where('title', '=', 't1')
            .where('direction', '=', 'out')
            .where('file_name', '=', cited)
            .where('operator_message_id', 'is not', null)
            .executeTakeFirst()
        : undefined;
    const received =
      own ??
      (await db.kysely
        .selectFrom('etrn_incoming')
        .select(['operator_message_id', 'operator_entity_id'])
        .where('report_id', '=', reportId)
        .where('file_id', '=', cited)
        .where('operator_message_id', 'is not', null)
        .executeTakeFirst());
    if (!received?.operator_message_id || !received.operator_entity_id) {
      return `${title === 't2' ? 'Т2' : 'Т4'} отвечает на ${what} ${cited}, которого нет в Диадоке (он загружен файлом): отправьте ${title === 't2' ? 'Т2' : 'Т4'} архивом за день или дождитесь ${what} в ящике Диадока`;
    }
    return { message_id: received.operator_message_id, entity_id: received.operator_entity_id };
  }

  /** The box's new Т1/Т3 taken in: each event once; returns how many titles were stored, and the errors. */
  async function intake(c: DiadocClient, at: Date): Promise<{ received: number; errors: string[] }> {
    const now = at.toISOString();
    const errors: string[] = [];
    let received = 0;
    const cursor = await db.kysely.selectFrom('etrn_operator_cursors').select('after_index_key').where('company_id', '=', company).executeTakeFirst();
    let after = cursor?.after_index_key ?? null;
    for (let page = 0; page < EVENT_PAGES && !isClosed(); page += 1) {
      const res = await c.newTitles(after);
      if (!res.ok) {
        errors.push(res.detail);
        break;
      }
      const seen = new Set(
        res.value.events.length === 0
          ? []
          : (await db.kysely.selectFrom('etrn_operator_events').select('event_id').where('company_id', '=', company).where('event_id', 'in', res.value.events).execute()).map((r) => r.event_id),
      );
      let stop = false;
      for (const event of res.value.events) {
        if (seen.has(event)) continue;
        for (const title of res.value.titles.filter((t) => t.event_id === event)) {
          const outcome = await takeIn(c, title, now);
          if (outcome === 'stored') received += 1;
          else if (outcome !== 'known') {
            errors.push(outcome.error);
            if (outcome.retry) stop = true;
          }
        }
        if (stop) break; // the event is read again on the next poll
        await db.kysely.insertInto('etrn_operator_events').values({ company_id: company, event_id: event, seen_at: now }).onConflict((oc) => oc.columns(['company_id', 'event_id']).doNothing()).execute();
      }
      // The УИД of a waybill whose title we hold, come later: on the received titles of that message (the Т2 cites it).
      for (const { message_id, uid } of res.value.uids) {
        await db.kysely.updateTable('etrn_incoming').set({ uid }).where('company_id', '=', company).where('operator_message_id', '=', message_id).where('uid', 'is', null).execute();
      }
      if (stop || !res.value.next || res.value.next === after) break;
      after = res.value.next;
      await db.kysely
        .insertInto('etrn_operator_cursors')
        .values({ company_id: company, after_index_key: after })
        .onConflict((oc) => oc.column('company_id').doUpdateSet({ after_index_key: after as string }))
        .execute();
      if (!res.value.more) break;
    }
    return { received, errors };
  }

  /** One title of the box: fetched and taken in, or why not (`retry`: a fault of the moment, read again next time). */
  async function takeIn(c: DiadocClient, title: BoxTitle, now: string): Promise<'stored' | 'known' | { error: string; retry: boolean }> {
    const bytes = await c.content(title);
    if (!bytes.ok) return { error: `${title.file_name}: ${bytes.detail}`, retry: !bytes.permanent };
    // The sender's signature (CMS) the Т2/Т4 cites in `ЭП`, as base64 — the way an uploaded one is kept.
    const sig = title.signature_entity_id ? await c.content({ message_id: title.message_id, entity_id: title.signature_entity_id }) : null;
    if (sig && !sig.ok) return { error: `${title.file_name}: ${sig.detail}`, retry: !sig.permanent };
    try {
      const stored = await receiveTitle(db, company, { bytes: bytes.value, fileName: title.file_name, uid: title.uid, signature: sig?.ok ? sig.value.toString('base64') : null, operator: { message_id: title.message_id, entity_id: title.entity_id } }, JOB_SIGNER, null, now);
      return stored.created ? 'stored' : 'known';
    } catch (error) {
      // A title for no trip of ours, or not a valid Т1/Т3: said once on the screen, the event not read again.
      if (error instanceof IncomingRefused || (error instanceof HttpError && error.statusCode < 500)) {
        return { error: `Титул из Диадока ${title.file_name} не принят: ${error instanceof HttpError ? error.detail : error.message}`, retry: false };
      }
      return { error: `Титул из Диадока ${title.file_name} не прочитан: ${error instanceof Error ? error.message : String(error)}`, retry: true };
    }
  }

  async function release(id: number, token: string, at: Date, attempts: number, error: string): Promise<string> {
    await db.kysely
      .updateTable('etrn_documents')
      .set({ operator_claim: null, operator_claimed_at: null, operator_error: error, operator_next_at: new Date(at.getTime() + backoffMs(attempts)).toISOString() })
      .where('id', '=', id)
      .where('operator_claim', '=', token)
      .execute();
    return error;
  }

  /** Диадок refused the request itself: the title is «Отклонён» with its words, made ready again after the fix. */
  async function refuse(id: number, token: string, at: Date, error: string): Promise<string> {
    const now = at.toISOString();
    await db.kysely
      .updateTable('etrn_documents')
      .set({ state: 'rejected', reason: error, fix: 'Исправьте и отметьте документ «Готов к подписи» заново: он уйдёт с новым ключом', answered_at: now, updated_at: now, operator_claim: null, operator_error: error, operator_next_at: null })
      .where('id', '=', id)
      .where('operator_claim', '=', token)
      .where('state', '=', 'ready')
      .execute();
    return error;
  }

  async function pass(at: Date): Promise<OperatorRun> {
    const now = at.toISOString();
    const cutoff = new Date(at.getTime() - LEASE_MS).toISOString();
    const run: OperatorRun = { at: now, sent: 0, accepted: 0, rejected: 0, waiting: 0, received: 0, errors: [] };
    const candidates = await due(now, cutoff).select('id').orderBy('id').limit(BATCH).execute();
    for (const { id } of candidates) {
      if (isClosed()) break;
      const token = randomUUID();
      const claim = await db.kysely
        .updateTable('etrn_documents')
        .set((eb) => ({ operator_claim: token, operator_claimed_at: now, operator_attempts: eb('operator_attempts', '+', 1) }))
        .where('id', '=', id)
        .where('state', '=', 'ready')
        .where((eb) => eb.or([eb('operator_next_at', 'is', null), eb('operator_next_at', '<=', now)]))
        .where((eb) => eb.or([eb('operator_claimed_at', 'is', null), eb('operator_claimed_at', '<', cutoff)]))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue; // another instance holds it
      const error = await sendClaimed(id, token, at);
      if (error === null) run.sent += 1;
      else run.errors.push(error);
    }
    const sent = await db.kysely
      .selectFrom('etrn_documents')
      .select(['id', 'idempotency_key', 'operator_message_id', 'operator_entity_id'])
      .where('company_id', '=', company)
      .where('direction', '=', 'out')
      .where('state', '=', 'sent')
      .where('operator_message_id', 'is not', null)
      .orderBy('id')
      .execute();
    for (const doc of sent) {
      if (isClosed()) break;
      const res = await client.answer({ message_id: doc.operator_message_id as string, entity_id: doc.operator_entity_id ?? '' }, doc.idempotency_key ?? '');
      if (!res.ok) {
        run.errors.push(res.detail);
        run.waiting += 1;
      } else if (res.value === null) run.waiting += 1;
      else {
        const outcome = await applyAnswer(db, company, 'Диадок', res.value);
        if (outcome.outcome === 'accepted') run.accepted += 1;
        if (outcome.outcome === 'rejected') run.rejected += 1;
      }
    }
    if (!isClosed()) {
      const taken = await intake(client, at);
      run.received = taken.received;
      run.errors.push(...taken.errors);
    }
    // Titles waiting out their backoff keep their last error on the screen, not only the pass that hit it.
    const retrying = await db.kysely
      .selectFrom('etrn_documents')
      .select('operator_error')
      .where('company_id', '=', company)
      .where('state', '=', 'ready')
      .where('operator_error', 'is not', null)
      .execute();
    run.errors = [...new Set([...run.errors, ...retrying.map((r) => r.operator_error as string)])];
    await db.kysely
      .insertInto('etrn_operator_runs')
      .values({ company_id: company, adapter: 'diadoc', ran_at: now, result: JSON.stringify(run) })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ adapter: 'diadoc', ran_at: now, result: JSON.stringify(run) }))
      .execute();
    return run;
  }
  return { pass };
}

const emptyRun = (at: Date): OperatorRun => ({ at: at.toISOString(), sent: 0, accepted: 0, rejected: 0, waiting: 0, received: 0, errors: [] });

/**
 * The job of the installation: every pass serves each company whose titles go through Диадок (its saved setting, or
 * the environment's company while it saved none: operator-settings.ts `diadocCompanies`), each with its own client.
 * A company's client is kept while its settings stay the same — so a refresh token the provider rotated is used
 * for its next refresh — and made anew when the admin changes them (the saved token again; memory only).
 */
export function startOperatorJob(
  db: Db,
  env: DiadocSettings | null,
  { fetch = globalThis.fetch as unknown as Fetch, timer = true, api }: { fetch?: Fetch; timer?: boolean; api?: DiadocApi } = {},
): OperatorJob {
  const shared = apiOf(api);
  const jobs = new Map<number, { key: string; job: ReturnType<typeof companyJob> }>();
  let running: Promise<unknown> = Promise.resolve(null);
  let closed = false;
  const isClosed = () => closed;

  async function passes(at: Date): Promise<Map<number, OperatorRun>> {
    const runs = new Map<number, OperatorRun>();
    const served = await diadocCompanies(db, env, shared);
    for (const settings of served) {
      if (closed) break;
      const key = JSON.stringify(settings);
      let held = jobs.get(settings.companyId);
      if (held?.key !== key) {
        held = { key, job: companyJob(db, settings, fetch, isClosed) };
        jobs.set(settings.companyId, held);
      }
      try {
        runs.set(settings.companyId, await held.job.pass(at));
      } catch (error) {
        // One company's failure (its database rows, a bug) does not stop the others' pass.
        console.error(`operator job failed for company ${settings.companyId}`, error);
      }
    }
    for (const company of jobs.keys()) if (!served.some((s) => s.companyId === company)) jobs.delete(company);
    return runs;
  }

  function runEach(at = new Date()): Promise<Map<number, OperatorRun>> {
    const next = running.catch(() => null).then(() => (closed ? new Map<number, OperatorRun>() : passes(at)));
    running = next;
    return next;
  }

  async function runOnce(at = new Date()): Promise<OperatorRun> {
    const total = emptyRun(at);
    for (const run of (await runEach(at)).values()) {
      total.sent += run.sent;
      total.accepted += run.accepted;
      total.rejected += run.rejected;
      total.waiting += run.waiting;
      total.received = (total.received ?? 0) + (run.received ?? 0);
      total.errors.push(...run.errors);
    }
    return total;
  }

  const tick = () => void runEach().catch((error: unknown) => console.error('operator job failed', error));
  const first = timer ? setTimeout(tick, 5_000) : null;
  const every = timer ? setInterval(tick, env?.pollMs ?? shared.pollMs) : null;
  first?.unref();
  every?.unref();

  return {
    runOnce,
    runEach,
    async close() {
      closed = true;
      if (first) clearTimeout(first);
      if (every) clearInterval(every);
      await running.catch(() => undefined);
    },
  };
}
