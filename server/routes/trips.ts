/**
 * The trip as it happens (docs/trips.md): a step of a trip, the per-shift acceptance, the signature's image. A step's
 * and an acceptance's body is JSON, or multipart with a `data` part (that JSON) beside `photo` parts and one
 * `signature` PNG, read as it streams with the report's caps. Multipart parsing is registered in this module's scope.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { ZodType, z } from 'zod';
import type { RouteModule } from '../context.ts';
import { tripCalls } from '../../contract/calls/trips.ts';
import { shiftAcceptanceSchema, tripStepBodySchema } from '../../contract/trips.ts';
import { badRequest, parse } from '../errors.ts';
import { multipartLimits, readReportForm } from '../reports/form.ts';
import { discardUploads, type Photo } from '../reports/photos.ts';
import { sendImage } from '../reports/photo-file.ts';
import { registerArea } from './define.ts';
import { putTripStep } from '../trips/steps.ts';
import { postShiftAcceptance, signatureFor } from '../trips/acceptance.ts';
import { tripDays } from '../trips/days.ts';
import { staffCompany } from '../tasks/scope.ts';
import type { AppContext } from '../context.ts';

/** A step's JSON with the signature's strokes fits in this (a JSON body's limit is the server's 1 MB). */
const DATA_MAX_BYTES = 1024 * 1024;

/** The JSON of a multipart `data` part; any other text field is refused. */
function dataPart(fields: Record<string, string>): unknown {
  const extra = Object.keys(fields).find((name) => name !== 'data');
  if (extra) throw badRequest(`${extra}: неизвестное поле формы, данные шага — в поле data (JSON)`);
  if (fields.data === undefined) throw badRequest('data: обязательное поле формы с данными (JSON)');
  try {
    return JSON.parse(fields.data) as unknown;
  } catch {
    throw badRequest('data: ожидается JSON');
  }
}

/** The body as JSON or as a multipart form with its files; `work` runs before the form's leftover files go. */
export async function withBody<S extends ZodType, T>(
  ctx: AppContext,
  request: FastifyRequest,
  schema: S,
  photosAllowed: boolean | 'one',
  work: (body: z.output<S>, files: { photos: Photo[]; signature: Photo | null }) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) return work(parse(schema, request.body), { photos: [], signature: null });
  const form = await readReportForm(request, () => ctx.storage.uploadPath(), undefined, { signature: true, fieldSize: DATA_MAX_BYTES });
  try {
    if (!photosAllowed && form.photos.length > 0) throw badRequest('photo: к приёмке прилагается только подпись (signature)');
    if (photosAllowed === 'one' && form.photos.length > 1) throw badRequest('photo: к показанию одометра прилагается одно фото');
    if (photosAllowed === 'one' && form.signature) throw badRequest('signature: к показанию одометра подпись не прилагается');
    return await work(parse(schema, dataPart(form.fields)), form);
  } finally {
    // Stored files were moved into storage; a refused or replayed upload's files go.
    await discardUploads([...form.photos, ...(form.signature ? [form.signature] : [])]);
  }
}

export const tripRoutes: RouteModule = async (app, ctx) => {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: multipartLimits });

    registerArea(scope, ctx, tripCalls, {
      'PUT /trips/:trip_uid/steps/:step': ({ user, params, request, setStatus }) =>
        withBody(ctx, request, tripStepBodySchema, true, async (body, files) => {
          const { answer, created } = await putTripStep(ctx, user, params.trip_uid, params.step, body, files);
          if (!created) setStatus(200);
          return answer;
        }),

      'POST /trips/acceptance': ({ user, request, setStatus }) =>
        withBody(ctx, request, shiftAcceptanceSchema, false, async (body, files) => {
          const { answer, created } = await postShiftAcceptance(ctx, user, body, files.signature);
          if (!created) setStatus(200);
          return answer;
        }),

      'GET /tasks/trip-days/': async ({ user, query }) => {
        const company = await staffCompany(ctx.db, user, query.company_id);
        return { start_date: query.start_date, end_date: query.end_date, company_id: company.id, days: await tripDays(ctx.db.kysely, company.id, query.start_date, query.end_date) };
      },

      'GET /trips/acceptance/:id/signature': async ({ user, params, reply }) => {
        const file = await signatureFor(ctx, user, params.id);
        return sendImage(ctx, reply, { ...file, mime: 'image/png', filename: `signature-${file.id}.png` });
      },
    });
  });
};
