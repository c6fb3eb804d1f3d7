/**
 * Pictures made fit for a PDF: pdfkit embeds only JPEG and PNG, and a phone's photo is often WebP, turned by its
 * EXIF, and far bigger than a printed 9 cm needs. Photos become JPEG of at most 1400 px a side, upright; a
 * signature stays a PNG (its transparency). Bytes sharp cannot read give null: the paper leaves that frame empty.
 */
import sharp from 'sharp';

const PHOTO_SIDE = 1400;
/** As the photos' own upload check (server/reports/photos.ts): a decompression bomb is refused, not drawn. */
const MAX_PIXELS = 50_000_000;

export async function photoForPdf(data: Uint8Array | null | undefined): Promise<Buffer | null> {
  if (!data || data.length === 0) return null;
  try {
    return await sharp(data, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize({ width: PHOTO_SIDE, height: PHOTO_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
  } catch {
    return null;
  }
}

export async function signatureForPdf(data: Uint8Array | null | undefined): Promise<Buffer | null> {
  if (!data || data.length === 0) return null;
  try {
    return await sharp(data, { limitInputPixels: MAX_PIXELS }).resize({ width: 800, height: 400, fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  } catch {
    return null;
  }
}
