/**
 * Контур.Диадок's HTTP API, the three calls the operator job needs (docs/documents.md «The Диадок API adapter»), as
 * its public documentation describes them (developer.kontur.ru/doc/diadoc-api — the pages are cited in the docs);
 * never run against the real service here (no network): the tests play recorded examples shaped by those pages.
 *
 * - `POST /V3/PostMessage?operationId=<key>` with a `MessageToPost` (JSON): our title as a `DocumentAttachment`
 *   (`TypeNamedId` LogisticsWaybill, version kl_trn_mt_05_01), its windows-1251 bytes in `SignedContent.Content`
 *   without a signature and `DelaySend: true` — «отложенное подписание»: the document waits in the box's outgoing
 *   ones until the carrier signs it with his КЭП in Диадок; we never hold keys. `operationId` is Диадок's own
 *   idempotency: a repeated call with the same id answers the first success. `CustomDocumentId` carries the same
 *   key so the document can be found by it.
 * - `GET /GetDocumentsByCustomId?boxId&customDocumentId` — asked before any second attempt: an earlier attempt
 *   whose answer was lost (a timeout, a crash) may have created the document.
 * - `GET /V3/GetMessage?boxId&messageId&entityId` — the message with its entities: the title's `DocumentInfo.
 *   CustomData` tag `mt-id` is the УИД ТрН ГИС ЭПД assigned; an `OuterDocflow` entity under it carries the status of
 *   its processing in ГИС ЭПД (`Status.Type` Success / Error, the errors in `Status.Details`).
 */
import type { DiadocSettings } from '../config.ts';
import type { DocumentTitleCode } from '../../contract/documents.ts';
import { encodeCp1251 } from '../etrn/xml.ts';
import type { OperatorAnswer } from './adapter.ts';

export type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<{ status: number; text(): Promise<string> }>;

/** Where a document is in Диадок. */
export interface DiadocIds {
  message_id: string;
  entity_id: string;
}

/** What a call gave: a result, or an error told apart by whether the operator may have done it anyway. */
export type DiadocResult<T> = { ok: true; value: T } | { ok: false; unknown: boolean; permanent: boolean; detail: string };

/** The title's Диадок type, function and version (the ЭТрН pages: LogisticsWaybill, kl_trn_mt_05_01). */
export const WAYBILL_TYPE = { TypeNamedId: 'LogisticsWaybill', Function: 'reception', Version: 'kl_trn_mt_05_01' } as const;

interface DiadocEntity {
  EntityId?: string;
  ParentEntityId?: string;
  AttachmentType?: string;
  DocumentInfo?: { CustomData?: { Key?: string; Value?: string }[] };
  OuterDocflow?: { DocflowNamedId?: string; Status?: { Type?: string; FriendlyName?: string; Description?: string; Details?: { Code?: string; Text?: string }[] } };
}

interface DiadocMessage {
  MessageId?: string;
  Entities?: DiadocEntity[];
}

