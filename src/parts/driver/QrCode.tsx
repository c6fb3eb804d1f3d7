/**
 * A QR code drawn as one SVG path (qrcode-generator, no dependencies). Loaded lazily by TripWaybills: the library
 * stays out of the driver's initial JS, and the service worker precaches its chunk, so it draws offline too.
 */
import qrcode from 'qrcode-generator';

/** The text as UTF-8 bytes, one char each: the library writes a char's low byte (Latin-1) by default. */
const utf8 = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));

export default function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const qr = qrcode(0, 'M');
  qr.addData(utf8(text), 'Byte');
  qr.make();
  const count = qr.getModuleCount();
  const margin = 4;
  let path = '';
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) if (qr.isDark(row, col)) path += `M${col + margin} ${row + margin}h1v1h-1z`;
  }
  const side = count + margin * 2;
  return (
    <svg className="drv-waybill__qr" role="img" aria-label={label} viewBox={`0 0 ${side} ${side}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
