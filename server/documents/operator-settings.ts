/**
 * The operator of each company (docs/documents.md «The operator of a company»; contract/calls/operator.ts): the
 * setting the admin saves (migration 050's `company_operator_settings`), and the environment's DIADOC_* as the
 * fallback for the one company DIADOC_COMPANY_ID names while it has no setting saved — a saved setting, files or
 * Диадок, wins over the environment. Read by the «Документы» calls (which adapter, which box) and by the operator job
 * on every pass (which companies it serves, each with its own box and credentials).
 */
import type { Db } from '../db/connect.ts';
import type { DiadocApi, DiadocSettings } from '../config.ts';
import { diadocApiFromEnv } from '../config.ts';
import { BOX_ID_HINT, DIADOC_BOX_ID, type OperatorSettings, type OperatorSettingsBody } from '../../contract/calls/operator.ts';
import { badRequest, conflict } from '../errors.ts';
import { plural, pluralForm } from '../../contract/words.ts';

/** The shared settings; a config without them (tests building one by hand) takes the defaults. */
export const apiOf = (api: DiadocApi | undefined): DiadocApi => api ?? diadocApiFromEnv({});

type Row = { company_id: number; adapter: string; box_id: string | null; token: string | null; refresh_token: string | null; client_id: string | null; client_secret: string | null; updated_at: string };

const settingsOf = (row: Row, api: DiadocApi): DiadocSettings => ({
  url: api.url,
  token: row.token ?? '',
  boxId: row.box_id ?? '',
  companyId: row.company_id,
  pollMs: api.pollMs,
  timeoutMs: api.timeoutMs,
  refresh:
    row.refresh_token && row.client_id && row.client_secret ? { tokenUrl: api.tokenUrl, clientId: row.client_id, clientSecret: row.client_secret, refreshToken: row.refresh_token } : null,
});

const rows = (db: Db) =>
  db.kysely.selectFrom('company_operator_settings').select(['company_id', 'adapter', 'box_id', 'token', 'refresh_token', 'client_id', 'client_secret', 'updated_at']);

/** The Диадок settings a company's titles go through now, or null: the files adapter. */
export async function diadocOf(db: Db, company: number, env: DiadocSettings | null, api: DiadocApi): Promise<DiadocSettings | null> {
  const row = await rows(db).where('company_id', '=', company).executeTakeFirst();
  if (row) return row.adapter === 'diadoc' && row.box_id && row.token ? settingsOf(row, api) : null;
  return env?.companyId === company ? env : null;
}

/** Every company the job serves: the saved Диадок settings, and the environment's company unless it saved one. */
export async function diadocCompanies(db: Db, env: DiadocSettings | null, api: DiadocApi): Promise<DiadocSettings[]> {
  const saved = await rows(db).execute();
  const served = saved.filter((r) => r.adapter === 'diadoc' && r.box_id && r.token).map((r) => settingsOf(r, api));
  if (env && !saved.some((r) => r.company_id === env.companyId)) served.push(env);
  return served.sort((a, b) => a.companyId - b.companyId);
}

/** Titles sent through Диадок whose answer has not come: they are polled in that company's box. */
export async function inFlight(db: Db, company: number): Promise<number> {
  const row = await db.kysely
    .selectFrom('etrn_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', company)
    .where('direction', '=', 'out')
    .where('state', '=', 'sent')
    .where('operator_message_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function readOperator(db: Db, company: number, env: DiadocSettings | null): Promise<OperatorSettings> {
  const row = await rows(db).where('company_id', '=', company).executeTakeFirst();
  const base = { company_id: company, in_flight: await inFlight(db, company) };
  if (row) {
    return {
      ...base,
      adapter: row.adapter === 'diadoc' ? 'diadoc' : 'files',
      source: 'settings',
      box_id: row.box_id,
      token_set: Boolean(row.token),
      refresh_token_set: Boolean(row.refresh_token),
      client_id: row.client_id,
      client_secret_set: Boolean(row.client_secret),
      updated_at: row.updated_at,
    };
  }
  if (env?.companyId === company) {
    return { ...base, adapter: 'diadoc', source: 'environment', box_id: env.boxId, token_set: true, refresh_token_set: Boolean(env.refresh), client_id: env.refresh?.clientId ?? null, client_secret_set: Boolean(env.refresh), updated_at: null };
  }
  return { ...base, adapter: 'files', source: 'default', box_id: null, token_set: false, refresh_token_set: false, client_id: null, client_secret_set: false, updated_at: null };
}

/** A secret of the body over the stored one: absent or empty keeps it, null removes it. */
const merged = (given: string | null | undefined, stored: string | null) => (given === undefined || given === '' ? stored : given);

/**
 * Saves the company's choice. With Диадок: the box (its format) and an access token (given now or kept) are
 * required; the refresh token, the client id and the client secret go together or not at all. Leaving a box —
 * the files adapter, or another box — while titles sent through it wait for their answer is refused (409 naming how
 * many): they are polled in that box only, and would otherwise never get their УИД.
 */
export async function saveOperator(db: Db, company: number, body: OperatorSettingsBody, env: DiadocSettings | null, api: DiadocApi, userId: number, now: string): Promise<OperatorSettings> {
  const stored = await rows(db).where('company_id', '=', company).executeTakeFirst();
  // The environment's credentials are not copied into the database: a company leaving them types its own.
  const box = (body.box_id ?? stored?.box_id ?? '').trim();
  const token = merged(body.token, stored?.token ?? null);
  const refreshToken = merged(body.refresh_token, stored?.refresh_token ?? null);
  const clientId = body.client_id === undefined ? (stored?.client_id ?? null) : body.client_id || null;
  const clientSecret = merged(body.client_secret, stored?.client_secret ?? null);
  if (body.adapter === 'diadoc') {
    if (!box) throw badRequest('Идентификатор ящика: укажите ящик Диадока');
    if (!DIADOC_BOX_ID.test(box)) throw badRequest(`Идентификатор ящика: неверный формат — ${BOX_ID_HINT}`);
    if (!token) throw badRequest('Токен доступа: укажите токен API Диадока');
    const refresh = [refreshToken, clientId, clientSecret];
    if (refresh.some(Boolean) && !refresh.every(Boolean)) {
      const missing = !refreshToken ? 'Токен обновления' : !clientId ? 'Идентификатор клиента' : 'Секрет клиента';
      throw badRequest(`${missing}: для обновления токена нужны токен обновления, идентификатор и секрет клиента вместе`);
    }
  }
  const current = await diadocOf(db, company, env, api);
  const leaving = current !== null && (body.adapter !== 'diadoc' || current.boxId.toLowerCase() !== box.toLowerCase());
  if (leaving) {
    const waiting = await inFlight(db, company);
    if (waiting > 0) {
      throw conflict(
        `Нельзя сменить оператора: ${plural(waiting, ['документ отправлен', 'документа отправлены', 'документов отправлены'])} через ящик Диадока ${current.boxId} и ${pluralForm(waiting, ['ждёт', 'ждут', 'ждут'])} ответа ГИС ЭПД. Дождитесь ответа (принят или отклонён) или аннулируйте ${pluralForm(waiting, ['его', 'их', 'их'])} в «Документах»`,
      );
    }
  }
  const values = { adapter: body.adapter, box_id: box || null, token, refresh_token: refreshToken, client_id: clientId, client_secret: clientSecret, updated_at: now, updated_by: userId };
  await db.kysely
    .insertInto('company_operator_settings')
    .values({ company_id: company, ...values })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
    .execute();
  return readOperator(db, company, env);
}