export function diadocClient(settings: DiadocSettings, fetchImpl: Fetch) {
  async function request(method: 'GET' | 'POST', path: string, query: Record<string, string>, body?: unknown): Promise<DiadocResult<unknown>> {
    const url = `${settings.url}${path}?${new URLSearchParams(query).toString()}`;
    const headers: Record<string, string> = { authorization: `Bearer ${settings.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let status: number;
    let text: string;
    try {
      const res = await fetchImpl(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), signal: AbortSignal.timeout(settings.timeoutMs) });
      status = res.status;
      text = await res.text();
    } catch (error) {
      const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return { ok: false, unknown: true, permanent: false, detail: timeout ? `Диадок не ответил за ${Math.round(settings.timeoutMs / 1000)} с` : `Нет связи с Диадоком (${settings.url})` };
    }
    const said = text.trim().slice(0, 500);
    if (status === 200) {
      try {
        return { ok: true, value: text.trim() === '' ? null : (JSON.parse(text) as unknown) };
      } catch {
        return { ok: false, unknown: true, permanent: false, detail: 'Диадок ответил не JSON' };
      }
    }
    // 204: «операция ещё не завершена» (PostMessage): done or not, it is not known yet — asked again later.
    if (status === 204) return { ok: false, unknown: true, permanent: false, detail: 'Диадок ещё выполняет операцию' };
    if (status === 401) return { ok: false, unknown: false, permanent: false, detail: 'Диадок не принял токен (401): обновите DIADOC_TOKEN' };
    if (status === 402) return { ok: false, unknown: false, permanent: false, detail: 'У ящика закончилась подписка на API Диадока (402)' };
    if (status === 403) return { ok: false, unknown: false, permanent: false, detail: 'Нет доступа к ящику Диадока с этим токеном (403)' };
    if (status === 409) return { ok: false, unknown: true, permanent: false, detail: `Диадок считает сообщение дубликатом (409)${said ? `: ${said}` : ''}` };
    if (status === 429 || status >= 500) return { ok: false, unknown: true, permanent: false, detail: `Диадок временно не может ответить (${status})` };
    // 400 and the rest: the request itself refused — sending it again would not help.
    return { ok: false, unknown: false, permanent: true, detail: `Диадок отказал (${status})${said ? `: ${said}` : ''}` };
  }

  return {
    /** Sends a title to the box's outgoing documents, unsigned, under its key. */
    async post(file: { title: DocumentTitleCode; file_name: string; xml: string; key: string }): Promise<DiadocResult<DiadocIds>> {
      const body = {
        FromBoxId: settings.boxId,
        DelaySend: true,
        DocumentAttachments: [
          {
            SignedContent: { Content: Buffer.from(encodeCp1251(file.xml)).toString('base64') },
            ...WAYBILL_TYPE,
            CustomDocumentId: file.key,
            Comment: file.file_name,
          },
        ],
      };
      const res = await request('POST', '/V3/PostMessage', { operationId: file.key }, body);
      if (!res.ok) return res;
      const message = res.value as DiadocMessage | null;
      const entity = message?.Entities?.find((e) => e.AttachmentType === WAYBILL_TYPE.TypeNamedId) ?? message?.Entities?.[0];
      if (!message?.MessageId || !entity?.EntityId) return { ok: false, unknown: true, permanent: false, detail: 'В ответе Диадока нет MessageId документа' };
      return { ok: true, value: { message_id: message.MessageId, entity_id: entity.EntityId } };
    },
    /** The document sent under this key, if an earlier attempt created it; null when Диадок has none. */
    async findByKey(key: string): Promise<DiadocResult<DiadocIds | null>> {
      const res = await request('GET', '/GetDocumentsByCustomId', { boxId: settings.boxId, customDocumentId: key });
      if (!res.ok) return res;
      const list = res.value as { Documents?: { MessageId?: string; EntityId?: string }[] } | null;
      const doc = list?.Documents?.find((d) => d.MessageId && d.EntityId);
      return { ok: true, value: doc ? { message_id: doc.MessageId as string, entity_id: doc.EntityId as string } : null };
    },
    /** The operator's answer about a sent document, or null while ГИС ЭПД has not finished with it. */
    async answer(ids: DiadocIds, key: string): Promise<DiadocResult<OperatorAnswer | null>> {
      const res = await request('GET', '/V3/GetMessage', { boxId: settings.boxId, messageId: ids.message_id, entityId: ids.entity_id });
      if (!res.ok) return res;
      return { ok: true, value: answerOf(res.value as DiadocMessage | null, ids.entity_id, key) };
    },
  };
}

export type DiadocClient = ReturnType<typeof diadocClient>;

/** A message read into our answer: ГИС ЭПД's last status of the title, the УИД from its `mt-id` tag. */
export function answerOf(message: DiadocMessage | null, entityId: string, key: string): OperatorAnswer | null {
  const entities = message?.Entities ?? [];
  const title = entities.find((e) => e.EntityId === entityId);
  const uid = title?.DocumentInfo?.CustomData?.find((d) => d.Key === 'mt-id')?.Value?.trim() || null;
  const statuses = entities.filter((e) => e.ParentEntityId === entityId && e.OuterDocflow?.Status);
  const status = statuses.at(-1)?.OuterDocflow?.Status ?? title?.OuterDocflow?.Status;
  const base = { file: null, key, uid: null, qr: null, signature: null, reason: null, fix: null };
  if (status?.Type === 'Error') {
    const details = (status.Details ?? []).map((d) => [d.Code, d.Text].filter(Boolean).join(': ')).filter(Boolean);
    const reason = [status.FriendlyName, status.Description, ...details].filter(Boolean).join('; ') || 'ГИС ЭПД вернула ошибку без описания';
    return { ...base, status: 'rejected', reason, fix: 'Исправьте указанное в карточках рейса и отметьте документ «Готов к подписи» заново' };
  }
  // Accepted once ГИС ЭПД has registered it and the УИД is there; the QR's payload is the УИД (the API's QR image is
  // not fetched: the driver's card draws its own from it).
  if (status?.Type === 'Success' && uid) return { ...base, status: 'accepted', uid, qr: uid };
  return null;
}
