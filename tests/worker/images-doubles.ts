/**
 * A browser double for the real browser-image-compression code in Node: a decoder (createImageBitmap) and
 * an encoder (OffscreenCanvas.convertToBlob) that work on header-only JPEGs, plus the worker globals the
 * library inspects when it is imported (WorkerGlobalScope, self, FileReader, navigator).
 * A "photo" here is a valid JPEG header (SOI, APP0 or EXIF APP1, SOF0, SOS, EOI) without pixels: its size
 * is what a real decoder would report, so the library's resizing arithmetic runs for real.
 */
import { vi } from 'vitest';

export interface Encoded {
  width: number;
  height: number;
  type: string;
  quality: number | undefined;
}

/** Every image the double encoder produced, in order. */
export const encoded: Encoded[] = [];

const u16 = (n: number): number[] => [(n >> 8) & 0xff, n & 0xff];

export function fakeJpeg(width: number, height: number, orientation?: number): Uint8Array<ArrayBuffer> {
  const app =
    orientation === undefined
      ? [0xff, 0xe0, ...u16(16), 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
      : [
          0xff, 0xe1, ...u16(34), 0x45, 0x78, 0x69, 0x66, 0, 0, // "Exif\0\0"
          0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, // big-endian TIFF header, IFD0 at 8
          0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, ...u16(orientation), 0, 0, // one entry: Orientation
          0, 0, 0, 0,
        ];
  const sof = [0xff, 0xc0, ...u16(17), 8, ...u16(height), ...u16(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  const sos = [0xff, 0xda, ...u16(12), 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0];
  return new Uint8Array([0xff, 0xd8, ...app, ...sof, ...sos, 0, 0, 0, 0, 0xff, 0xd9]);
}

export function jpegBlob(width: number, height: number, orientation?: number): Blob {
  return new Blob([fakeJpeg(width, height, orientation)], { type: 'image/jpeg' });
}

/**
 * Reads a JPEG's frame size and EXIF orientation leniently (a byte scan, not a segment walk), because the
 * library's own orientation probe image has a DQT length that a strict parser rejects and Chromium accepts.
 */
export function readJpeg(bytes: Uint8Array): { width: number; height: number; orientation: number } | null {
  const at = (i: number): number => ((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0);
  if (at(0) !== 0xffd8) return null;
  let size: { width: number; height: number } | null = null;
  for (let i = 2; i + 8 < bytes.length; i++) {
    if (bytes[i] === 0xff && [0xc0, 0xc1, 0xc2].includes(bytes[i + 1] ?? 0) && at(i + 2) === 17) {
      size = { height: at(i + 5), width: at(i + 7) };
      break;
    }
  }
  if (!size) return null;
  let orientation = 1;
  const exif = bytes.findIndex((b, i) => b === 0x45 && bytes[i + 1] === 0x78 && bytes[i + 2] === 0x69 && bytes[i + 3] === 0x66);
  if (exif >= 0 && at(exif + 6) === 0x4d4d) {
    const ifd = exif + 6 + ((at(exif + 10) << 16) | at(exif + 12));
    for (let e = 0; e < at(ifd); e++) {
      const entry = ifd + 2 + e * 12;
      if (at(entry) === 0x0112) orientation = at(entry + 8);
    }
  }
  return { ...size, orientation };
}

/** Chromium's createImageBitmap: decodes, applies EXIF orientation, rejects what it cannot decode. */
async function createImageBitmapDouble(source: Blob): Promise<{ width: number; height: number; close(): void }> {
  const info = readJpeg(new Uint8Array(await source.arrayBuffer()));
  if (!info) throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
  const turned = info.orientation >= 5 && info.orientation <= 8;
  return { width: turned ? info.height : info.width, height: turned ? info.width : info.height, close() {} };
}

/** OffscreenCanvas with 2D drawing as no-ops; sizes truncate like the DOM's `unsigned long`. */
class OffscreenCanvasDouble {
  #width = 0;
  #height = 0;
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
  }
  get width(): number { return this.#width; }
  set width(v: number) { this.#width = Math.trunc(v) >>> 0; }
  get height(): number { return this.#height; }
  set height(v: number) { this.#height = Math.trunc(v) >>> 0; }
  getContext(): object {
    return { fillStyle: '', fillRect() {}, drawImage() {}, translate() {}, rotate() {}, scale() {}, transform() {} };
  }
  async convertToBlob(options: { type?: string; quality?: number } = {}): Promise<Blob> {
    const type = options.type ?? 'image/png';
    encoded.push({ width: this.#width, height: this.#height, type, quality: options.quality });
    return new Blob([fakeJpeg(this.#width, this.#height)], { type });
  }
}

class FileReaderDouble {
  result: ArrayBuffer | string | null = null;
  onload: ((event: { target: FileReaderDouble }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readAsArrayBuffer(blob: Blob): void {
    void blob.arrayBuffer().then((buffer) => {
      this.result = buffer;
      this.onload?.({ target: this });
    }, (e: unknown) => this.onerror?.(e));
  }
  readAsDataURL(blob: Blob): void {
    void blob.arrayBuffer().then((buffer) => {
      this.result = `data:${blob.type};base64,${btoa(String.fromCharCode(...new Uint8Array(buffer)))}`;
      this.onload?.({ target: this });
    }, (e: unknown) => this.onerror?.(e));
  }
}

/** Makes this Node process look like Chromium's engine worker. Call before importing the library. */
export function installWorkerBrowserDouble(): void {
  vi.stubGlobal('WorkerGlobalScope', class { static [Symbol.hasInstance](): boolean { return true; } });
  vi.stubGlobal('self', globalThis);
  vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36', platform: 'Linux x86_64' });
  vi.stubGlobal('FileReader', FileReaderDouble);
  vi.stubGlobal('createImageBitmap', createImageBitmapDouble);
  vi.stubGlobal('OffscreenCanvas', OffscreenCanvasDouble);
}
