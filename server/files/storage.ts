/**
 * Where uploaded photos and generated exports live. The disk implementation keeps them under
 * DATA_DIR/files; an S3-compatible store can implement the same interface for multi-instance deployments.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile, rename } from 'node:fs/promises';
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
  /** Stores a file written at a path from `uploadPath()` (a streamed upload) under a new key; the file is moved. */
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

  /** A new key under `prefix`, its file made by `fill(tmp)` aside and renamed in: a crash leaves no half file under a live key. */
  private async place(prefix: string, extension: string, fill: (tmp: string) => Promise<void>): Promise<string> {
    const key = `${prefix}/${randomUUID()}${extension}`;
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp`;
    await fill(tmp);
    await rename(tmp, path);
    return key;
  }

  put(prefix: string, data: Uint8Array, extension: string): Promise<string> {
    return this.place(prefix, extension, (tmp) => writeFile(tmp, data));
  }

  async uploadPath(): Promise<string> {
    const path = this.pathOf(`uploads/${randomUUID()}.tmp`);
    await mkdir(dirname(path), { recursive: true });
    return path;
  }

  /** `source` is a path from `uploadPath()`: under the same root, so the move is a rename. */
  putFile(prefix: string, source: string, extension: string): Promise<string> {
    return this.place(prefix, extension, (tmp) => rename(source, tmp));
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
