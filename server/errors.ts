/**
 * Every error the API answers is `{ "detail": "..." }`. Client mistakes get a 4xx naming the problem;
 * only our own faults become 500, and those never carry a stack trace.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError, z, type ZodType } from 'zod';
import { DatabaseBusyError } from './db/sqlite-driver.ts';

// Validation messages reach the user through `detail`, so zod speaks Russian on the server.
z.config(z.locales.ru());

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Требуется вход в систему') => new HttpError(401, detail);
export const forbidden = (detail = 'Недостаточно прав') => new HttpError(403, detail);
export const notFound = (detail = 'Не найдено') => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const tooManyRequests = (detail = 'Слишком много запросов, попробуйте позже') => new HttpError(429, detail);

const TYPE_NAMES: Record<string, string> = {
  string: 'строка',
  number: 'число',
  int: 'целое число',
  boolean: 'true или false',
  object: 'объект',
  array: 'массив',
};

/**
 * A message that names its field itself, by the Russian label a person reads («ИНН: неверная контрольная цифра»,
 * «Госномер прицепа: …»): up to four words, the first capitalised, then a colon. zod's own Russian messages
 * («Неверный вариант: …», «Слишком большое значение: …») name no field.
 */
const LABELLED = /^([А-ЯЁ][А-ЯЁа-яё]*(?: [А-ЯЁа-яё]+){0,3}): /;
const ZOD_OWN = /^(Неверн|Слишком|Нераспознанн)/;

/**
 * Formats the first zod issue as "field: message", so the client sees which field is wrong; a message that already
 * starts with its field's Russian label is answered as it is.
 */
export function zodDetail(error: ZodError, input?: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'Некорректные данные';
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
    return `${prefix}${issue.keys[0] ?? ''}: неизвестное поле`;
  }
  const field = issue.path.join('.');
  if (!field && issue.code === 'invalid_type' && issue.expected === 'object') return 'Тело запроса должно быть JSON-объектом';
  let message = issue.message;
  // The field's Russian label, when the schema's message starts with it: then it names the field instead of the path.
  const label = ZOD_OWN.test(message) ? undefined : LABELLED.exec(message)?.[1];
  const top = issue.path[0];
  const absent =
    issue.path.length === 1 && typeof input === 'object' && input !== null && (input as Record<PropertyKey, unknown>)[top as PropertyKey] === undefined;
  const missing = absent || ('input' in issue && issue.input === undefined);
  if (issue.code === 'invalid_type' && label) {
    // The schema's own words say what it expects; a missing field is said so under its label.
    if (missing) message = `${label}: обязательное поле`;
  } else if (absent && issue.code === 'invalid_type') {
    // A coerced field (company_id) sees NaN, not undefined, when it is missing.
    message = 'обязательное поле';
  } else if (issue.code === 'invalid_type') {
    // `input` is present because parse() asks zod to report it; without it we cannot tell "missing" apart.
    message = 'input' in issue && issue.input === undefined ? 'обязательное поле' : `ожидается ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  }
  if (label) return message;
  return field ? `${field}: ${message}` : message;
}

/**
 * Validates input against a schema; a mismatch becomes a 400 naming the field. No body at all (undefined) is read
 * as `{}`; a JSON `null`, like an array or a string, is not an object and is refused.
 */
export function parse<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  const body = input === undefined ? {} : input;
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw badRequest(zodDetail(result.error, body));
  return result.data;
}

/** The largest id a row can have: ids are PostgreSQL `integer` columns; a larger one names no object. */
export const MAX_ID = 2_147_483_647;

/** Parses a positive integer path parameter, or answers 400 naming it. */
export function idParam(params: unknown, name = 'id'): number {
  const raw = (params as Record<string, string | undefined>)[name];
  // Digits only, no sign, spaces, exponent, hex or leading zero: '+1', '01', '1e0' name no object.
  const n = raw !== undefined && /^[1-9][0-9]*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n > MAX_ID) throw badRequest(`${name}: ожидается положительное целое число`);
  return n;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ detail: error.detail });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({ detail: zodDetail(error) });
    }
    if (error instanceof DatabaseBusyError) {
      // Another process holds SQLite's write lock past the wait budget: nothing was written, try again later.
      request.log.warn({ err: error }, 'database busy');
      return reply
        .status(503)
        .header('retry-after', String(error.retryAfterSeconds))
        .send({ detail: 'База данных занята, повторите через несколько секунд' });
    }
    // PostgreSQL refusing a value the client sent (a number past its column's range, a NUL in text): the
    // schemas cannot all know a column's range, and SQLite takes both, so the backends agree on a 400 here.
    const pgCode = (error as { code?: unknown }).code;
    if (pgCode === '22003') return reply.status(400).send({ detail: 'Число вне допустимого диапазона' });
    if (pgCode === '22P05' || pgCode === '22021') return reply.status(400).send({ detail: 'Недопустимый символ в тексте' });
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = (error as FastifyError).code;
      const detail =
        code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413
          ? 'Слишком большой запрос'
          : code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415
            ? 'Неподдерживаемый тип содержимого'
            : code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'Пустое тело запроса'
              : code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
                ? 'Тело запроса — некорректный JSON'
                : status === 429
                  ? 'Слишком много запросов, попробуйте позже'
                  : // Fastify's own messages are English; the user reads only Russian.
                    'Некорректный запрос';
      return reply.status(status).send({ detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Внутренняя ошибка сервера' });
  });
}
