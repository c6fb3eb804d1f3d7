/**
 * The perceptual hash, on synthetic 1600×1200 photos of paper tickets lying on a table, drawn from raw pixels:
 * edits of one photo must stay within DUPLICATE_PHOTO_MAX_DISTANCE, distinct photos (even separate shots of tickets
 * with the same layout) above it by MARGIN.
 */
import sharp from 'sharp';
import { seededRandom } from '../fixtures/random.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_PHOTO_MAX_DISTANCE, hammingDistance, perceptualHash } from '../../server/reports/phash.ts';

const W = 1600;
const H = 1200;
/** A distinct photo must be at least this many bits beyond the threshold (the measured gap; see the threshold). */
const MARGIN = 2;


type Rgb = readonly [number, number, number];

class Canvas {
  readonly px = new Float32Array(W * H * 3);

  rect(x: number, y: number, w: number, h: number, [r, g, b]: Rgb, alpha = 1) {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(W, Math.round(x + w));
    const y1 = Math.min(H, Math.round(y + h));
    for (let j = y0; j < y1; j++) {
      for (let i = x0; i < x1; i++) {
        const o = (j * W + i) * 3;
        this.px[o] = this.px[o]! * (1 - alpha) + r * alpha;
        this.px[o + 1] = this.px[o + 1]! * (1 - alpha) + g * alpha;
        this.px[o + 2] = this.px[o + 2]! * (1 - alpha) + b * alpha;
      }
    }
  }

  ring(cx: number, cy: number, radius: number, width: number, [r, g, b]: Rgb, alpha: number) {
    for (let j = Math.max(0, cy - radius); j < Math.min(H, cy + radius); j++) {
      for (let i = Math.max(0, cx - radius); i < Math.min(W, cx + radius); i++) {
        const d = Math.hypot(i - cx, j - cy);
        if (d > radius || d < radius - width) continue;
        const o = (j * W + i) * 3;
        this.px[o] = this.px[o]! * (1 - alpha) + r * alpha;
        this.px[o + 1] = this.px[o + 1]! * (1 - alpha) + g * alpha;
        this.px[o + 2] = this.px[o + 2]! * (1 - alpha) + b * alpha;
      }
    }
  }

  /** Uneven light (a linear falloff from `light`), sensor noise, then 8-bit pixels. */
  finish(random: () => number, light: { x: number; y: number; falloff: number }, noise: number): Buffer {
    const out = Buffer.alloc(W * H * 3);
    const reach = Math.hypot(W, H);
    for (let j = 0; j < H; j++) {
      for (let i = 0; i < W; i++) {
        const shade = 1 - (light.falloff * Math.hypot(i - light.x, j - light.y)) / reach;
        const n = (random() - 0.5) * noise;
        const o = (j * W + i) * 3;
        for (let c = 0; c < 3; c++) out[o + c] = Math.max(0, Math.min(255, Math.round(this.px[o + c]! * shade + n)));
      }
    }
    return out;
  }
}

interface Layout {
  /** The paper's box in the frame. */
  paper: { x: number; y: number; w: number; h: number };
  table: Rgb;
  /** Rows of the header band (a dark printed logo block) and of the text, as fractions of the paper height. */
  header: number;
  lines: number;
  /** Big printed weight digits: their row (fraction of paper height) and count. */
  digitsRow: number;
  digits: number;
  stamp: boolean;
  light: { x: number; y: number; falloff: number };
}

const TICKET_A: Layout = {
  paper: { x: 260, y: 90, w: 1080, h: 1020 },
  table: [92, 70, 52],
  header: 0.14,
  lines: 14,
  digitsRow: 0.62,
  digits: 5,
  stamp: true,
  light: { x: 300, y: 100, falloff: 0.35 },
};

const TICKET_B: Layout = {
  paper: { x: 420, y: 40, w: 820, h: 1130 },
  table: [140, 140, 136],
  header: 0.08,
  lines: 22,
  digitsRow: 0.3,
  digits: 4,
  stamp: false,
  light: { x: 1500, y: 1100, falloff: 0.3 },
};

