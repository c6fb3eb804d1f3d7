/**
 * The other parties' titles a carrier receives (docs/documents.md «Received titles»): linked to their trip, stored
 * per company with their differences, and read back for the trip's panel and for the chain — the Т2 cites the
 * received Т1 (ИдИнфГО), the Т4 the received Т3 (ИдИнфГП), both with the waybill's УИД.
 */
import type { Db } from '../db/connect.ts';
import type { Selectable } from 'kysely';
import type { IncomingDifference, IncomingTitle } from '../../contract/calls/papers.ts';
import type { EtrnIncomingTable } from '../db/schema-etrn-incoming.ts';
import type { FileRef } from '../etrn/facts.ts';
import { plateKey, sameText, type IncomingFacts } from '../etrn/incoming.ts';
import { formatDate } from '../etrn/titles.ts';
import { conflict } from '../errors.ts';

export interface Link {
  reportId: number;
  companyId: number;
  by: IncomingTitle['linked_by'];
}

type Row = Selectable<EtrnIncomingTable>;

/**
 * The trips whose waybill has this УИД: a title received before carries it, or our own title the operator accepted
 * with it (our Т1 draft signed by the shipper — the consignee's Т3 then comes with that УИД and nothing else to link
 * by). `company` null: a super-admin's upload, looked for in every company.
 */
async function byUid(db: Db, company: number | null, uid: string): Promise<Link[]> {
  let received = db.kysely.selectFrom('etrn_incoming').select(['report_id', 'company_id']).distinct().where('uid', '=', uid);
  let ours = db.kysely.selectFrom('etrn_documents').select(['report_id', 'company_id']).distinct().where('uid', '=', uid).where('direction', '=', 'out').where('state', '<>', 'annulled');
  if (company !== null) {
    received = received.where('company_id', '=', company);
    ours = ours.where('company_id', '=', company);
  }
  const trips = new Map<number, Link>();
  for (const r of [...(await received.execute()), ...(await ours.execute())]) trips.set(r.report_id, { reportId: r.report_id, companyId: r.company_id, by: 'uid' });
  return [...trips.values()];
}

/** Our waybill numbers are the task's and the trip's («14-5», server/papers/map.ts waybillNumber). */
async function byNumber(db: Db, company: number | null, number: string): Promise<Link[]> {
  const m = /^\s*(\d{1,15})-(\d{1,15})\s*$/.exec(number);
  if (!m) return [];
  let q = db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['r.id', 't.company_id'])
    .where('r.id', '=', Number(m[2]))
    .where('t.id', '=', Number(m[1]));
  if (company !== null) q = q.where('t.company_id', '=', company);
  return (await q.execute()).map((r) => ({ reportId: r.id, companyId: r.company_id, by: 'number' as const }));
}

/** The trips of the day in the vehicle (the driver's fleet vehicle, as the papers read it); narrowed by the driver. */
async function byVehicle(db: Db, company: number | null, plate: string, day: string, driver: string | null): Promise<Link[]> {
  let q = db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'r.driver_id')
    .innerJoin('vehicles as v', 'v.id', 'u.vehicle_id')
    .select(['r.id', 't.company_id', 'u.name'])
    .where('t.date', '=', day)
    .where('v.plate_key', '=', plateKey(plate))
    .orderBy('r.id');
  if (company !== null) q = q.where('t.company_id', '=', company);
  const rows = await q.execute();
  const theDriver = driver ? rows.filter((r) => sameText(r.name, driver)) : [];
  return (theDriver.length > 0 ? theDriver : rows).map((r) => ({ reportId: r.id, companyId: r.company_id, by: 'vehicle' as const }));
}

const NOTHING = 'Файл не сохранён и ни к одному рейсу не привязан.';

/**
 * The one trip the file is about: by its УИД (a title received before carries it), by our waybill number, else by
 * the vehicle and the day (and the driver). None, or more than one: 409 saying what was looked for — nothing is
 * linked or stored then (a file for no trip of ours is not kept; docs/documents.md).
 */
