/**
 * Where uploaded photos and generated exports live. The disk implementation keeps them under
 * DATA_DIR/files; an S3-compatible store can implement the same interface for multi-instance deployments.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile, rename } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface FileStorage {
  /** Stores bytes under a new key that starts with `prefix`; returns the key. */
  put(prefix: string, data: Uint8Array, extension: string): Promise<string>;
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
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
}
