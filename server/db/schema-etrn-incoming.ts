/** The received titles of a trip's waybill (migration 023; docs/documents.md «Received titles»). */
import type { Generated } from 'kysely';

export interface EtrnIncomingTable {
  id: Generated<number>;
  company_id: number;
  report_id: number;
  /** 't1' the shipper's, 't3' the consignee's. */
  title: 't1' | 't3';
  file_name: string;
  /** Файл/@ИдФайл, unique per company: the same file again is the stored one. */
  file_id: string;
  /** The file's header: YYYY-MM-DD, hh:mm:ss — what Т2/Т4 cite. */
  file_date: string;
  file_time: string;
  uid: string | null;
  /** The file's detached signature (CMS, base64) when it came with it. */
  signature: string | null;
  /** The file's declared encoding ('windows-1251' or 'utf-8'): `xml` re-encoded in it gives the bytes received. */
  encoding: string;
  xml: string;
  linked_by: 'number' | 'uid' | 'vehicle';
  /** JSON of contract/calls/papers.ts IncomingDifference[]. */
  differences: string;
  received_by: number | null;
  /** Fetched from Диадок (migration 040): its MessageId and EntityId, which the carrier's answer title cites. */
  operator_message_id: string | null;
  operator_entity_id: string | null;
  created_at: string;
}
