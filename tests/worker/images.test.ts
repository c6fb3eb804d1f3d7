/**
 * Photo compression (docs/product.md §5): max width 1024, never enlarged, JPEG 0.7, original kept on failure.
 * The real browser-image-compression code runs against a decoder/encoder double (images-doubles.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encoded, installWorkerBrowserDouble, jpegBlob, readJpeg } from './images-doubles.ts';

// The library reads the worker globals when it is imported, so they go in first.
installWorkerBrowserDouble();
const { compressPhoto, maxSideFor, defaultImageDeps, measurePhoto } = await import('../../worker/images.ts');
const { default: imageCompression } = await import('browser-image-compression');

async function sizeOf(blob: Blob): Promise<{ width: number; height: number }> {
  const info = readJpeg(new Uint8Array(await blob.arrayBuffer()));
  if (!info) throw new Error('not a JPEG');
  return { width: info.width, height: info.height };
}

beforeEach(() => {
  encoded.length = 0;
  // Failures are logged on purpose; keep the test output for real problems.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('compressPhoto', () => {
  it('shrinks a 4000 px wide photo to 1024 px wide, keeping the aspect ratio', async () => {
    const out = await compressPhoto(jpegBlob(4000, 3000));
    expect(out.type).toBe('image/jpeg');
    expect(await sizeOf(out)).toEqual({ width: 1024, height: 768 });
  });

  it('encodes JPEG at quality 0.7', async () => {
    await compressPhoto(jpegBlob(4000, 3000));
    expect(encoded.at(-1)).toMatchObject({ type: 'image/jpeg', quality: 0.7 });
  });

  it('keeps an 800 px wide photo 800 px wide (never enlarged)', async () => {
    const out = await compressPhoto(jpegBlob(800, 600));
    expect(await sizeOf(out)).toEqual({ width: 800, height: 600 });
  });

  it('caps the width, not the longer side, of a portrait photo', async () => {
    const out = await compressPhoto(jpegBlob(3000, 4000));
    expect(await sizeOf(out)).toEqual({ width: 1024, height: 1365 });
  });

  it('leaves a narrow tall photo alone', async () => {
    const out = await compressPhoto(jpegBlob(800, 5000));
    expect(await sizeOf(out)).toEqual({ width: 800, height: 5000 });
  });

  it('measures a photo turned by its EXIF orientation as the decoder draws it', async () => {
    // Stored 4000×3000 with orientation 6: the decoder draws it 3000 wide, 4000 tall.
    const photo = jpegBlob(4000, 3000, 6);
    expect(await measurePhoto(photo)).toEqual({ width: 3000, height: 4000 });
    expect(await sizeOf(await compressPhoto(photo))).toEqual({ width: 1024, height: 1365 });
  });

  it('keeps the original of a broken image', async () => {
    const broken = new Blob([new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])], { type: 'image/jpeg' });
    expect(await compressPhoto(broken)).toBe(broken);
  });

  it('keeps the original of something that is not an image', async () => {
    const text = new Blob(['hello'], { type: 'text/plain' });
    expect(await compressPhoto(text)).toBe(text);
  });

  it('keeps the original when the library fails', async () => {
    const photo = jpegBlob(4000, 3000);
    const deps = { ...defaultImageDeps, compress: () => Promise.reject(new Error('no canvas')) };
    expect(await compressPhoto(photo, { deps })).toBe(photo);
  });

  it('rejects when aborted instead of pretending the original is the result', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(compressPhoto(jpegBlob(4000, 3000), { signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('maxSideFor', () => {
  it('is why the width cap is computed: the library caps the longer side', async () => {
    const file = new File([jpegBlob(3000, 4000)], 'p.jpg', { type: 'image/jpeg' });
    const plain = await imageCompression(file, { useWebWorker: false, maxWidthOrHeight: 1024, fileType: 'image/jpeg' });
    expect((await sizeOf(plain)).width).toBe(768);
  });

  it('never asks for a resize when the photo is at most 1024 wide', () => {
    expect(maxSideFor({ width: 1024, height: 4000 })).toBeUndefined();
    expect(maxSideFor({ width: 1025, height: 10 })).toBe(1024);
  });
});
