/**
 * Report photos: checked by their bytes, never by name or declared type, and kept within size caps.
 * `image-size` reads the header (format and dimensions, cheap); then `sharp` decodes the whole image, so a
 * valid header over a garbage body, a polyglot or a decompression bomb (more than 50 megapixels) is refused.
 */
import { rm } from 'node:fs/promises';
import { imageSizeFromFile } from 'image-size/fromFile';
import { perceptualHash } from './phash.ts';
import sharp from 'sharp';
import type { ReportPhotoType } from '../../contract/report-limits.ts';
import type { FileStorage } from '../files/storage.ts';
import { HttpError } from '../errors.ts';

// The caps live in contract/ so the report form checks the same numbers before a report is queued.
export { PHOTO_MAX_BYTES, REPORT_MAX_BYTES, REPORT_MAX_PHOTOS } from '../../contract/report-limits.ts';

const FORMATS: Record<string, { mime: ReportPhotoType; ext: string }> = {
  jpg: { mime: 'image/jpeg', ext: '.jpg' },
  png: { mime: 'image/png', ext: '.png' },
  webp: { mime: 'image/webp', ext: '.webp' },
};

export interface Photo {
  /** The uploaded bytes, streamed to a temporary file (form.ts); moved into storage when the report is stored. */
  file: string;
  size: number;
  mime: string;
  ext: string;
  width: number;
  height: number;
  /** Perceptual hash (phash.ts), for telling a re-used photo. */
  phash: string | null;
}

export interface StoredPhoto extends Omit<Photo, 'file'> {
  key: string;
}

export const tooLarge = (detail: string) => new HttpError(413, detail);

/** A file name as a detail quotes it: control characters out, at most 80 characters. */
export function quotedName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return clean.length > 80 ? `${clean.slice(0, 77)}…` : clean;
}
const unsupported = (name: string) =>
  new HttpError(415, `Файл «${quotedName(name)}» не является фотографией: принимаются JPEG, PNG и WebP`);

/** How a stored photo is hashed; bench/loads.ts swaps it out to measure an upload without the hash. */
export const hashPhoto: { impl: (input: Buffer | string, maxPixels: number) => Promise<string | null> } = { impl: perceptualHash };

/** A photo larger than this is refused before it is decoded (a phone camera's is 12–50 MP; the app sends ≤ 1 MP). */
export const PHOTO_MAX_PIXELS = 50_000_000;

/**
 * Decoding is where an upload costs memory: a 12 MP photo is ~36 MB of pixels in libvips, a 50 MP one ~150 MB.
 * At most two photos are decoded at once, whatever the number of uploads in flight (the rest wait their turn:
 * their bytes are already in), and libvips keeps no cache of operations (every photo is new to it), so the
 * server's memory is bounded by the two decodes, not by the uploads (bench: `npm run bench -- upload-memory`).
 */
const DECODES_AT_ONCE = 2;
sharp.cache(false);
let decoding = 0;
const decodeQueue: (() => void)[] = [];
async function decodeTurn<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= DECODES_AT_ONCE) await new Promise<void>((resolve) => decodeQueue.push(resolve));
  else decoding += 1;
  try {
    return await work();
  } finally {
    const next = decodeQueue.shift();
    if (next) next();
    else decoding -= 1;
  }
}

/**
 * Answers the photo's format and size, or a 415 for anything that is not a decodable JPEG, PNG or WebP image,
 * or a 413 for one over PHOTO_MAX_PIXELS.
 */
export async function inspectPhoto(file: string, size: number, filename: string): Promise<Photo> {
  let info: Awaited<ReturnType<typeof imageSizeFromFile>>;
  try {
    info = await imageSizeFromFile(file);
  } catch {
    throw unsupported(filename);
  }
  const format = info.type ? FORMATS[info.type] : undefined;
  if (!format || !(info.width > 0) || !(info.height > 0)) throw unsupported(filename);
  if (info.width * info.height > PHOTO_MAX_PIXELS) {
    throw tooLarge(`Фото «${quotedName(filename)}» больше ${PHOTO_MAX_PIXELS / 1_000_000} мегапикселей: уменьшите его`);
  }
  const phash = await decodeTurn(async () => {
    // Its perceptual hash, to catch a photo re-used for another trip. Hashing decodes the photo whole (sharp, off
    // the main thread, stricter than the check below: a decoder warning fails it), so a hash is also the proof that
    // it is an image: the photo is decoded once.
    const hash = await hashPhoto.impl(file, PHOTO_MAX_PIXELS).catch(() => null);
    if (hash !== null) return hash;
    // A photo it cannot hash is still a photo, if it decodes: decoding it whole is the only proof.
    try {
      const decoded = await sharp(file, { failOn: 'error', limitInputPixels: PHOTO_MAX_PIXELS }).stats();
      if (decoded.channels.length === 0) throw new Error('no channels');
    } catch {
      throw unsupported(filename);
    }
    return null;
  });
  return { file, size, mime: format.mime, ext: format.ext, width: info.width, height: info.height, phash };
}

/** Removes an upload's temporary files, whatever became of them (a stored photo's was moved already). */
export async function discardUploads(photos: readonly Pick<Photo, 'file'>[]): Promise<void> {
  await Promise.all(photos.map((photo) => rm(photo.file, { force: true })));
}

/** Writes the photos under 'photos/'; on any failure removes what it wrote, so nothing is orphaned. */
export async function storePhotos(storage: FileStorage, photos: readonly Photo[]): Promise<StoredPhoto[]> {
  const stored: StoredPhoto[] = [];
  try {
    for (const { file, ...meta } of photos) {
      const key = await storage.putFile('photos', file, meta.ext);
      stored.push({ ...meta, key });
    }
  } catch (error) {
    await removeFiles(storage, stored.map((s) => s.key));
    throw error;
  }
  return stored;
}

export async function removeFiles(storage: FileStorage, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)));
}
