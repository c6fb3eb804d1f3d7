/**
 * Photo compression inside the engine (docs/product.md §5): at most 1024 px wide,
 * only ever shrunk, JPEG quality 0.7, and the original kept whenever compression fails.
 *
 * browser-image-compression runs with `useWebWorker: false`: a SharedWorker cannot start a Worker, and the
 * library's worker mode loads a script from a CDN. In the engine it then draws on OffscreenCanvas itself.
 *
 * Both libraries are their own chunks (dynamic import), kept out of the engine's script so it starts quickly, and
 * loaded as the engine starts (`loadImageLibraries` from platform.ts), while the network that brought the engine
 * is there: a photo is often first attached with the server down, and a chunk asked for only then cannot be
 * fetched where the service worker does not control the engine yet — a fresh profile (issue 30 item 19: Firefox's
 * SharedWorker, Chromium's dedicated worker). A browser may also keep a failed module load for the realm's life.
 */
import type imageCompressionFn from 'browser-image-compression';
import type { Options } from 'browser-image-compression';
import type { imageSize as imageSizeFn } from 'image-size';

export const MAX_WIDTH = 1024;
export const JPEG_QUALITY = 0.7;

export interface ImageSize {
  width: number;
  height: number;
}

export interface ImageDeps {
  /** The library call; tests may pass a double. */
  compress(file: File, options: Options): Promise<Blob>;
  /** The photo's size as the decoder will draw it (EXIF orientation applied). */
  measure(blob: Blob): Promise<ImageSize>;
}

interface ImageLibraries {
  imageCompression: typeof imageCompressionFn;
  imageSize: typeof imageSizeFn;
}

let libraries: Promise<ImageLibraries> | null = null;

/** Both libraries, loaded once per engine; a load that failed is tried again on the next call. */
export function loadImageLibraries(): Promise<ImageLibraries> {
  if (!libraries) {
    const loading = Promise.all([import('browser-image-compression'), import('image-size')]).then(([compression, size]) => ({
      imageCompression: compression.default,
      imageSize: size.imageSize,
    }));
    loading.catch(() => {
      if (libraries === loading) libraries = null;
    });
    libraries = loading;
  }
  return libraries;
}

export const defaultImageDeps: ImageDeps = {
  compress: async (file, options) => (await loadImageLibraries()).imageCompression(file, options),
  measure: measurePhoto,
};

/**
 * The library's `maxWidthOrHeight` caps the LONGER side, so a plain 1024 would squeeze a portrait photo to
 * 768 px wide. We want the width capped, so for a portrait photo the cap is the height that the width cap
 * implies. Half a pixel on top keeps float error from truncating the width to 1023; the library's own
 * truncation of canvas sizes then yields exactly 1024. Undefined means "keep the size" (never enlarge).
 */
export function maxSideFor({ width, height }: ImageSize): number | undefined {
  if (!(width > MAX_WIDTH)) return undefined;
  if (width >= height) return MAX_WIDTH;
  return (height * MAX_WIDTH) / width + 0.5;
}

export function compressionOptions(size: ImageSize, signal?: AbortSignal): Options {
  const options: Options = {
    useWebWorker: false,
    fileType: 'image/jpeg',
    initialQuality: JPEG_QUALITY,
  };
  const maxSide = maxSideFor(size);
  if (maxSide !== undefined) options.maxWidthOrHeight = maxSide;
  if (signal) options.signal = signal;
  return options;
}

/**
 * Compresses one photo. Resolves with the JPEG, or with the original blob when anything goes wrong
 * (not an image, undecodable, no canvas). Rejects only when `signal` aborts it.
 */
export async function compressPhoto(
  blob: Blob,
  { signal, deps = defaultImageDeps }: { signal?: AbortSignal; deps?: ImageDeps } = {},
): Promise<Blob> {
  try {
    signal?.throwIfAborted();
    const size = await deps.measure(blob);
    const file = blob instanceof File ? blob : new File([blob], 'photo', { type: blob.type });
    const out = await deps.compress(file, compressionOptions(size, signal));
    return out.size > 0 ? out : blob;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    console.warn('photo compression failed, keeping the original', error);
    return blob;
  }
}

/** EXIF orientations 5 to 8 turn the picture by 90°: the decoder swaps width and height. */
function oriented(size: { width: number; height: number; orientation?: number }): ImageSize {
  const turned = size.orientation !== undefined && size.orientation >= 5 && size.orientation <= 8;
  return turned ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
}

/**
 * Reads the size from the file's header (no decode, so a 12 MP photo is not decoded twice); where the header
 * is not understood, asks the browser's decoder.
 */
export async function measurePhoto(blob: Blob): Promise<ImageSize> {
  try {
    const { imageSize } = await loadImageLibraries();
    return oriented(imageSize(new Uint8Array(await blob.arrayBuffer())));
  } catch {
    const bitmap = await createImageBitmap(blob);
    try {
      return { width: bitmap.width, height: bitmap.height };
    } finally {
      bitmap.close();
    }
  }
}
