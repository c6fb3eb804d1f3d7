/**
 * A received title taken in (docs/documents.md «Received titles»): read and checked against its schema, linked to its
 * trip, compared with the trip's facts and stored with its differences. One path for both ways a Т1/Т3 arrives —
 * uploaded (`POST /etrn/incoming`) and fetched from the operator's box by the operator job (operator-job.ts), which
 * also gives the ids Диадок knows it by.
 */
import type { Db } from '../db/connect.ts';
import type { IncomingTitle } from '../../contract/calls/papers.ts';
import { gatherTrip } from './gather.ts';
import { tripFacts } from '../trips/facts.ts';
import { etrnFacts } from './map.ts';
import { compareIncoming, readIncoming } from '../etrn/incoming.ts';
import { declaredEncoding } from '../etrn/read.ts';
import { linkIncoming, storeIncoming } from './incoming.ts';
import { decodeXml } from './incoming-body.ts';

export interface ReceivedFile {
  bytes: Buffer;
  fileName: string | null;
  uid: string | null;
  signature: string | null;
  /** Where it came from in Диадок (fetched by the job); null when uploaded. */
  operator?: { message_id: string; entity_id: string } | null;
}

/**
 * Throws IncomingRefused (not a title we take, or not valid against its schema), ValidatorUnavailable, or the 409 of
 * `linkIncoming` (no trip, or several). `company` null: a super-admin's upload, looked for in every company.
 */
export async function receiveTitle(
  db: Db,
  company: number | null,
  file: ReceivedFile,
  signer: { name: string; position: string },
  userId: number | null,
  now: string,
): Promise<{ title: IncomingTitle; created: boolean }> {
  const incoming = await readIncoming(file.bytes);
  const facts = { ...incoming, uid: incoming.uid ?? file.uid };
  const link = await linkIncoming(db, company, facts);
  const [base, timeline] = await Promise.all([gatherTrip(db, link.reportId), tripFacts(db.kysely, link.reportId)]);
  const encoding = declaredEncoding(file.bytes);
  return storeIncoming(
    db,
    link,
    {
      facts,
      fileName: file.fileName ?? `${facts.fileId}.xml`,
      encoding,
      xml: decodeXml(file.bytes, encoding),
      uid: facts.uid,
      signature: file.signature,
      differences: compareIncoming(facts, etrnFacts(base, timeline, signer)),
      operator: file.operator ?? null,
    },
    userId,
    now,
  );
}
