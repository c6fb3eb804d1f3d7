/**
 * The body of POST /etrn/incoming: a multipart form (`file`: the title's XML; optional `signature`: the operator's
 * detached signature, as a file or base64 text; `uid`: the waybill's УИД ТрН; `name`: the file's name) or the XML
 * itself (application/xml, text/xml, application/octet-stream) with `?uid=&name=`. Small files, read into memory
 * within INCOMING_MAX_BYTES; every parser failure is a 4xx in Russian.
 */
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { INCOMING_MAX_BYTES } from '../../contract/calls/papers.ts';
import { badRequest, HttpError } from '../errors.ts';

export interface IncomingBody {
  bytes: Buffer;
  fileName: string | null;
  uid: string | null;
  signature: string | null;
}

const MB = 1024 * 1024;
const SIGNATURE_MAX_BYTES = 256 * 1024;
const tooBig = (what: string, max: number) => new HttpError(413, `${what} больше ${Math.round((max / MB) * 10) / 10} МБ`);

/** A signature as base64 text: kept as sent when it is base64 already (a .sig saved as text), else encoded. */
export function signatureText(bytes: Buffer): string | null {
  const text = bytes.toString('latin1').replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  if (text === '') return null;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? text : bytes.toString('base64');
}

const clean = (value: string | undefined | null, max: number, field: string): string | null => {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (text.length > max) throw badRequest(`${field}: не длиннее ${max} символов`);
  return text;
};

async function readForm(request: FastifyRequest): Promise<IncomingBody> {
  const fields: Record<string, string> = {};
  let file: { bytes: Buffer; name: string } | null = null;
  let signature: string | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: INCOMING_MAX_BYTES, files: 2, fields: 5, fieldSize: SIGNATURE_MAX_BYTES, parts: 7 } })) {
      if (part.type === 'field') {
        if (!['uid', 'name', 'signature'].includes(part.fieldname)) throw badRequest(`${part.fieldname}: неизвестное поле формы (ожидаются file, signature, uid, name)`);
        if (part.valueTruncated) throw badRequest(`${part.fieldname}: слишком длинное значение`);
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' && part.fieldname !== 'signature') {
        part.file.resume();
        throw badRequest(`${part.fieldname}: неизвестное поле файла (ожидаются file и signature)`);
      }
      const bytes = await part.toBuffer();
      if (part.fieldname === 'signature') signature = signatureText(bytes);
      else file = { bytes, name: part.filename };
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooBig('Файл титула', INCOMING_MAX_BYTES);
    throw badRequest('Некорректные данные формы (multipart/form-data)');
  }
  if (!file) throw badRequest('file: приложите XML-файл титула (Т1 или Т3)');
  return {
    bytes: file.bytes,
    fileName: clean(fields.name, 255, 'name') ?? clean(file.name, 255, 'file'),
    uid: clean(fields.uid, 1000, 'uid'),
    signature: signature ?? (fields.signature !== undefined ? signatureText(Buffer.from(fields.signature, 'latin1')) : null),
  };
}

export async function readIncomingBody(request: FastifyRequest, query: { uid?: string | undefined; name?: string | undefined }): Promise<IncomingBody> {
  if (request.isMultipart()) return readForm(request);
  if (!Buffer.isBuffer(request.body)) throw badRequest('Ожидается XML-файл титула: форма multipart/form-data с полем file или сам XML (application/xml)');
  if (request.body.length > INCOMING_MAX_BYTES) throw tooBig('Файл титула', INCOMING_MAX_BYTES);
  return { bytes: request.body, fileName: clean(query.name, 255, 'name'), uid: clean(query.uid, 1000, 'uid'), signature: null };
}

/** The file's text in its own encoding (the stored XML). */
export function decodeXml(bytes: Buffer, encoding: string): string {
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}
