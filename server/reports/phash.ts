/**
 * A 64-bit perceptual hash (DCT pHash) of a photo, to tell that two uploads are the same picture even after
 * re-encoding, rescaling, a slight crop or a brightness change.
 *
 * The photo is oriented by its EXIF tag, flattened onto white if it has transparency, made grayscale and squeezed
 * to 32×32 (aspect ratio ignored). Its mean is subtracted and its outer quarter on each side faded out with a
 * raised cosine, so what a small crop adds or removes at the borders barely moves the result (measured: the worst
 * 3 % crop went from 14 differing bits to 8). A 2-D DCT-II follows; the 8×8 block of frequencies 1–8 on both axes
 * is kept (row and column 0, pure horizontal or vertical gradients, are left out as in the reference pHash), and
 * each bit is whether a coefficient is above the block's median. Bits are row-major, most significant first.
 */
import sharp from 'sharp';

const SIZE = 32;
/** The kept block: frequencies FIRST … FIRST + BLOCK - 1 on both axes. */
const FIRST = 1;
const BLOCK = 8;
const LAST = FIRST + BLOCK;
/** The share of each side faded out before the DCT. */
const FADE = 0.25;

/**
 * Two photos whose hashes differ in at most this many bits are taken to be the same picture.
 *
 * Measured on synthetic 1600×1200 photos of tickets on a table (tests/server/phash.test.ts): JPEG q60, a 50 %
 * downscale, brightness ×1.1 and an EXIF-rotated copy stay within 2 bits, a 3 % crop on each side within 8 (the
 * worst edit, so the threshold). Distinct photos are 10 bits apart or more: the closest are separate shots of
 * tickets with the same layout, framed ~3 % apart; other tickets are 14+, unrelated photos ~30 (random).
 * Limits: the gap is thin (2 bits); and two tickets of one layout framed exactly alike differ only in print, which
 * this hash barely sees (4 bits), so they count as the same picture.
 */
export const DUPLICATE_PHOTO_MAX_DISTANCE = 8;

/** COS[u * SIZE + x] = cos((2x + 1)uπ / 2·SIZE) for u < LAST; the DCT's scale factors cancel out in the median. */
const COS = (() => {
  const table = new Float64Array(LAST * SIZE);
  for (let u = 0; u < LAST; u++) {
    for (let x = 0; x < SIZE; x++) table[u * SIZE + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE));
  }
  return table;
})();

/** WINDOW[x]: 1 in the middle, falling along a raised cosine to near 0 over the outer FADE of each side. */
const WINDOW = (() => {
  const table = new Float64Array(SIZE);
  for (let x = 0; x < SIZE; x++) {
    const t = Math.min(x + 0.5, SIZE - x - 0.5) / (SIZE * FADE);
    table[x] = t >= 1 ? 1 : 0.5 - 0.5 * Math.cos(Math.PI * t);
  }
  return table;
})();

/** The kept BLOCK×BLOCK coefficients of the 2-D DCT-II of the mean-removed, windowed SIZE×SIZE image, row-major. */
function keptFrequencies(pixels: Uint8Array): Float64Array {
  let mean = 0;
  for (let i = 0; i < SIZE * SIZE; i++) mean += pixels[i]!;
  mean /= SIZE * SIZE;
  const image = new Float64Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) image[y * SIZE + x] = (pixels[y * SIZE + x]! - mean) * WINDOW[x]! * WINDOW[y]!;
  }
  // Rows first: rows[y][v] = Σx image[y][x]·cos_v(x); then columns: out[u][v] = Σy cos_u(y)·rows[y][v].
  const rows = new Float64Array(SIZE * BLOCK);
  for (let y = 0; y < SIZE; y++) {
    for (let v = 0; v < BLOCK; v++) {
      let sum = 0;
      for (let x = 0; x < SIZE; x++) sum += image[y * SIZE + x]! * COS[(FIRST + v) * SIZE + x]!;
      rows[y * BLOCK + v] = sum;
    }
  }
  const out = new Float64Array(BLOCK * BLOCK);
  for (let u = 0; u < BLOCK; u++) {
    for (let v = 0; v < BLOCK; v++) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) sum += COS[(FIRST + u) * SIZE + y]! * rows[y * BLOCK + v]!;
      out[u * BLOCK + v] = sum;
    }
  }
  return out;
}

