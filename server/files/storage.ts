/**
 * Where uploaded photos and generated exports live. The disk implementation keeps them under
 * DATA_DIR/files; an S3-compatible store can implement the same interface for multi-instance deployments.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile, rename } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';

/** A file being written as a stream: it gets its key only once `commit` has renamed it into place. */
export interface PendingFile {
  key: string;
  stream: Writable;
  /** Waits for the stream to finish and moves the file under its key. */
  commit(): Promise<void>;
  /** Drops what was written. */
  abort(): Promise<void>;
}

export interface FileStorage {
  /** Stores bytes under a new key that starts with `prefix`; returns the key. */
  put(prefix: string, data: Uint8Array, extension: string): Promise<string>;
  /** Stores a file written elsewhere (a streamed upload) under a new key; the file is moved, not left behind. */
  putFile(prefix: string, path: string, extension: string): Promise<string>;
  /** A fresh local path for an upload on its way in (`uploads/….tmp`: swept like any unfinished file). */
  uploadPath(): Promise<string>;
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** A new file under `prefix`, written as a stream (exports of any size, never whole in memory). */
  createStream(prefix: string, extension: string): Promise<PendingFile>;
  /**
   * Removes files a killed process left half-written (never given a key), untouched for `olderThanMs` — old
   * enough that no live instance sharing the store is still writing them. Answers how many went.
   */
  sweepUnfinished(olderThanMs: number, now?: number): Promise<number>;
}

export class DiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    const path = normalize(join(this.root, key));
    if (!path.startsWith(normalize(this.root) + sep)) throw new Error(`storage key escapes the root: ${key}`);
    return path;
  }

  async put(prefix: string, data: Uint8Array, extension: string): Promise<string> {
    const key = `${prefix}/${randomUUID()}${extension}`;
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename, so a crash never leaves a half-written file under a live key.
    const tmp = `${path}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, path);
    return key;
  }

  async uploadPath(): Promise<string> {
    const path = this.pathOf(`uploads/${randomUUID()}.tmp`);
    await mkdir(dirname(path), { recursive: true });
    return path;
  }

  async putFile(prefix: string, source: string, extension: string): Promise<string> {
    const key = `${prefix}/${randomUUID()}${extension}`;
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp`;
    try {
      await rename(source, tmp);
    } catch (error) {
      // Another filesystem (the upload's temporary folder elsewhere): copied, then the source removed.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(source, tmp);
      await rm(source, { force: true });
    }
    await rename(tmp, path);
    return key;
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async sweepUnfinished(olderThanMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = (await readdir(this.root, { recursive: true })).map(String);
    } catch {
      return 0;
    }
    for (const name of names) {
      if (!name.endsWith('.tmp')) continue;
      const path = join(this.root, name);
      const info = await stat(path).catch(() => null);
      if (info && info.mtimeMs < now - olderThanMs) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  async createStream(prefix: string, extension: string): Promise<PendingFile> {
    const key = `${prefix}/${randomUUID()}${extension}`;
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp`;
    const stream = createWriteStream(tmp);
    const finished = new Promise<void>((resolve, reject) => {
      stream.once('close', resolve);
      stream.once('error', reject);
    });
    return {
      key,
      stream,
      async commit() {
        if (!stream.writableEnded) stream.end();
        await finished;
        await rename(tmp, path);
      },
      async abort() {
        stream.destroy();
        await finished.catch(() => undefined);
        await rm(tmp, { force: true });
      },
    };
  }
}