/** How one hand-held shot frames the ticket: the paper's shift (px) and scale about its centre. */
interface Shot {
  dx: number;
  dy: number;
  scale: number;
}
const SAME_SHOT: Shot = { dx: 0, dy: 0, scale: 1 };

/**
 * A printed ticket on a table; `seed` picks the words on each line, the digits and the stamp, the layout stays;
 * `shot` moves the paper in the frame as a separate hand-held photo would.
 */
function ticket(layout: Layout, seed: number, shot: Shot = SAME_SHOT): Buffer {
  const random = seededRandom(seed);
  const c = new Canvas();
  // The table: a wood-like gradient with grain.
  const [tr, tg, tb] = layout.table;
  for (let j = 0; j < H; j++) {
    const grain = 10 * Math.sin(j / 9 + 3 * Math.sin(j / 140)) + (j / H) * 25;
    c.rect(0, j, W, 1, [tr + grain, tg + grain, tb + grain]);
  }
  const { paper } = layout;
  const w = paper.w * shot.scale;
  const h = paper.h * shot.scale;
  const x = paper.x + (paper.w - w) / 2 + shot.dx;
  const y = paper.y + (paper.h - h) / 2 + shot.dy;
  c.rect(x + 14, y + 18, w, h, [20, 20, 20], 0.35); // shadow
  c.rect(x, y, w, h, [236, 232, 220]);
  const pad = w * 0.07;
  // The header: a logo block and the company name.
  const headerH = h * layout.header;
  c.rect(x + pad, y + pad * 0.6, headerH * 0.9, headerH * 0.9, [40, 50, 90]);
  c.rect(x + pad + headerH, y + pad * 0.6 + headerH * 0.2, w * 0.45, headerH * 0.25, [30, 30, 30]);
  // Lines of text: words as short dark bars of random length, lines of random fill.
  const top = y + pad * 0.6 + headerH + h * 0.03;
  const lineH = (h * 0.88 - headerH) / (layout.lines + 3);
  for (let line = 0; line < layout.lines; line++) {
    const ly = top + line * lineH;
    if (Math.abs(ly - (y + h * layout.digitsRow)) < lineH * 2) continue; // room for the digits
    let wx = x + pad;
    const end = x + pad + (w - 2 * pad) * (0.35 + 0.65 * random());
    while (wx < end) {
      const ww = 18 + random() * 110;
      c.rect(wx, ly, Math.min(ww, end - wx), lineH * 0.42, [35, 35, 40]);
      wx += ww + 14 + random() * 10;
    }
  }
  // The weight: big seven-segment digits.
  const dh = lineH * 3.2;
  const dw = dh * 0.55;
  const dy = y + h * layout.digitsRow - dh / 2;
  const segments = [0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f];
  const t = dw * 0.18;
  for (let d = 0; d < layout.digits; d++) {
    const bits = segments[Math.floor(random() * 10)]!;
    const dx = x + w - pad - (layout.digits - d) * (dw + t * 1.5);
    const seg = [
      [dx, dy, dw, t],
      [dx + dw - t, dy, t, dh / 2],
      [dx + dw - t, dy + dh / 2, t, dh / 2],
      [dx, dy + dh - t, dw, t],
      [dx, dy + dh / 2, t, dh / 2],
      [dx, dy, t, dh / 2],
      [dx, dy + dh / 2 - t / 2, dw, t],
    ] as const;
    seg.forEach(([sx, sy, sw, sh], k) => {
      if (bits & (1 << k)) c.rect(sx, sy, sw, sh, [20, 20, 25]);
    });
  }
  // A blue ink stamp and a signature scrawl, both placed by the seed.
  if (layout.stamp) {
    const sx = Math.round(x + w * (0.2 + 0.3 * random()));
    const sy = Math.round(y + h * (0.75 + 0.12 * random()));
    c.ring(sx, sy, 110, 14, [40, 60, 160], 0.6);
  }
  for (let k = 0; k < 12; k++) {
    c.rect(x + w * 0.55 + k * 22 + random() * 8, y + h * 0.9 + Math.sin(k + seed) * 15, 24, 5, [30, 40, 120], 0.8);
  }
  return c.finish(random, layout.light, 14);
}

