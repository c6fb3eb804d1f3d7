/**
 * The operator of a company's titles as a company setting (issue 33 §3; docs/documents.md «The operator of a
 * company»): the admin chooses the files adapter (any operator: the day's zip and the answers uploaded) or
 * Контур.Диадок's API with the company's box and its credentials. The secrets — the access token, the refresh token,
 * the client secret — are write-only: the answer says whether each is set, never what it is. Admins of the company
 * (and the super-admin) only: the credentials open the company's box.
 */
import { z } from 'zod';
import { answer, area, GET, PUT } from '../call.ts';
import { ADMINS } from '../roles.ts';

export const OPERATOR_ADAPTERS = ['files', 'diadoc'] as const;
export type OperatorAdapterName = (typeof OPERATOR_ADAPTERS)[number];
export const OPERATOR_ADAPTER_LABELS: Record<OperatorAdapterName, string> = {
  files: 'Файлы (любой оператор)',
  diadoc: 'Контур.Диадок по API',
};

/**
 * A Диадок box id as its API gives it (developer.kontur.ru/doc/diadoc-api/proto/Box): `BoxIdGuid`, a GUID
 * («09ae254c-5cd0-4082-84de-7ccb46d86f82», the one its methods take as `boxId`), or the older `BoxId`, the 32 hex
 * digits with `@diadoc.ru` («09ae254c5cd0408284de7ccb46d86f82@diadoc.ru»).
 */
export const DIADOC_BOX_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}@diadoc\.ru|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@diadoc\.ru)$/i;
export const BOX_ID_HINT = 'GUID ящика из Диадока, например 09ae254c-5cd0-4082-84de-7ccb46d86f82';

/**
 * A secret in the body: absent or empty keeps the stored one, a text replaces it, null removes it. Never answered.
 */
const secret = (label: string, max: number) =>
  z
    .string({ message: `${label}: ожидается строка` })
    .trim()
    .max(max, `${label}: не длиннее ${max} символов`)
    .refine((v) => !/\s/.test(v), `${label}: без пробелов и переносов строк`)
    .nullable()
    .optional();

export const operatorSettingsSchema = z
  .object({
    adapter: z.enum(OPERATOR_ADAPTERS, { message: 'Оператор: ожидается files или diadoc' }),
    /** The box (Диадок): absent keeps the stored one, empty removes it (allowed with the files adapter only). */
    box_id: z.string({ message: 'Идентификатор ящика: ожидается строка' }).trim().max(100, 'Идентификатор ящика: не длиннее 100 символов').optional(),
    token: secret('Токен доступа', 8192),
    refresh_token: secret('Токен обновления', 8192),
    /** Not a secret: the integrator's client id, answered. */
    client_id: z.string({ message: 'Идентификатор клиента: ожидается строка' }).trim().max(200, 'Идентификатор клиента: не длиннее 200 символов').nullable().optional(),
    client_secret: secret('Секрет клиента', 1024),
  })
  .strict();
export type OperatorSettingsBody = z.infer<typeof operatorSettingsSchema>;

export interface OperatorSettings {
  company_id: number;
  /** What the company's titles go through now. */
  adapter: OperatorAdapterName;
  /**
   * Where that comes from: `settings` (saved here), `environment` (DIADOC_* naming this company, no setting saved),
   * `default` (files: nothing saved, the environment names another company or none).
   */
  source: 'settings' | 'environment' | 'default';
  box_id: string | null;
  /** Whether each secret is set (saved, or the environment's when that is the source): never its value. */
  token_set: boolean;
  refresh_token_set: boolean;
  client_id: string | null;
  client_secret_set: boolean;
  /** Titles sent through Диадок still without ГИС ЭПД's answer: while any, the box cannot be left (409). */
  in_flight: number;
  updated_at: string | null;
}

export const operatorSettingsCalls = area(
  GET('/companies/:id/operator', { roles: ADMINS, answer: answer<OperatorSettings>() }),
  /** Saved as a whole but the secrets (absent: kept); 409 when leaving a box while titles sent through it wait. */
  PUT('/companies/:id/operator', {
    roles: ADMINS,
    body: operatorSettingsSchema,
    answer: answer<OperatorSettings>(),
    invalidates: ['companies', 'reports'],
    audience: ['company-staff:param.id'],
  }),
);