export async function linkIncoming(db: Db, company: number | null, facts: IncomingFacts): Promise<Link> {
  const tried: string[] = [];
  const several = (links: Link[], how: string) =>
    conflict(`Файлу подходят несколько рейсов (${how}): ${links.map((l) => `№ ${l.reportId}`).join(', ')}. ${NOTHING}`);
  if (facts.uid) {
    const links = await byUid(db, company, facts.uid);
    if (links.length === 1) return links[0] as Link;
    if (links.length > 1) throw several(links, `УИД ${facts.uid}`);
    tried.push(`УИД ТрН ${facts.uid} не встречался ни в полученных титулах, ни в принятых оператором наших`);
  }
  if (facts.number) {
    const links = await byNumber(db, company, facts.number);
    if (links.length === 1) return links[0] as Link;
    tried.push(`накладная № ${facts.number} — не наша`);
  }
  if (facts.plate && facts.day) {
    const links = await byVehicle(db, company, facts.plate, facts.day, facts.driver);
    if (links.length === 1) return links[0] as Link;
    const how = `машина ${facts.plate}, ${formatDate(facts.day)}`;
    if (links.length > 1) throw several(links, facts.driver ? `${how}, водитель ${facts.driver}` : how);
    tried.push(`машина ${facts.plate} за ${formatDate(facts.day)} — ни в одном рейсе`);
  } else if (facts.title === 't3' && !facts.uid) {
    tried.push('в Т3 нет УИД ТрН');
  }
  throw conflict(`Рейс для этого файла не найден: ${tried.join('; ') || 'в файле нет ни номера накладной, ни машины с датой'}. ${NOTHING}`);
}

export interface Received {
  facts: IncomingFacts;
  fileName: string;
  encoding: string;
  xml: string;
  uid: string | null;
  signature: string | null;
  differences: IncomingDifference[];
  /** Fetched from Диадок: its MessageId and EntityId (the carrier's answer title is posted against them). */
  operator?: { message_id: string; entity_id: string } | null;
}

const toWire = (row: Row, taskId: number): IncomingTitle => ({
  id: row.id,
  title: row.title,
  file_name: row.file_name,
  file_id: row.file_id,
  file_date: row.file_date,
  file_time: row.file_time,
  uid: row.uid,
  signed: row.signature !== null,
  report_id: row.report_id,
  waybill_number: `${taskId}-${row.report_id}`,
  linked_by: row.linked_by,
  differences: JSON.parse(row.differences) as IncomingDifference[],
  created_at: row.created_at,
});

async function taskOf(db: Db, reportId: number): Promise<number> {
  const row = await db.kysely.selectFrom('reports as r').innerJoin('task_drivers as td', 'td.id', 'r.association_id').select('td.task_id').where('r.id', '=', reportId).executeTakeFirstOrThrow();
  return row.task_id;
}

async function existing(db: Db, company: number, fileId: string): Promise<IncomingTitle | null> {
  const row = await db.kysely.selectFrom('etrn_incoming').selectAll().where('company_id', '=', company).where('file_id', '=', fileId).executeTakeFirst();
  return row ? toWire(row, await taskOf(db, row.report_id)) : null;
}

