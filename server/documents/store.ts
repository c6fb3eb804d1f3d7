/**
 * The exchange's documents (issue 33 §3; docs/documents.md «The exchange»): a trip's titles taken in as drafts, made
 * ready (the XML built now and frozen, a new idempotency key), annulled; the list with its filters. Every move is a
 * conditional update on the state it was read in, so a second tab or instance making the same move gets the 409.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { conflict, HttpError, notFound } from '../errors.ts';
import { isSuperAdmin, assertStaffSeesCompany } from '../tasks/scope.ts';
import { reportFor } from '../reports/load.ts';
import { gatherTrip } from '../papers/gather.ts';
import { makeTitle } from '../papers/title.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import {
  DOCUMENT_STATES,
  DOCUMENT_TITLE_LABELS,
  type BulkReadyOutcome,
  type BulkReadyResult,
  type DocumentItem,
  type DocumentListQuery,
  type DocumentPage,
  type DocumentState,
  type OutgoingTitle,
} from '../../contract/documents.ts';
import type { TitleExchange } from '../../contract/calls/papers.ts';
import { canMove, refusal, MOVES, type DocumentAction } from './states.ts';

const NOT_FOUND = 'Документ не найден';

function selectDocuments(db: Db) {
  return db.kysely
    .selectFrom('etrn_documents as d')
    .innerJoin('reports as r', 'r.id', 'd.report_id')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .leftJoin('users as u', 'u.id', 'r.driver_id')
    .leftJoin('vehicles as v', 'v.id', 'd.vehicle_id');
}

type DocRows = Awaited<ReturnType<typeof loadRows>>;

async function loadRows(q: ReturnType<typeof selectDocuments>) {
  return q
    .selectAll('d')
    .select(['t.id as task_id', 't.customer_id', 't.shipper_id', 't.consignee_id', 'u.name as driver_name', 'v.plate as vehicle_plate'])
    .execute();
}

async function toItems(db: Db, rows: DocRows): Promise<DocumentItem[]> {
  const partyIds = [...new Set(rows.flatMap((r) => [r.customer_id, r.shipper_id, r.consignee_id]).filter((id): id is number => id !== null))];
  const names = new Map<number, string>();
  if (partyIds.length > 0) {
    for (const p of await db.kysely.selectFrom('counterparties').select(['id', 'name']).where('id', 'in', partyIds).execute()) names.set(p.id, p.name);
  }
  return rows.map((r) => {
    const parties = [...new Set([r.customer_id, r.shipper_id, r.consignee_id].filter((id): id is number => id !== null))];
    return {
      id: r.id,
      company_id: r.company_id,
      report_id: r.report_id,
      task_id: r.task_id,
      title: r.title,
      direction: r.direction,
      state: r.state,
      file_name: r.file_name,
      waybill_number: `${r.task_id}-${r.report_id}`,
      trip_date: r.trip_date,
      vehicle_id: r.vehicle_id,
      vehicle_plate: r.vehicle_plate ?? null,
      driver_name: r.driver_name ?? null,
      counterparties: parties.map((id) => ({ id, name: names.get(id) ?? '' })),
      uid: r.uid,
      qr: r.qr,
      reason: r.reason,
      fix: r.fix,
      ready_at: r.ready_at,
      sent_at: r.sent_at,
      answered_at: r.answered_at,
      annulled_at: r.annulled_at,
      created_at: r.created_at,
      updated_at: r.updated_at,
      can_mark_ready: r.direction === 'out' && canMove('ready', r.state),
      can_annul: canMove('annul', r.state),
    };
  });
}

/** The company a list or a day's exchange is for: the caller's own; a super-admin names it (400 when not). */
export async function companyFor(db: Db, user: AuthUser, companyId: number | undefined): Promise<number | null> {
  if (companyId === undefined) return isSuperAdmin(user) ? null : user.company_id;
  const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw notFound('Компания не найдена');
  assertStaffSeesCompany(user, companyId, 'Компания не найдена');
  return companyId;
}

