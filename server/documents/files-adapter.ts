/**
 * The files adapter (docs/documents.md «The files adapter»): works with any operator. Sending packs the day's
 * claimed titles into one zip (fflate), each as `<ИдФайл>.xml` in windows-1251, for the user to upload in the
 * operator's portal. Answers are the operator's outcomes brought back as JSON files in our simple format (below),
 * modelled on what operators report per title: the file it answers, accepted with the waybill's УИД ТрН (Диадок's
 * `mt-id`, assigned by ГИС ЭПД once Т1 is registered) and the QR's payload, or rejected with the error's codes and
 * texts (Диадок's `OuterDocflow` status of type Error with its `Details`).
 *
 *     {"answers": [
 *       {"file": "ON_TRNACLGROT_…", "status": "accepted", "uid": "d1e41efa-…", "qr": "https://…", "signature": "MIIG…"},
 *       {"file": "ON_TRNACLPPRIN_…", "status": "rejected", "reason": "…", "details": [{"code": "…", "text": "…"}], "fix": "…"}
 *     ]}
 *
 * `signature` (optional, accepted only): the shipper's signature of our Т1 draft (CMS, base64), as the operator's
 * portal gives it beside the signed file: our Т2 cites it.
 *
 * A file may also hold one answer object or a bare array of them; `status` also reads `Success`/`Error` (the
 * operator's status types) and `принят`/`отклонён`.
 */
import { zipSync, type Zippable } from 'fflate';
import { z } from 'zod';
import { encodeCp1251 } from '../etrn/xml.ts';
import type { AnswerBatch, AnswerFile, OperatorAdapter, OperatorAnswer, OutgoingFile, SendReceipt } from './adapter.ts';

const ACCEPTED = ['accepted', 'success', 'принят'];
const REJECTED = ['rejected', 'error', 'отклонён', 'отклонен'];

const answerEntry = z.object({
  file: z.string().trim().min(1).max(300).optional(),
  key: z.string().trim().min(1).max(100).optional(),
  status: z.string().trim().refine((s) => [...ACCEPTED, ...REJECTED].includes(s.toLowerCase()), 'ожидается accepted или rejected'),
  uid: z.string().trim().min(1).max(100).optional(),
  qr: z.string().trim().min(1).max(2000).optional(),
  signature: z.string().trim().min(1).max(100_000).optional(),
  reason: z.string().trim().max(2000).optional(),
  details: z.array(z.object({ code: z.string().max(100).optional(), text: z.string().max(2000).optional() })).max(50).optional(),
  fix: z.string().trim().max(2000).optional(),
});
const answerFile = z.union([z.object({ answers: z.array(answerEntry).min(1).max(1000) }), z.array(answerEntry).min(1).max(1000), answerEntry]);

function toAnswer(entry: z.output<typeof answerEntry>): OperatorAnswer | string {
  const accepted = ACCEPTED.includes(entry.status.toLowerCase());
  if (!entry.file && !entry.key) return 'не указан файл (file), на который это ответ';
  if (accepted && !entry.uid) return 'в ответе «принят» нет УИД ТрН (uid)';
  const details = (entry.details ?? []).map((d) => [d.code, d.text].filter(Boolean).join(': ')).filter(Boolean);
  const reason = [entry.reason, ...details].filter(Boolean).join('; ') || null;
  if (!accepted && !reason) return 'в ответе «отклонён» нет причины (reason или details)';
  return {
    file: entry.file ?? null,
    key: entry.key ?? null,
    status: accepted ? 'accepted' : 'rejected',
    uid: accepted ? (entry.uid ?? null) : null,
    qr: accepted ? (entry.qr ?? entry.uid ?? null) : null,
    signature: accepted ? (entry.signature ?? null) : null,
    reason: accepted ? null : reason,
    fix: accepted ? null : (entry.fix ?? null),
  };
}

/** One uploaded file's answers, or why it cannot be read. */
export function readAnswerFile(file: AnswerFile): { answers: OperatorAnswer[] } | { detail: string } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(file.bytes).replace(/^\uFEFF/, ''));
  } catch {
    return { detail: 'формат не распознан: ожидается JSON-файл ответа оператора (docs/documents.md)' };
  }
  const parsed = answerFile.safeParse(json);
  if (!parsed.success) return { detail: `файл ответа не по формату: ${parsed.error.issues[0]?.path.join('.') || 'ответ'} — ${parsed.error.issues[0]?.message ?? ''}` };
  const entries = Array.isArray(parsed.data) ? parsed.data : 'answers' in parsed.data ? parsed.data.answers : [parsed.data];
  const answers: OperatorAnswer[] = [];
  for (const entry of entries) {
    const answer = toAnswer(entry);
    if (typeof answer === 'string') return { detail: answer };
    answers.push(answer);
  }
  return { answers };
}

export const filesAdapter: OperatorAdapter = {
  name: 'files',
  async send(day: string, files: OutgoingFile[]): Promise<SendReceipt> {
    const mtime = new Date();
    const entries: Zippable = Object.fromEntries(files.map((f) => [`${f.file_name}.xml`, [new Uint8Array(encodeCp1251(f.xml)), { mtime }]]));
    return { kind: 'file', name: `ЭТрН ${day.split('-').reverse().join('.')}.zip`, bytes: zipSync(entries, { level: 6 }) };
  },
  async answers(files: AnswerFile[]): Promise<AnswerBatch> {
    const batch: AnswerBatch = { answers: [], invalid: [] };
    for (const file of files) {
      const read = readAnswerFile(file);
      if ('detail' in read) batch.invalid.push({ source: file.name, detail: read.detail });
      else batch.answers.push(...read.answers.map((answer) => ({ source: file.name, answer })));
    }
    return batch;
  },
};