/** The received title stored against its trip; `created` false when the company had this file (its ИдФайл) already. */
export async function storeIncoming(db: Db, link: Link, received: Received, userId: number | null, now: string): Promise<{ title: IncomingTitle; created: boolean }> {
  const before = await existing(db, link.companyId, received.facts.fileId);
  if (before) {
    // Uploaded first, then found in the operator's box: it keeps the ids the carrier's answer is posted against.
    if (received.operator) {
      await db.kysely
        .updateTable('etrn_incoming')
        .set({ operator_message_id: received.operator.message_id, operator_entity_id: received.operator.entity_id })
        .where('id', '=', before.id)
        .where('operator_message_id', 'is', null)
        .execute();
    }
    return { title: before, created: false };
  }
  try {
    await db.kysely
      .insertInto('etrn_incoming')
      .values({
        company_id: link.companyId,
        report_id: link.reportId,
        title: received.facts.title,
        file_name: received.fileName,
        file_id: received.facts.fileId,
        file_date: received.facts.date,
        file_time: received.facts.time,
        uid: received.uid,
        signature: received.signature,
        encoding: received.encoding,
        xml: received.xml,
        linked_by: link.by,
        differences: JSON.stringify(received.differences),
        received_by: userId,
        created_at: now,
        operator_message_id: received.operator?.message_id ?? null,
        operator_entity_id: received.operator?.entity_id ?? null,
      })
      .execute();
  } catch (error) {
    const raced = await existing(db, link.companyId, received.facts.fileId);
    if (raced) return { title: raced, created: false };
    throw error;
  }
  return { title: (await existing(db, link.companyId, received.facts.fileId)) as IncomingTitle, created: true };
}

/** The titles received for a trip, newest first. */
export async function receivedFor(db: Db, reportId: number, taskId: number): Promise<IncomingTitle[]> {
  const rows = await db.kysely.selectFrom('etrn_incoming').selectAll().where('report_id', '=', reportId).orderBy('id', 'desc').execute();
  return rows.map((r) => toWire(r, taskId));
}

/** One received title's stored row (the caller checks the company). */
export async function incomingRow(db: Db, id: number): Promise<Row | null> {
  return (await db.kysely.selectFrom('etrn_incoming').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * What the carrier's titles cite from the received ones: the newest Т1 for Т2 (ИдИнфГО), the newest Т3 for Т4
 * (ИдИнфГП), the УИД from whichever carries one (Т3 first: it is the operator's, echoed by the consignee). A title
 * received without its signature is cited with an empty one, which missingFacts names.
 */
export async function chainFor(db: Db, reportId: number): Promise<{ t1File: FileRef | null; t3File: FileRef | null; uid: string | null }> {
  const [rows, own] = await Promise.all([
    db.kysely.selectFrom('etrn_incoming').select(['title', 'file_id', 'file_date', 'file_time', 'signature', 'uid']).where('report_id', '=', reportId).orderBy('id', 'desc').execute(),
    ownAcceptedT1(db, reportId),
  ]);
  const ref = (title: 't1' | 't3'): FileRef | null => {
    const row = rows.find((r) => r.title === title);
    return row ? { fileId: row.file_id, date: row.file_date, time: row.file_time, signature: row.signature ?? '' } : null;
  };
  const uid = rows.find((r) => r.title === 't3' && r.uid)?.uid ?? own?.uid ?? rows.find((r) => r.uid)?.uid ?? null;
  return { t1File: own?.file ?? ref('t1'), t3File: ref('t3'), uid };
}

/**
 * Our own Т1 draft once the shipper signed it and the operator accepted it (issue 33; «Документы»: state accepted
 * with its УИД): the file as frozen when made ready — its `ИдФайл`, the header's date and time — and the signature
 * the operator's answer gave. It is the Т1 of the chain before any received one: the operator registered it.
 */
async function ownAcceptedT1(db: Db, reportId: number): Promise<{ file: FileRef; uid: string } | null> {
  const doc = await db.kysely
    .selectFrom('etrn_documents')
    .select(['file_name', 'xml', 'uid', 'signature'])
    .where('report_id', '=', reportId)
    .where('title', '=', 't1')
    .where('direction', '=', 'out')
    .where('state', '=', 'accepted')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!doc?.file_name || !doc.xml || !doc.uid) return null;
  const date = /ДатИнфГО="(\d{2})\.(\d{2})\.(\d{4})"/.exec(doc.xml);
  const time = /ВрИнфГО="([^"]+)"/.exec(doc.xml);
  if (!date || !time) return null;
  return { file: { fileId: doc.file_name, date: `${date[3]}-${date[2]}-${date[1]}`, time: time[1] ?? '', signature: doc.signature ?? '' }, uid: doc.uid };
}