/** The photo's perceptual hash: 16 lowercase hex digits. Throws for anything sharp cannot decode. */
/** `maxPixels`: a larger image is refused by sharp before decoding (photos.ts checks it first anyway). */
export async function perceptualHash(input: Buffer | string, maxPixels = 50_000_000): Promise<string> {
  const { data, info } = await sharp(input, { limitInputPixels: maxPixels })
    .rotate()
    .flatten({ background: '#ffffff' })
    .grayscale()
    .resize(SIZE, SIZE, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.width !== SIZE || info.height !== SIZE || info.channels !== 1) {
    throw new Error(`perceptualHash: unexpected ${info.width}×${info.height}×${info.channels} pixels`);
  }
  const freq = keptFrequencies(data);
  const sorted = Array.from(freq).sort((a, b) => a - b);
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hash = 0n;
  for (let i = 0; i < BLOCK * BLOCK; i++) hash = (hash << 1n) | (freq[i]! > median ? 1n : 0n);
  return hash.toString(16).padStart(16, '0');
}

/** The number of bits in which two hashes from perceptualHash differ (0–64). */
export function hammingDistance(a: string, b: string): number {
  if (!/^[0-9a-f]{16}$/.test(a) || !/^[0-9a-f]{16}$/.test(b)) {
    throw new Error('hammingDistance: expected two 16-digit lowercase hex hashes');
  }
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff) {
    diff &= diff - 1n;
    count++;
  }
  return count;
}

/**
 * The duplicate-photo search's index keys (docs/reports-review.md «Поиск повтора фото»): the hash cut into
 * PHASH_BANDS bands of 20, 20 and 24 bits (5, 5 and 6 hex digits), each indexed with the photo's time as
 * `substr(phash, start, length)` (migration 037). Two hashes at most DUPLICATE_PHOTO_MAX_DISTANCE (8) bits apart
 * differ in at most 2 bits in one of the three bands (else each would differ in 3 or more: 9 > 8), so every
 * possible duplicate has some band within 2 bits of the new photo's: 211 + 211 + 301 = 723 index probes, which
 * match about 0.04 % of the window's photos (2 · 211 / 2^20 + 301 / 2^24) — the old four 16-bit bands (migration
 * 010) matched 0.84 %, twenty times more, and each of those was joined to its report and task.
 */
export const PHASH_BANDS = 3;
/** Each band's first hex digit (0-based) and its length in hex digits. */
const BANDS: readonly { first: number; digits: number }[] = [
  { first: 0, digits: 5 },
  { first: 5, digits: 5 },
  { first: 10, digits: 6 },
];

const band = (i: number) => BANDS[i] as { first: number; digits: number };

/** The SQL expression of band `i` (the index's expression, written the same way so the planner matches it). */
export const bandSql = (i: number, column = 'phash'): string => `substr(${column}, ${band(i).first + 1}, ${band(i).digits})`;

/** Every value of band `i` within 2 bits of `hash`'s (itself first), as the index holds it (lowercase hex). */
export function bandNeighbours(hash: string, i: number): string[] {
  const { first, digits } = band(i);
  const bits = 4 * digits;
  const value = Number.parseInt(hash.slice(first, first + digits), 16);
  const out = [value];
  for (let a = 0; a < bits; a++) {
    out.push(value ^ (2 ** a));
    for (let b = a + 1; b < bits; b++) out.push(value ^ (2 ** a) ^ (2 ** b));
  }
  return out.map((v) => v.toString(16).padStart(digits, '0'));
}