export async function listDocuments(db: Db, user: AuthUser, q: DocumentListQuery): Promise<Omit<DocumentPage, 'exchange'>> {
  const company = await companyFor(db, user, q.company_id);
  const filtered = (withState: boolean) =>
    selectDocuments(db)
      .$if(company !== null, (s) => s.where('d.company_id', '=', company as number))
      .$if(withState && q.state !== undefined, (s) => s.where('d.state', '=', q.state as DocumentState))
      .$if(q.from !== undefined, (s) => s.where('d.trip_date', '>=', q.from as string))
      .$if(q.to !== undefined, (s) => s.where('d.trip_date', '<=', q.to as string))
      .$if(q.vehicle_id !== undefined, (s) => s.where('d.vehicle_id', '=', q.vehicle_id as number))
      .$if(q.report_id !== undefined, (s) => s.where('d.report_id', '=', q.report_id as number))
      .$if(q.counterparty_id !== undefined, (s) =>
        s.where((eb) => eb.or([eb('t.customer_id', '=', q.counterparty_id as number), eb('t.shipper_id', '=', q.counterparty_id as number), eb('t.consignee_id', '=', q.counterparty_id as number)])),
      );
  const byState = await filtered(false).select(['d.state']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('d.state').execute();
  const counts = Object.fromEntries(DOCUMENT_STATES.map((s) => [s, 0])) as Record<DocumentState, number>;
  for (const row of byState) counts[row.state] = Number(row.n);
  const total = q.state !== undefined ? counts[q.state] : Object.values(counts).reduce((a, b) => a + b, 0);
  const rows = await loadRows(filtered(true).orderBy('d.trip_date', 'desc').orderBy('d.id', 'desc').limit(q.limit).offset(q.offset));
  const end = q.offset + rows.length;
  return { items: await toItems(db, rows), total, next_offset: end < total ? end : null, counts };
}

/** One document the caller may see; another company's is 404. */
export async function loadDocument(db: Db, user: AuthUser, id: number): Promise<DocumentItem> {
  const rows = await loadRows(selectDocuments(db).where('d.id', '=', id));
  const row = rows[0];
  if (!row) throw notFound(NOT_FOUND);
  assertStaffSeesCompany(user, row.company_id, NOT_FOUND);
  return (await toItems(db, [row]))[0] as DocumentItem;
}

/** A trip's title taken into the exchange as a draft; 409 naming the live one when there is one. */
export async function createDocument(db: Db, user: AuthUser, body: { report_id: number; title: OutgoingTitle }): Promise<DocumentItem> {
  const report = await reportFor(db.kysely, user, body.report_id);
  const live = await db.kysely
    .selectFrom('etrn_documents')
    .select(['id', 'state'])
    .where('report_id', '=', report.id)
    .where('title', '=', body.title)
    .where('direction', '=', 'out')
    .where('state', '<>', 'annulled')
    .executeTakeFirst();
  const taken = () => conflict(`${DOCUMENT_TITLE_LABELS[body.title]} этого рейса уже в работе (документ № ${live?.id ?? ''}): аннулируйте его, чтобы начать заново`);
  if (live) throw taken();
  const base = await gatherTrip(db, report.id);
  const now = nowIso();
  try {
    const row = await db.kysely
      .insertInto('etrn_documents')
      .values({ company_id: report.company_id, report_id: report.id, title: body.title, direction: 'out', state: 'draft', trip_date: base.task.date, vehicle_id: base.vehicle?.id ?? null, created_by: user.id, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return loadDocument(db, user, row.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`${DOCUMENT_TITLE_LABELS[body.title]} этого рейса уже в работе: обновите список`);
    throw error;
  }
}

/** The row for a move, or the 409 saying why the move may not start from its state. */
async function forMove(db: Db, user: AuthUser, id: number, action: DocumentAction) {
  const doc = await loadDocument(db, user, id);
  const why = refusal(action, doc.state);
  if (why) throw conflict(why);
  return doc;
}

/** Applies a move only if the document is still in the state it was read in; else the 409 of the state it is in now. */
async function move(db: Db, user: AuthUser, doc: DocumentItem, action: DocumentAction, set: Record<string, string | number | null>): Promise<DocumentItem> {
  const now = nowIso();
  const done = await db.kysely
    .updateTable('etrn_documents')
    .set({ ...set, state: MOVES[action].to, updated_at: now })
    .where('id', '=', doc.id)
    .where('state', '=', doc.state)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) {
    const now2 = await loadDocument(db, user, doc.id);
    throw conflict(refusal(action, now2.state) ?? 'Документ изменён в другой вкладке: обновите список');
  }
  return loadDocument(db, user, doc.id);
}

/** «Готов к подписи»: the title built from the trip as it is now, frozen with its file name and a new key. */
export async function markReady(db: Db, user: AuthUser, id: number): Promise<DocumentItem> {
  const doc = await forMove(db, user, id, 'ready');
  if (doc.direction !== 'out') throw conflict('Полученный документ подписывает его отправитель: отметить его готовым нельзя');
  const { file, base } = await makeTitle(db, user, doc.report_id, doc.title as OutgoingTitle);
  return move(db, user, doc, 'ready', {
    file_name: file.fileName,
    xml: file.xml,
    idempotency_key: randomUUID(),
    vehicle_id: base.vehicle?.id ?? doc.vehicle_id,
    trip_date: base.task.date,
    ready_at: nowIso(),
    reason: null,
    fix: null,
  });
}

/**
 * «Готов к подписи» for several documents in one transaction: each made ready as `markReady` makes one, or reported
 * with the Russian reason it could not be (a 4xx refusal: a missing fact, its state, another company's or no such
 * document — as «не найден»). Anything else rolls the whole back. None of them found (all another company's, or
 * none such): 404, as for one.
 */
export async function markReadyMany(db: Db, user: AuthUser, ids: readonly number[]): Promise<BulkReadyResult> {
  return db.kysely.transaction().execute(async (trx) => {
    const inTrx: Db = { ...db, kysely: trx };
    const outcomes: BulkReadyOutcome[] = [];
    let unseen = 0;
    for (const id of ids) {
      try {
        outcomes.push({ id, ok: true, detail: null, item: await markReady(inTrx, user, id) });
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
        if (error.statusCode === 404) unseen += 1;
        outcomes.push({ id, ok: false, detail: error.detail, item: null });
      }
    }
    if (unseen === ids.length) throw notFound(ids.length === 1 ? NOT_FOUND : 'Документы не найдены');
    return { moved: outcomes.filter((o) => o.ok).length, outcomes };
  });
}

export async function annul(db: Db, user: AuthUser, id: number, reason: string | undefined): Promise<DocumentItem> {
  const doc = await forMove(db, user, id, 'annul');
  return move(db, user, doc, 'annul', { annulled_at: nowIso(), ...(reason ? { reason, fix: null } : {}) });
}

/** The frozen file of a document made ready (404 for a draft: nothing is frozen yet). */
export async function frozenFile(db: Db, user: AuthUser, id: number): Promise<{ fileName: string; xml: string }> {
  await loadDocument(db, user, id);
  const row = await db.kysely.selectFrom('etrn_documents').select(['file_name', 'xml']).where('id', '=', id).executeTakeFirstOrThrow();
  if (!row.file_name || row.xml === null) throw conflict('Черновик ещё не сформирован: отметьте его «Готов к подписи»');
  return { fileName: row.file_name, xml: row.xml };
}

/**
 * Where each of a trip's outgoing titles stands in the exchange (the trip's «Документы» panel): its live document —
 * the one not annulled, at most one per title by the partial unique index — with the state and, by it, the УИД and QR
 * or the operator's reason and fix. The caller has already checked the trip is the user's to see.
 */
export async function exchangeOfTrip(db: Db, reportId: number): Promise<Map<OutgoingTitle, TitleExchange>> {
  const rows = await db.kysely
    .selectFrom('etrn_documents')
    .select(['id', 'title', 'state', 'uid', 'qr', 'reason', 'fix', 'updated_at'])
    .where('report_id', '=', reportId)
    .where('direction', '=', 'out')
    // A literal, so SQLite reads the live documents through their partial index (etrn_documents_live).
    .where(sql.ref('state'), '<>', sql.lit('annulled'))
    .execute();
  return new Map(
    rows.map((r) => [
      r.title as OutgoingTitle,
      { document_id: r.id, state: r.state as DocumentState, uid: r.uid, qr: r.qr, reason: r.reason, fix: r.fix, updated_at: r.updated_at },
    ]),
  );
}
