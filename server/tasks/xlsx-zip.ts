/**
 * The zip under an uploaded .xlsx, read from the buffer itself (server/tasks/xlsx-preflight.ts is its one reader): the
 * central directory with its declared sizes (ZIP64 included), the checks on them (a zip bomb is refused before
 * anything is inflated), and an entry inflated whole or piece by piece under a ceiling of its declared size (a zip
 * that lies about its sizes stops there). A refusal is an `ImportFileError` (its message is for the user).
 */
import { createInflateRaw, inflateRawSync } from 'node:zlib';

/** The most the zip's entries may inflate to, all together. */
export const IMPORT_MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
/** An entry above this size that inflates more than `MAX_RATIO` times is a zip bomb, not a spreadsheet. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const MAX_RATIO = 300;
/** More entries than any spreadsheet has. */
const MAX_ENTRIES = 5000;

export class ImportFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImportFileError';
  }
}

export const DAMAGED = 'Не удалось прочитать файл Excel: он повреждён или сохранён в необычном формате. Откройте его в Excel и сохраните заново как .xlsx.';
const BOMB = 'Файл распаковывается в слишком большой объём — это не похоже на обычную таблицу. Сохраните задачи в новый файл .xlsx.';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The zip's central directory, read from the buffer itself: names and declared sizes, nothing inflated. */
export function readCentralDirectory(file: Buffer): ZipEntry[] {
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65 535 bytes, at the end.
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ImportFileError(DAMAGED);
  let count = file.readUInt16LE(eocd + 10);
  let dirOffset = file.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) {
    // ZIP64: the locator sits just before the record and points at the 64-bit record.
    const locator = eocd - 20;
    if (locator < 0 || file.readUInt32LE(locator) !== 0x07064b50) throw new ImportFileError(DAMAGED);
    const record = Number(file.readBigUInt64LE(locator + 8));
    if (record + 56 > file.length || file.readUInt32LE(record) !== 0x06064b50) throw new ImportFileError(DAMAGED);
    count = Number(file.readBigUInt64LE(record + 32));
    dirOffset = Number(file.readBigUInt64LE(record + 48));
  }
  if (count > MAX_ENTRIES) throw new ImportFileError(BOMB);
  const entries: ZipEntry[] = [];
  let at = dirOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== 0x02014b50) throw new ImportFileError(DAMAGED);
    const flags = file.readUInt16LE(at + 8);
    const method = file.readUInt16LE(at + 10);
    let compressedSize = file.readUInt32LE(at + 20);
    let size = file.readUInt32LE(at + 24);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    let localOffset = file.readUInt32LE(at + 42);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > file.length) throw new ImportFileError(DAMAGED);
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    // ZIP64 sizes live in the extra field (id 1), each present only when its 32-bit field is all ones.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = file.readUInt16LE(x);
      const length = file.readUInt16LE(x + 2);
      if (id === 1) {
        let p = x + 4;
        const next = () => {
          if (p + 8 > x + 4 + length) throw new ImportFileError(DAMAGED);
          const value = Number(file.readBigUInt64LE(p));
          p += 8;
          return value;
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localOffset === 0xffffffff) localOffset = next();
      }
      x += 4 + length;
    }
    entries.push({ name: name.replace(/^\/+/, ''), method, flags, compressedSize, size, localOffset });
    at = end;
  }
  return entries;
}

export function checkSizes(entries: readonly ZipEntry[]): void {
  let total = 0;
  for (const entry of entries) {
    if (entry.flags & 1) throw new ImportFileError('Файл защищён паролем. Снимите пароль в Excel и загрузите файл снова.');
    if (entry.method !== 0 && entry.method !== 8) throw new ImportFileError(DAMAGED);
    total += entry.size;
    if (total > IMPORT_MAX_UNZIPPED_BYTES) throw new ImportFileError(BOMB);
    if (entry.size > RATIO_FLOOR_BYTES && (entry.compressedSize === 0 || entry.size / entry.compressedSize > MAX_RATIO)) throw new ImportFileError(BOMB);
  }
}

/** An entry's stored (compressed) bytes, found through its local header. */
export function entrySpan(file: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== 0x04034b50) throw new ImportFileError(DAMAGED);
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  if (start + entry.compressedSize > file.length) throw new ImportFileError(DAMAGED);
  return file.subarray(start, start + entry.compressedSize);
}

/** One entry's bytes, inflated to at most its declared size (a zip that lies about it stops there). */
export function inflateEntry(file: Buffer, entry: ZipEntry): Buffer {
  const raw = entrySpan(file, entry);
  let data: Buffer;
  if (entry.method === 0) {
    data = raw;
  } else {
    try {
      data = inflateRawSync(raw, { maxOutputLength: entry.size + 1 });
    } catch (error) {
      throw new ImportFileError((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? BOMB : DAMAGED, { cause: error });
    }
  }
  if (data.length !== entry.size) throw new ImportFileError(data.length > entry.size ? BOMB : DAMAGED);
  return data;
}

/** What a preflight inflated: the tests see that a refused file stopped near its cap, not at its end. */
export interface PreflightStats {
  inflatedBytes: number;
}

/** The inflated pieces handed on at a time: a cap passed is seen within one of them. */
const INFLATE_CHUNK = 64 * 1024;

/**
 * One entry inflated piece by piece (zlib's streaming inflate), each piece handed to `take` as it comes; `take` throws
 * to stop (a cap passed), and nothing more is inflated. More than the declared size is a bomb; less, a damaged file.
 */
export async function streamEntry(file: Buffer, entry: ZipEntry, take: (piece: Buffer) => void, stats?: PreflightStats): Promise<void> {
  const raw = entrySpan(file, entry);
  if (entry.method === 0) {
    if (raw.length !== entry.size) throw new ImportFileError(DAMAGED);
    for (let at = 0; at < raw.length; at += INFLATE_CHUNK) take(raw.subarray(at, at + INFLATE_CHUNK));
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    let total = 0;
    const stop = (error: unknown) => {
      inflater.destroy();
      reject(error);
    };
    inflater.on('data', (piece: Buffer) => {
      total += piece.length;
      if (stats) stats.inflatedBytes += piece.length;
      if (total > entry.size) return stop(new ImportFileError(BOMB));
      try {
        take(piece);
      } catch (error) {
        stop(error);
      }
    });
    inflater.on('error', (error) => stop(new ImportFileError(DAMAGED, { cause: error })));
    inflater.on('end', () => (total === entry.size ? resolve() : reject(new ImportFileError(DAMAGED))));
    inflater.end(raw);
  });
}