/** Not a ticket: a lorry's side under the sky, for a photo of another kind. */
function lorry(seed: number): Buffer {
  const random = seededRandom(seed);
  const c = new Canvas();
  for (let j = 0; j < H; j++) {
    const s = j / H;
    c.rect(0, j, W, 1, j < H * 0.55 ? [120 + 80 * s, 160 + 60 * s, 220] : [90, 85, 75]);
  }
  c.rect(150, 300, 1000, 520, [200, 60, 40]); // trailer
  c.rect(1170, 420, 300, 400, [230, 230, 235]); // cab
  c.rect(1230, 450, 180, 140, [60, 80, 110]); // window
  for (const wx of [300, 520, 950, 1320]) c.ring(wx, 860, 90, 60, [25, 25, 25], 1);
  for (let k = 0; k < 6; k++) c.rect(200 + k * 160 + random() * 20, 360, 8, 400, [160, 45, 30]);
  return c.finish(random, { x: 0, y: 0, falloff: 0.2 }, 12);
}

const CROP_X = Math.round(W * 0.03);
const CROP_Y = Math.round(H * 0.03);

/** The edits that must leave a photo "the same picture". */
const EDITS: Record<string, (jpeg: Buffer) => Promise<Buffer>> = {
  'JPEG q60': (jpeg) => sharp(jpeg).jpeg({ quality: 60 }).toBuffer(),
  'crop 3 % each side + q60': (jpeg) =>
    sharp(jpeg)
      .extract({ left: CROP_X, top: CROP_Y, width: W - 2 * CROP_X, height: H - 2 * CROP_Y })
      .jpeg({ quality: 60 })
      .toBuffer(),
  '50 % + q75': (jpeg) =>
    sharp(jpeg)
      .resize(W / 2, H / 2)
      .jpeg({ quality: 75 })
      .toBuffer(),
  'brightness ×1.1 + q75': (jpeg) => sharp(jpeg).modulate({ brightness: 1.1 }).jpeg({ quality: 75 }).toBuffer(),
  // Orientation 6: the stored pixels are to be turned 90° clockwise for display, so store them turned back.
  'sideways + EXIF orientation 6': (jpeg) =>
    sharp(jpeg).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer(),
};

