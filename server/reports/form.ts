/**
 * Reads a report's multipart form: text fields and photos, within the caps. Every parser failure becomes
 * a 4xx with a Russian detail — a client's broken upload is never our 500.
 */
import type { FastifyRequest } from 'fastify';
// The plugin's types add parts() and isMultipart() to FastifyRequest.
import type {} from '@fastify/multipart';
import { badRequest, HttpError } from '../errors.ts';
import { inspectPhoto, PHOTO_MAX_BYTES, REPORT_MAX_BYTES, REPORT_MAX_PHOTOS, tooLarge, type Photo } from './photos.ts';

const PHOTO_FIELDS = new Set(['photos', 'photos[]', 'photo']);
const MB = 1024 * 1024;

export interface ReportForm {
  fields: Record<string, string>;
  photos: Photo[];
}

export const multipartLimits = {
  fileSize: PHOTO_MAX_BYTES,
  files: REPORT_MAX_PHOTOS,
  fields: 30,
  fieldSize: 10_000,
  parts: REPORT_MAX_PHOTOS + 30,
  headerPairs: 200,
};

function translate(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(`Фото больше ${PHOTO_MAX_BYTES / MB} МБ`);
    case 'FST_FILES_LIMIT':
      return tooLarge(`В отчёте не больше ${REPORT_MAX_PHOTOS} фото`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return tooLarge('Слишком много полей в форме');
    default:
      return badRequest('Некорректные данные формы (multipart/form-data)');
  }
}

/** `already` counts the photos a report has before this upload (an edit adds to them). */
export async function readReportForm(
  request: FastifyRequest,
  already: { count: number; bytes: number } = { count: 0, bytes: 0 },
): Promise<ReportForm> {
  if (!request.isMultipart()) throw badRequest('Ожидается multipart/form-data');
  const fields: Record<string, string> = {};
  const photos: Photo[] = [];
  let bytes = already.bytes;
  try {
    for await (const part of request.parts({ limits: multipartLimits })) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw badRequest(`${part.fieldname}: слишком длинное значение`);
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (!PHOTO_FIELDS.has(part.fieldname)) {
        await part.toBuffer();
        throw badRequest(`${part.fieldname}: неизвестное поле файла, ожидается photos`);
      }
      const data = await part.toBuffer();
      // A browser sends an empty part for a file input left empty.
      if (data.length === 0 && !part.filename) continue;
      if (already.count + photos.length >= REPORT_MAX_PHOTOS) throw tooLarge(`В отчёте не больше ${REPORT_MAX_PHOTOS} фото`);
      bytes += data.length;
      if (bytes > REPORT_MAX_BYTES) throw tooLarge(`Фото отчёта вместе больше ${REPORT_MAX_BYTES / MB} МБ`);
      photos.push(await inspectPhoto(data, part.filename || 'без имени'));
    }
  } catch (error) {
    throw translate(error);
  }
  return { fields, photos };
}
