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
 * - `POST /V4/PostMessagePatch?operationId=<key>` with a `MessagePatchToPostV2`: the carrier's Т2 and Т4 are not new
 *   messages but answer titles in the message of the title they answer — `RecipientTitles: [RecipientTitleAttachment]`
 *   whose `ParentEntityId` is that title's EntityId (the ЭТрН events page: «у второго титула — первый титул»), Т2 to
 *   the shipper's Т1, Т4 to the consignee's Т3. `operationId` again makes a repeated call answer the first success.
 * - `GET /V8/GetNewEvents?boxId&afterIndexKey&typeNamedId=LogisticsWaybill` — the box's events after the last one
 *   read (a `BoxEventList`: each `BoxEvent` with its `EventId`, `IndexKey`, and a new `Message` or a `Patch`; without
 *   the files' content), and `GET /V4/GetEntityContent?boxId&messageId&entityId` — one title's bytes.
 * - Authorization: `Bearer <access_token>`; on a 401 the token is refreshed once by OpenID Connect's Refresh Token
 *   Flow (`grant_type=refresh_token` at the provider's token endpoint) when the settings give its client and refresh
 *   token, and the call is made once more — a second 401 is reported, never looped.
 */
import type { DiadocRefresh, DiadocSettings } from '../config.ts';
import type { DocumentTitleCode } from '../../contract/documents.ts';
import { encodeCp1251 } from '../etrn/xml.ts';
import type { OperatorAnswer } from './adapter.ts';

export type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<{ status: number; text(): Promise<string>; arrayBuffer?(): Promise<ArrayBuffer> }>;

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
  EntityType?: string;
  EntityId?: string;
  FileName?: string;
  ParentEntityId?: string;
  AttachmentType?: string;
  DocumentInfo?: { CustomData?: { Key?: string; Value?: string }[] };
  OuterDocflow?: { DocflowNamedId?: string; Status?: { Type?: string; FriendlyName?: string; Description?: string; Details?: { Code?: string; Text?: string }[] } };
}

interface DiadocMessage {
  MessageId?: string;
  Entities?: DiadocEntity[];
}

/** One title of another party found in the box's events: where it is, and its file's name. */
export interface BoxTitle extends DiadocIds {
  event_id: string;
  file_name: string;
  /** The sender's signature under it (a `Signature` entity whose parent is the title), fetched with it; null: none. */
  signature_entity_id: string | null;
  /** The УИД ТрН ГИС ЭПД gave the waybill (the title's `mt-id` tag), once it has. */
  uid: string | null;
}

/** The Т1 (`ON_TRNACLGROT`) and Т3 (`ON_TRNACLGRPO`) files of the ЭТрН's name format: the titles we take in. */
const TAKEN_IN = /^ON_TRNACLGR(OT|PO)_/;

export function diadocClient(settings: DiadocSettings, fetchImpl: Fetch) {
  let token = settings.token;
  let refreshToken = settings.refresh?.refreshToken ?? '';
  /** One refresh at a time: the calls that met the same 401 wait for it and retry with its token. */
  let refreshing: Promise<string | null> | null = null;

  async function refreshAccess(refresh: DiadocRefresh): Promise<string | null> {
    const body = new URLSearchParams({ grant_type: 'refresh_token', client_id: refresh.clientId, client_secret: refresh.clientSecret, refresh_token: refreshToken }).toString();
    try {
      const res = await fetchImpl(refresh.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body, signal: AbortSignal.timeout(settings.timeoutMs) });
      if (res.status !== 200) return null;
      const answer = JSON.parse(await res.text()) as { access_token?: string; refresh_token?: string };
      if (!answer.access_token) return null;
      token = answer.access_token;
      // The provider may rotate the refresh token: the next refresh uses the one it gave.
      if (answer.refresh_token) refreshToken = answer.refresh_token;
      return token;
    } catch {
      return null;
    }
  }

  /** The token after a 401 met with `used`: refreshed once (shared by the calls that met it), or null. */
  async function renewed(used: string): Promise<string | null> {
    if (!settings.refresh) return null;
    if (token !== used) return token; // another call refreshed it meanwhile
    refreshing ??= refreshAccess(settings.refresh).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function request(method: 'GET' | 'POST', path: string, query: Record<string, string>, body?: unknown, retried = false, raw = false): Promise<DiadocResult<unknown>> {
    const url = `${settings.url}${path}?${new URLSearchParams(query).toString()}`;
    const used = token;
    const headers: Record<string, string> = { authorization: `Bearer ${used}`, accept: raw ? '*/*' : 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let status: number;
    let text: string;
    let bytes: Buffer | null = null;
    try {
      const res = await fetchImpl(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), signal: AbortSignal.timeout(settings.timeoutMs) });
      status = res.status;
      if (raw && status === 200 && res.arrayBuffer) {
        bytes = Buffer.from(await res.arrayBuffer());
        text = '';
      } else text = await res.text();
    } catch (error) {
      const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return { ok: false, unknown: true, permanent: false, detail: timeout ? `Диадок не ответил за ${Math.round(settings.timeoutMs / 1000)} с` : `Нет связи с Диадоком (${settings.url})` };
    }
    if (status === 401 && !retried) {
      // Not done (the call was not let in): with a fresh token, made once more — and only once.
      const fresh = await renewed(used);
      if (fresh) return request(method, path, query, body, true, raw);
      if (settings.refresh) return { ok: false, unknown: false, permanent: false, detail: 'Диадок не принял токен (401), и обновить его не удалось: проверьте DIADOC_REFRESH_TOKEN, DIADOC_CLIENT_ID и DIADOC_CLIENT_SECRET' };
    }
    if (status === 401 && retried) return { ok: false, unknown: false, permanent: false, detail: 'Диадок не принял и обновлённый токен (401): проверьте доступ приложения к ящику' };
    if (bytes) return { ok: true, value: bytes };
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
    /**
     * The carrier's answer title (Т2 to the shipper's Т1, Т4 to the consignee's Т3) in the message of the title it
     * answers, unsigned like the first (the carrier signs it in Диадок), under its key.
     */
    async postAnswer(file: { title: DocumentTitleCode; file_name: string; xml: string; key: string }, parent: DiadocIds): Promise<DiadocResult<DiadocIds>> {
      const body = {
        BoxId: settings.boxId,
        MessageId: parent.message_id,
        RecipientTitles: [{ ParentEntityId: parent.entity_id, SignedContent: { Content: Buffer.from(encodeCp1251(file.xml)).toString('base64') }, NeedReceipt: false, TitleIndex: file.title === 't4' ? 3 : 1 }],
      };
      const res = await request('POST', '/V4/PostMessagePatch', { operationId: file.key }, body);
      if (!res.ok) return res;
      const patch = res.value as DiadocMessage | null;
      const entity = (patch?.Entities ?? []).find((e) => e.ParentEntityId === parent.entity_id && e.EntityType === 'Attachment' && e.AttachmentType !== 'Signature' && e.AttachmentType !== 'OuterDocflow' && e.EntityId);
      if (!entity?.EntityId) return { ok: false, unknown: true, permanent: false, detail: 'В ответе Диадока нет титула, отправленного в ответ' };
      return { ok: true, value: { message_id: parent.message_id, entity_id: entity.EntityId } };
    },
    /** The box's waybill events after `after` (null: from the start): the Т1/Т3 titles in them, and where to go on. */
    async newTitles(after: string | null): Promise<DiadocResult<{ titles: BoxTitle[]; uids: { message_id: string; uid: string }[]; events: string[]; next: string | null; more: boolean }>> {
      const query: Record<string, string> = { boxId: settings.boxId, typeNamedId: WAYBILL_TYPE.TypeNamedId };
      if (after) query.afterIndexKey = after;
      const res = await request('GET', '/V8/GetNewEvents', query);
      if (!res.ok) return res;
      const list = res.value as { Events?: { EventId?: string; IndexKey?: string; Message?: DiadocMessage; Patch?: DiadocMessage }[]; TotalCount?: number } | null;
      const events = (list?.Events ?? []).filter((e) => e.EventId);
      const titles: BoxTitle[] = [];
      const uids: { message_id: string; uid: string }[] = [];
      for (const event of events) {
        const message = event.Message ?? event.Patch;
        for (const e of message?.Entities ?? []) {
          const uid = mtIdOf(e);
          // ГИС ЭПД's УИД comes on the waybill's title, often in a later event (a Patch) than the title itself.
          if (uid && message?.MessageId) uids.push({ message_id: message.MessageId, uid });
          if (message?.MessageId && e.EntityId && e.EntityType === 'Attachment' && e.FileName && TAKEN_IN.test(e.FileName)) {
            const signature = message.Entities?.find((x) => x.EntityType === 'Signature' && x.ParentEntityId === e.EntityId && x.EntityId)?.EntityId ?? null;
            titles.push({ event_id: event.EventId as string, message_id: message.MessageId, entity_id: e.EntityId, file_name: e.FileName, signature_entity_id: signature, uid });
          }
        }
      }
      const next = events.at(-1)?.IndexKey ?? after;
      return { ok: true, value: { titles, uids, events: events.map((e) => e.EventId as string), next, more: (list?.TotalCount ?? 0) > events.length } };
    },
    /** A title's file as Диадок holds it (its bytes). */
    async content(ids: DiadocIds): Promise<DiadocResult<Buffer>> {
      const res = await request('GET', '/V4/GetEntityContent', { boxId: settings.boxId, messageId: ids.message_id, entityId: ids.entity_id }, undefined, false, true);
      if (!res.ok) return res;
      return Buffer.isBuffer(res.value) ? { ok: true, value: res.value } : { ok: false, unknown: false, permanent: false, detail: 'Диадок не отдал содержимое титула' };
    },
  };
}

export type DiadocClient = ReturnType<typeof diadocClient>;

/** The УИД ТрН on a title (its `mt-id` tag, the «Теги и статусы ЭТрН» page), or null. */
const mtIdOf = (e: DiadocEntity | undefined) => e?.DocumentInfo?.CustomData?.find((d) => d.Key === 'mt-id')?.Value?.trim() || null;

/** A message read into our answer: ГИС ЭПД's last status of the title, the УИД from its `mt-id` tag. */
export function answerOf(message: DiadocMessage | null, entityId: string, key: string): OperatorAnswer | null {
  const entities = message?.Entities ?? [];
  const title = entities.find((e) => e.EntityId === entityId);
  // An answer title (Т2, Т4) shares the waybill's УИД, tagged on the message's first title.
  const uid = mtIdOf(title) ?? entities.map(mtIdOf).find((v) => v !== null) ?? null;
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