describe('perceptualHash', () => {
  /** The "camera" photos (JPEG at quality 90) and their hashes. */
  const photos: { name: string; jpeg: Buffer; hash: string }[] = [];
  /** The same layout shot with exactly the same framing as ticket A #1: only the printed content differs. */
  let sameFraming: { jpeg: Buffer; hash: string };

  const photo = async (pixels: Buffer) => {
    const jpeg = await sharp(pixels, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    return { jpeg, hash: await perceptualHash(jpeg) };
  };

  beforeAll(async () => {
    const sources: [string, Buffer][] = [
      ['ticket A #1', ticket(TICKET_A, 1)],
      ['ticket A #2', ticket(TICKET_A, 2, { dx: 50, dy: -30, scale: 0.97 })],
      ['ticket A #3', ticket(TICKET_A, 3, { dx: -60, dy: 25, scale: 1.03 })],
      ['ticket B #1', ticket(TICKET_B, 11)],
      ['ticket B #2', ticket(TICKET_B, 12, { dx: -45, dy: 30, scale: 0.97 })],
      ['ticket A on a grey table', ticket({ ...TICKET_A, table: TICKET_B.table, light: TICKET_B.light }, 21)],
      ['ticket A closer', ticket(TICKET_A, 22, { dx: -40, dy: 20, scale: 1.12 })],
      ['lorry', lorry(31)],
    ];
    for (const [name, pixels] of sources) photos.push({ name, ...(await photo(pixels)) });
    sameFraming = await photo(ticket(TICKET_A, 2));
  }, 60_000);

  it('is 16 lowercase hex digits and the same on every call', async () => {
    for (const { jpeg, hash } of photos) {
      expect(hash).toMatch(/^[0-9a-f]{16}$/);
      expect(await perceptualHash(jpeg)).toBe(hash);
      expect(await perceptualHash(Buffer.from(jpeg))).toBe(hash);
      expect(hammingDistance(hash, hash)).toBe(0);
    }
  });

  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(hammingDistance('00000000ffffffff', '0000000100000000')).toBe(33);
    expect(() => hammingDistance('abc', '0000000000000000')).toThrow();
  });

  // One test per edit, each over every photo: JPEG q60; a 3 % crop on each side; a 50 % downscale; brightness ×1.1;
  // a sideways photo tagged with EXIF orientation 6, which must hash as the upright one.
  it.each(Object.keys(EDITS))('keeps every photo within the threshold after: %s', async (edit) => {
    const distances: { name: string; distance: number }[] = [];
    for (const { name, jpeg, hash } of photos) {
      distances.push({ name, distance: hammingDistance(hash, await perceptualHash(await EDITS[edit]!(jpeg))) });
    }
    const list = distances.map((d) => `${d.name}: ${d.distance}`).join(', ');
    console.info(`phash near-duplicates, ${edit} (threshold ${DUPLICATE_PHOTO_MAX_DISTANCE}): ${list}`);
    for (const { name, distance } of distances) {
      expect(distance, `${edit} of ${name}`).toBeLessThanOrEqual(DUPLICATE_PHOTO_MAX_DISTANCE);
    }
  });

  it('reads the EXIF tag: the sideways pixels without it are another picture', async () => {
    const sideways = await EDITS['sideways + EXIF orientation 6']!(photos[0]!.jpeg);
    const meta = await sharp(sideways).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([H, W, 6]);
    const untagged = await sharp(photos[0]!.jpeg).rotate(270).jpeg({ quality: 90 }).toBuffer();
    expect(hammingDistance(photos[0]!.hash, await perceptualHash(untagged))).toBeGreaterThan(
      DUPLICATE_PHOTO_MAX_DISTANCE + MARGIN,
    );
  });

  it('keeps every pair of distinct photos above the threshold, with a margin', () => {
    expect(photos.length).toBeGreaterThanOrEqual(6);
    const pairs: { pair: string; distance: number }[] = [];
    for (let i = 0; i < photos.length; i++) {
      for (let j = i + 1; j < photos.length; j++) {
        const [a, b] = [photos[i]!, photos[j]!];
        pairs.push({ pair: `${a.name} / ${b.name}`, distance: hammingDistance(a.hash, b.hash) });
      }
    }
    pairs.sort((p, q) => p.distance - q.distance);
    const lines = pairs.map((p) => `  ${p.distance}\t${p.pair}`).join('\n');
    console.info(`phash distinct pairs (threshold ${DUPLICATE_PHOTO_MAX_DISTANCE}, margin ${MARGIN}):\n${lines}`);
    for (const { pair, distance } of pairs) {
      expect(distance, pair).toBeGreaterThanOrEqual(DUPLICATE_PHOTO_MAX_DISTANCE + MARGIN);
    }
  });

  it('reports (does not assert) two tickets of one layout framed identically: pHash sees layout, not print', () => {
    // A global low-frequency hash cannot tell these apart from a re-encode of one photo; what separates two real
    // photos of such tickets is that no two hand-held shots frame the paper the same (the pairs above).
    const distance = hammingDistance(photos[0]!.hash, sameFraming.hash);
    console.info(`phash same layout, same framing, other print: ${distance} bits (threshold ${DUPLICATE_PHOTO_MAX_DISTANCE})`);
  });

  it('takes a few milliseconds per 1600×1200 JPEG (reported, not asserted)', async () => {
    const { jpeg } = photos[0]!;
    await perceptualHash(jpeg); // warm up
    const runs = 20;
    const start = performance.now();
    for (let k = 0; k < runs; k++) await perceptualHash(jpeg);
    console.info(`phash: ${((performance.now() - start) / runs).toFixed(1)} ms per 1600×1200 JPEG (mean of ${runs})`);
  });
});
