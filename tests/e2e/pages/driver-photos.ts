/**
 * Real camera-sized photos for the report tests: a 4000×3000 JPEG drawn on a canvas in the page and taken as
 * bytes, with enough detail (gradients, shapes, grain) that compression has real work to do.
 */
import type { Browser, Page } from 'playwright-core';
import type { PhotoFile } from './driver-tasks.ts';

export const CAMERA_WIDTH = 4000;
export const CAMERA_HEIGHT = 3000;

export async function makeCameraJpeg(page: Page, seed: number): Promise<PhotoFile> {
  const base64 = await page.evaluate(
    async ({ width, height, seed }) => {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      const gradient = ctx.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, `hsl(${(seed * 67) % 360} 60% 45%)`);
      gradient.addColorStop(1, `hsl(${(seed * 67 + 140) % 360} 50% 70%)`);
      ctx.fillStyle = gradient;
      ctx.fillRect(0, 0, width, height);
      // A small deterministic generator, so every run draws the same picture for the same seed.
      let state = seed * 2654435761;
      const random = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
      for (let i = 0; i < 400; i++) {
        ctx.fillStyle = `hsla(${random() * 360} 70% 50% / 0.6)`;
        ctx.beginPath();
        ctx.arc(random() * width, random() * height, 20 + random() * 300, 0, Math.PI * 2);
        ctx.fill();
      }
      // Grain in horizontal bands: a photo is never flat, and flat areas would compress to nothing.
      const band = ctx.getImageData(0, 0, width, 100);
      for (let p = 0; p < band.data.length; p += 4) {
        const grain = (random() - 0.5) * 60;
        band.data[p] = Math.max(0, Math.min(255, band.data[p]! + grain));
        band.data[p + 1] = Math.max(0, Math.min(255, band.data[p + 1]! + grain));
      }
      for (let y = 0; y < height; y += 300) ctx.putImageData(band, 0, y);
      ctx.fillStyle = '#fff';
      ctx.font = 'bold 400px sans-serif';
      ctx.fillText(`Фото ${seed}`, 200, height / 2);
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    },
    { width: CAMERA_WIDTH, height: CAMERA_HEIGHT, seed },
  );
  return { name: `IMG_${4000 + seed}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from(base64, 'base64') };
}

export async function makeCameraJpegs(page: Page, count: number): Promise<PhotoFile[]> {
  const photos: PhotoFile[] = [];
  for (let seed = 1; seed <= count; seed++) photos.push(await makeCameraJpeg(page, seed));
  return photos;
}

/** Photos made once per file: drawing and encoding 12 MP takes about a second each. */
export async function cameraPhotos(browser: Browser, count: number): Promise<PhotoFile[]> {
  const context = await browser.newContext();
  try {
    return await makeCameraJpegs(await context.newPage(), count);
  } finally {
    await context.close();
  }
}

const UNIT_BYTES: Record<string, number> = { Б: 1, КБ: 1024, МБ: 1024 * 1024 };

/**
 * A new photo's caption in the report form, «3,1 МБ → 186 КБ» (ui/format.ts formatBytes), as bytes before and
 * after the engine's compression.
 */
export function captionSizes(caption: string): { original: number; compressed: number } {
  const sizes = caption.split('→').map((part) => {
    const match = /^\s*([\d,]+)\s(Б|КБ|МБ)\s*$/.exec(part);
    if (!match) throw new Error(`not a photo size caption: ${caption}`);
    return Number(match[1]!.replace(',', '.')) * UNIT_BYTES[match[2]!]!;
  });
  if (sizes.length !== 2) throw new Error(`not a compressed photo's caption: ${caption}`);
  return { original: sizes[0]!, compressed: sizes[1]! };
}
