/**
 * Build step: a brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of dist/, made once at
 * the highest levels, so the server (@fastify/static with `preCompressed: true`) sends the right one with
 * `Content-Encoding` and never compresses a static file per request. Source maps are left alone (devtools
 * only), and so are files a copy would not make smaller.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is worth compressing: text formats. Images (png, jpg, webp, woff2) are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|ico)$/i;
/** Below this a compressed answer saves less than its headers cost. */
export const MIN_BYTES = 512;

export interface Precompressed {
  file: string;
  bytes: number;
  br: number | null;
  gzip: number | null;
}

/** Brotli at quality 11 and gzip at level 9 of `bytes` (text mode for brotli: our files are text). */
export async function compressBoth(bytes: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gzipped] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gzipped };
}

/** Writes `file.br` and `file.gz` beside `file` where each is smaller than it; answers the sizes. */
export async function precompressFile(file: string): Promise<Precompressed> {
  const bytes = await readFile(file);
  const result: Precompressed = { file, bytes: bytes.length, br: null, gzip: null };
  if (bytes.length < MIN_BYTES) return result;
  const { br, gzip: gzipped } = await compressBoth(bytes);
  if (br.length < bytes.length) {
    await writeFile(`${file}.br`, br);
    result.br = br.length;
  }
  if (gzipped.length < bytes.length) {
    await writeFile(`${file}.gz`, gzipped);
    result.gzip = gzipped.length;
  }
  return result;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(path);
      return entry.isFile() && COMPRESSIBLE.test(entry.name) ? [path] : [];
    }),
  );
  return nested.flat();
}

/** Precompresses every compressible file under `dir` (a few at a time: brotli 11 is CPU-bound). */
export async function precompressDir(dir: string): Promise<Precompressed[]> {
  const files = await filesUnder(dir);
  const results: Precompressed[] = [];
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) results.push(await precompressFile(file));
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return results;
}

/**
 * The Vite plugin: after everything else has written dist/ — the PWA plugin's sw.js included, hence
 * `enforce: 'post'` and a `closeBundle` ordered last.
 */
export function precompress(outDir = 'dist'): Plugin {
  let logger: Logger | null = null;
  return {
    name: 'reis-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      logger = config.logger;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const dir = resolve(outDir);
        if (!(await stat(dir).catch(() => null))?.isDirectory()) return;
        const results = await precompressDir(dir);
        const sum = (pick: (r: Precompressed) => number) => results.reduce((total, r) => total + pick(r), 0);
        const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
        logger?.info(
          `precompressed ${results.filter((r) => r.br !== null).length} files: ${kB(sum((r) => r.bytes))} → br ${kB(sum((r) => r.br ?? r.bytes))}, gzip ${kB(sum((r) => r.gzip ?? r.bytes))}`,
        );
      },
    },
  };
}
