/**
 * The operator job (docs/documents.md «The Диадок API adapter»): with Диадок configured, every `pollMs` (and at
 * start) it sends the company's ready titles and polls the sent ones for the operator's answer.
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
 * Polling: each sent title's message read (`GetMessage`); ГИС ЭПД's final status applied by exchange.ts
 * `applyAnswer` (a conditional update on «sent», the same as the files adapter's answers), so two instances
 * polling at once apply it once. Each pass's result is stored per company for the screen.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import type { DiadocSettings } from '../config.ts';
import type { OperatorRun } from '../../contract/documents.ts';
import { diadocClient, type DiadocIds, type Fetch } from './diadoc.ts';
import { applyAnswer } from './exchange.ts';

export const LEASE_MS = 5 * 60_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;
const BATCH = 50;

export const backoffMs = (attempts: number) => Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);

export interface OperatorJob {
  /** One pass at `now` (tests choose it): sends, polls, stores and returns the pass's result. */
  runOnce(now?: Date): Promise<OperatorRun>;
  close(): Promise<void>;
}

export function startOperatorJob(db: Db, settings: DiadocSettings, { fetch = globalThis.fetch as unknown as Fetch, timer = true } = {}): OperatorJob {
  const client = diadocClient(settings, fetch);
  const company = settings.companyId;
  let running: Promise<OperatorRun | null> = Promise.resolve(null);
  let closed = false;

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
      .select(['title', 'file_name', 'xml', 'idempotency_key', 'operator_attempts'])
      .where('id', '=', id)
      .where('operator_claim', '=', token)
      .executeTakeFirst();
    if (!row?.idempotency_key || !row.xml || !row.file_name) return release(id, token, at, 1, 'Документ не сформирован: нет файла или ключа');
    const key = row.idempotency_key;
    let ids: DiadocIds | null = null;
    if (row.operator_attempts > 1) {
      // An earlier attempt's outcome is unknown: ask before sending again.
      const found = await client.findByKey(key);
      if (!found.ok) return release(id, token, at, row.operator_attempts, found.detail);
      ids = found.value;
    }
    if (ids === null) {
      const posted = await client.post({ title: row.title, file_name: row.file_name, xml: row.xml, key });
      if (!posted.ok) {
        if (posted.permanent) return refuse(id, token, at, posted.detail);
        return release(id, token, at, row.operator_attempts, posted.detail);
      }
      ids = posted.value;
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
    const run: OperatorRun = { at: now, sent: 0, accepted: 0, rejected: 0, waiting: 0, errors: [] };
    const candidates = await due(now, cutoff).select('id').orderBy('id').limit(BATCH).execute();
    for (const { id } of candidates) {
      if (closed) break;
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
      if (closed) break;
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

  function runOnce(at = new Date()): Promise<OperatorRun> {
    const next = running.catch(() => null).then(() => (closed ? { at: at.toISOString(), sent: 0, accepted: 0, rejected: 0, waiting: 0, errors: [] } : pass(at)));
    running = next;
    return next;
  }

  const tick = () => void runOnce().catch((error: unknown) => console.error('operator job failed', error));
  const first = timer ? setTimeout(tick, 5_000) : null;
  const every = timer ? setInterval(tick, settings.pollMs) : null;
  first?.unref();
  every?.unref();

  return {
    runOnce,
    async close() {
      closed = true;
      if (first) clearTimeout(first);
      if (every) clearInterval(every);
      await running.catch(() => undefined);
    },
  };
}
