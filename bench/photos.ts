/**
 * Test photos for the compression benchmarks, made in the page: 12 MP (4000×3000) pictures with gradients,
 * shapes and sensor-like noise, encoded as JPEG 0.92 on an OffscreenCanvas, so they weigh and compress like
 * a phone's photos rather than like a flat colour. They stay in the page (`window.__benchPhotos`); only
 * their sizes come back to Node.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;

export type PhotoWindow = Window & {
  __benchPhotos: Blob[];
  imageCompression?: (file: File, options: Record<string, unknown>) => Promise<Blob>;
  /** The library's own script as a blob: URL, which its web worker imports (`libURL`; its default is a CDN). */
  __imageCompressionUrl?: string;
};

/** Makes `count` photos in the page; answers their byte sizes. */
export function makePhotos(page: Page, count: number): Promise<number[]> {
  return page.evaluate(
    async ({ count, width, height }) => {
      const tileSize = 256;
      // A few tiles of random pixels, placed at random: JPEG codes 8×8 blocks alone, so this costs as much as
      // noise everywhere while taking a fraction of the time to make.
      const tiles = Array.from({ length: 8 }, () => {
        const tile = new OffscreenCanvas(tileSize, tileSize);
        const pixels = new ImageData(tileSize, tileSize);
        const words = new Uint32Array(pixels.data.buffer);
        for (let i = 0; i < words.length; i += 1) words[i] = (Math.random() * 0xffffffff) | 0xff000000;
        tile.getContext('2d')!.putImageData(pixels, 0, 0);
        return tile;
      });
      const photos: Blob[] = [];
      for (let p = 0; p < count; p += 1) {
        const canvas = new OffscreenCanvas(width, height);
        const ctx = canvas.getContext('2d')!;
        const sky = ctx.createLinearGradient(0, 0, width * 0.3, height);
        sky.addColorStop(0, `hsl(${(p * 67) % 360} 45% 75%)`);
        sky.addColorStop(1, `hsl(${(p * 67 + 140) % 360} 35% 30%)`);
        ctx.fillStyle = sky;
        ctx.fillRect(0, 0, width, height);
        for (let i = 0; i < 80; i += 1) {
          ctx.fillStyle = `hsl(${Math.random() * 360} ${20 + Math.random() * 50}% ${15 + Math.random() * 70}%)`;
          ctx.beginPath();
          ctx.ellipse(Math.random() * width, Math.random() * height, 40 + Math.random() * 500, 40 + Math.random() * 300, Math.random() * 3, 0, 2 * Math.PI);
          ctx.fill();
        }
        ctx.globalAlpha = 0.14;
        for (let y = 0; y < height; y += tileSize) {
          for (let x = 0; x < width; x += tileSize) ctx.drawImage(tiles[Math.floor(Math.random() * tiles.length)]!, x, y);
        }
        ctx.globalAlpha = 1;
        photos.push(await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 }));
      }
      (window as unknown as PhotoWindow).__benchPhotos = photos;
      return photos.map((photo) => photo.size);
    },
    { count, width: PHOTO_WIDTH, height: PHOTO_HEIGHT },
  );
}

/**
 * browser-image-compression's UMD build in the page (the baseline), as `window.imageCompression`, and the same
 * script as a blob: URL for the web worker the library starts by default (its default `libURL` is a CDN, which
 * this machine cannot reach; a failed worker would fall back to the main thread and flatter us).
 */
export async function injectCompressionLibrary(page: Page): Promise<void> {
  const path = resolve('node_modules/browser-image-compression/dist/browser-image-compression.js');
  await page.addScriptTag({ path });
  await page.evaluate((source) => {
    (window as unknown as PhotoWindow).__imageCompressionUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  }, readFileSync(path, 'utf8'));
}

/**
 * The engine's settings (worker/images.ts) for a landscape photo wider than 1024, as the library is normally
 * used: in its own web worker (`useWebWorker` is its default), the library loaded from `libURL` there.
 */
export const LIBRARY_OPTIONS = {
  useWebWorker: true,
  fileType: 'image/jpeg',
  initialQuality: 0.7,
  maxWidthOrHeight: 1024,
} as const;

export interface Compressed {
  /** Per photo: time from the call to the JPEG, bytes in and out, the output's size in pixels. */
  photos: { ms: number; bytesIn: number; bytesOut: number; width: number; height: number }[];
  /** Main-thread long tasks that started while the photos were being compressed. */
  longTasks: { startTime: number; duration: number }[];
  wallMs: number;
}

/**
 * Compresses every photo of `window.__benchPhotos` one after another (as the outbox does), in the engine
 * (`__reisEngine.compressPreview`) or on the main thread (the injected library), watching long tasks.
 */
export function compressPhotos(page: Page, where: 'engine' | 'main'): Promise<Compressed> {
  return page.evaluate(
    async ({ where, options }) => {
      const w = window as unknown as PhotoWindow & { __reisEngine: { compressPreview(photo: Blob): Promise<Blob> } };
      const compress = (photo: Blob): Promise<Blob> => {
        if (where === 'engine') return w.__reisEngine.compressPreview(photo);
        const file = new File([photo], 'photo.jpg', { type: photo.type });
        return w.imageCompression!(file, { ...options, libURL: w.__imageCompressionUrl });
      };
      // One small photo first, so neither side pays for its first-call set-up inside the figures.
      const warmUp = new OffscreenCanvas(1600, 1200);
      warmUp.getContext('2d')!.fillRect(0, 0, 800, 600);
      await compress(await warmUp.convertToBlob({ type: 'image/jpeg', quality: 0.92 }));
      const longTasks: { startTime: number; duration: number }[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push({ startTime: entry.startTime, duration: entry.duration });
      });
      observer.observe({ type: 'longtask', buffered: true });
      // Let the buffered entries (from making the photos) arrive first, so they can be told apart.
      await new Promise((r) => setTimeout(r, 100));
      const started = performance.now();
      const outputs: { blob: Blob; ms: number; bytesIn: number }[] = [];
      for (const photo of w.__benchPhotos) {
        const t = performance.now();
        const blob = await compress(photo);
        outputs.push({ blob, ms: performance.now() - t, bytesIn: photo.size });
      }
      const ended = performance.now();
      // Entries are delivered after the task ends: give the last ones a moment.
      await new Promise((r) => setTimeout(r, 300));
      observer.disconnect();
      const photos = [];
      for (const { blob, ms, bytesIn } of outputs) {
        const bitmap = await createImageBitmap(blob);
        photos.push({ ms, bytesIn, bytesOut: blob.size, width: bitmap.width, height: bitmap.height });
        bitmap.close();
      }
      return {
        photos,
        longTasks: longTasks.filter((t) => t.startTime >= started && t.startTime <= ended),
        wallMs: ended - started,
      };
    },
    { where, options: LIBRARY_OPTIONS },
  );
}
