/**
 * The exchange with the operator through an adapter (adapter.ts; docs/documents.md «The exchange»): a day's ready
 * titles claimed and handed over exactly once, and the operator's answers applied. The claim is one conditional
 * update (ready → sent … returning the files), so two exports at once, a retry or an export after a restart never
 * hand the same title over twice; `again` hands the day's sent ones over once more without changing them (same file
 * names, same keys: the operator recognises them).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, conflict } from '../errors.ts';
import { DOCUMENT_STATE_LABELS, type AnswerOutcome, type AnswersResult } from '../../contract/documents.ts';
import type { AnswerFile, OperatorAdapter, OperatorAnswer, OutgoingFile, SendReceipt } from './adapter.ts';
import { companyFor } from './store.ts';

const dayText = (day: string) => day.split('-').reverse().join('.');

async function companyOf(db: Db, user: AuthUser, companyId: number | undefined): Promise<number> {
  const company = await companyFor(db, user, companyId);
  if (company === null) throw badRequest('company_id: укажите компанию');
  return company;
}

export interface DayExport {
  receipt: SendReceipt;
  /** Handed over now for the first time. */
  sent: number;
  /** Sent before and handed over again (`again`). */
  resent: number;
}

export async function exportDay(db: Db, user: AuthUser, adapter: OperatorAdapter, q: { date: string; again: '0' | '1'; company_id?: number | undefined }): Promise<DayExport> {
  const company = await companyOf(db, user, q.company_id);
  const now = nowIso();
  const batch = randomUUID();
  const claimed = await db.kysely
    .updateTable('etrn_documents')
    .set({ state: 'sent', sent_at: now, sent_batch: batch, updated_at: now })
    .where('company_id', '=', company)
    .where('trip_date', '=', q.date)
    .where('direction', '=', 'out')
    .where('state', '=', 'ready')
    .returning(['id as document_id', 'title', 'file_name', 'xml', 'idempotency_key'])
    .execute();
  const before = await db.kysely
    .selectFrom('etrn_documents')
    .select(['id as document_id', 'title', 'file_name', 'xml', 'idempotency_key'])
    .where('company_id', '=', company)
    .where('trip_date', '=', q.date)
    .where('direction', '=', 'out')
    .where('state', '=', 'sent')
    .where('sent_batch', '<>', batch)
    .orderBy('id')
    .execute();
  const again = q.again === '1' ? before : [];
  if (claimed.length === 0 && again.length === 0) {
    const already = before.length > 0 ? ` Уже отправлено и ждёт ответа оператора: ${before.length} — повторно они не отправляются; скачать их ещё раз можно с again=1.` : '';
    throw conflict(`За ${dayText(q.date)} нет документов, готовых к отправке.${already}`);
  }
  const files = [...claimed, ...again].map((f): OutgoingFile => ({ ...f, file_name: f.file_name ?? '', xml: f.xml ?? '', idempotency_key: f.idempotency_key ?? '' }));
  return { receipt: await adapter.send(q.date, files), sent: claimed.length, resent: again.length };
}

/** The operator's answers applied: each to the sent document it names; the rest reported back, nothing changed. */
export async function applyAnswers(db: Db, user: AuthUser, adapter: OperatorAdapter, body: { company_id?: number | undefined; files: AnswerFile[] }): Promise<AnswersResult> {
  const company = await companyOf(db, user, body.company_id);
  const batch = await adapter.answers(body.files);
  const outcomes: AnswerOutcome[] = batch.invalid.map((i) => ({ name: i.source, file: null, outcome: 'invalid', document_id: null, detail: i.detail }));
  for (const { source, answer } of batch.answers) outcomes.push(await applyAnswer(db, company, source, answer));
  const applied = outcomes.filter((o) => o.outcome === 'accepted' || o.outcome === 'rejected').length;
  return { applied, outcomes };
}

/** One answer applied to the sent document it names (by file name, else by key): a conditional update on «sent». */
export async function applyAnswer(db: Db, company: number, source: string, answer: OperatorAnswer): Promise<AnswerOutcome> {
  const named = answer.file ?? answer.key;
  const doc = await db.kysely
    .selectFrom('etrn_documents')
    .select(['id', 'state', 'uid'])
    .where('company_id', '=', company)
    .where('direction', '=', 'out')
    .where((eb) => (answer.file ? eb('file_name', '=', answer.file) : eb('idempotency_key', '=', answer.key ?? '')))
    .executeTakeFirst();
  const base = { name: source, file: answer.file, document_id: doc?.id ?? null };
  if (!doc) return { ...base, outcome: 'unknown', detail: `Документ «${named ?? ''}» не найден среди документов компании: ничего не изменено` };
  if (doc.state === answer.status && (answer.status === 'rejected' || doc.uid === answer.uid)) {
    return { ...base, outcome: 'unchanged', detail: `Этот ответ уже учтён: документ ${DOCUMENT_STATE_LABELS[doc.state].toLowerCase()}` };
  }
  if (doc.state !== 'sent') return { ...base, outcome: 'unknown', detail: `Документ в состоянии «${DOCUMENT_STATE_LABELS[doc.state]}», а не «Отправлен»: ответ не применён` };
  const now = nowIso();
  const done = await db.kysely
    .updateTable('etrn_documents')
    .set({ state: answer.status, uid: answer.uid, qr: answer.qr, signature: answer.signature, reason: answer.reason, fix: answer.fix, answered_at: now, updated_at: now })
    .where('id', '=', doc.id)
    .where('state', '=', 'sent')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return { ...base, outcome: 'unchanged', detail: 'Документ изменён одновременно другим ответом: ничего не изменено' };
  return { ...base, outcome: answer.status, detail: answer.status === 'accepted' ? `Принят, УИД ТрН ${answer.uid ?? ''}` : `Отклонён: ${answer.reason ?? ''}` };
}
