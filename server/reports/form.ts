/**
 * Reads a report's multipart form: text fields and photos, within the caps. Every parser failure becomes
 * a 4xx with a Russian detail — a client's broken upload is never our 500.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
// The plugin's types add parts() and isMultipart() to FastifyRequest.
import type {} from '@fastify/multipart';
import { badRequest, HttpError } from '../errors.ts';
import { discardUploads, inspectPhoto, PHOTO_MAX_BYTES, REPORT_MAX_BYTES, REPORT_MAX_PHOTOS, tooLarge, type Photo } from './photos.ts';

const PHOTO_FIELDS = new Set(['photos', 'photos[]', 'photo']);
const MB = 1024 * 1024;

export interface ReportForm {
  fields: Record<string, string>;
  photos: Photo[];
  /** A trip step's receiver's signature (a PNG), when the caller accepts one (`{ signature: true }`). */
  signature: Photo | null;
}

const SIGNATURE_FIELD = 'signature';

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

/**
 * `already` counts the photos a report has before this upload (an edit adds to them). Each photo streams to a
 * temporary file (`uploadPath`) as it arrives, so an upload's bytes never sit in memory whole; the caller
 * stores the photos (moving the files) or calls `discardUploads` — on a refusal here they are gone already.
 */
export async function readReportForm(
  request: FastifyRequest,
  uploadPath: () => Promise<string>,
  already: { count: number; bytes: number } = { count: 0, bytes: 0 },
  /** `signature`: one `signature` PNG part is read beside the photos; `fieldSize`: a longer text field (a trip's JSON). */
  options: { signature?: boolean; fieldSize?: number } = {},
): Promise<ReportForm> {
  if (!request.isMultipart()) throw badRequest('Ожидается multipart/form-data');
  const fields: Record<string, string> = {};
  const photos: Photo[] = [];
  let signature: Photo | null = null;
  const written: { file: string }[] = [];
  let bytes = already.bytes;
  try {
    for await (const part of request.parts({ limits: { ...multipartLimits, ...(options.fieldSize ? { fieldSize: options.fieldSize } : {}) } })) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw badRequest(`${part.fieldname}: слишком длинное значение`);
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const isSignature = options.signature === true && part.fieldname === SIGNATURE_FIELD;
      if (!isSignature && !PHOTO_FIELDS.has(part.fieldname)) {
        part.file.resume();
        throw badRequest(`${part.fieldname}: неизвестное поле файла, ожидается photos`);
      }
      if (isSignature && signature !== null) {
        part.file.resume();
        throw badRequest('signature: подпись получателя — один файл');
      }
      if (!isSignature && already.count + photos.length >= REPORT_MAX_PHOTOS) {
        part.file.resume();
        throw tooLarge(`В отчёте не больше ${REPORT_MAX_PHOTOS} фото`);
      }
      const file = await uploadPath();
      written.push({ file });
      let size = 0;
      await pipeline(
        part.file,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (bytes + size > REPORT_MAX_BYTES) throw tooLarge(`Фото отчёта вместе больше ${REPORT_MAX_BYTES / MB} МБ`);
            yield chunk;
          }
        },
        createWriteStream(file),
      );
      // A browser sends an empty part for a file input left empty.
      if (size === 0 && !part.filename) continue;
      bytes += size;
      const image = await inspectPhoto(file, size, part.filename || 'без имени');
      if (!isSignature) {
        photos.push(image);
        continue;
      }
      if (image.mime !== 'image/png') throw new HttpError(415, 'Подпись получателя: ожидается изображение PNG');
      signature = image;
    }
  } catch (error) {
    await discardUploads(written);
    throw translate(error);
  }
  // Empty parts were written as empty files: only the photos' and the signature's stay.
  await discardUploads(written.filter((w) => !photos.some((p) => p.file === w.file) && signature?.file !== w.file));
  return { fields, photos, signature };
}
