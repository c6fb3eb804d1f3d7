/**
 * The XML the titles are written in: a small element tree, serialised with every attribute and text escaped, and
 * encoded to windows-1251 as the ФНС format requires. The code page's table is taken from the platform's own
 * WHATWG decoder (Node's ICU), so no encoding package is needed; a character the code page lacks is written as a
 * numeric character reference, which an XML reader turns back into the same character (nothing is lost).
 */

export interface XmlElement {
  name: string;
  attrs: [string, string][];
  children: XmlElement[];
  text: string | null;
}

/**
 * An element; attributes whose value is null or undefined are left out (the format's optional attributes), the
 * children that are null are skipped. The attribute order is the order given (the format's documents keep it).
 */
export function el(
  name: string,
  attrs: Record<string, string | number | null | undefined> = {},
  children: (XmlElement | null | false)[] = [],
  text: string | null = null,
): XmlElement {
  const list: [string, string][] = [];
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    list.push([key, String(value)]);
  }
  return { name, attrs: list, children: children.filter((c): c is XmlElement => c !== null && c !== false), text };
}

/**
 * Characters XML 1.0 cannot carry at all (C0 controls but tab, line feed and carriage return; lone surrogates;
 * U+FFFE, U+FFFF) are dropped; `&`, `<`, `>` and `"` are escaped, and tab / line feed / carriage return inside an
 * attribute are written as references so a reader's attribute normalisation keeps them.
 */
export function escapeXml(value: string, attribute: boolean): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) continue;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (attribute && ch === '"') out += '&quot;';
    else if (attribute && code === 0x09) out += '&#9;';
    else if (attribute && code === 0x0a) out += '&#10;';
    else if (code === 0x0d) out += '&#13;';
    else out += ch;
  }
  return out;
}

function write(node: XmlElement, depth: number, lines: string[]): void {
  const pad = '  '.repeat(depth);
  const attrs = node.attrs.map(([k, v]) => ` ${k}="${escapeXml(v, true)}"`).join('');
  if (node.children.length === 0 && node.text === null) {
    lines.push(`${pad}<${node.name}${attrs}/>`);
  } else if (node.children.length === 0) {
    lines.push(`${pad}<${node.name}${attrs}>${escapeXml(node.text ?? '', false)}</${node.name}>`);
  } else {
    lines.push(`${pad}<${node.name}${attrs}>`);
    for (const child of node.children) write(child, depth + 1, lines);
    lines.push(`${pad}</${node.name}>`);
  }
}

/** The document's text with its declaration naming windows-1251 (the encoding `encodeCp1251` then applies). */
export function serialize(root: XmlElement): string {
  const lines = ['<?xml version="1.0" encoding="windows-1251"?>'];
  write(root, 0, lines);
  return `${lines.join('\n')}\n`;
}

let table: Map<number, number> | null = null;

/** Code point → byte for the upper half of windows-1251, from the platform's decoder (built once). */
function cp1251Table(): Map<number, number> {
  if (table) return table;
  const decoder = new TextDecoder('windows-1251');
  const map = new Map<number, number>();
  for (let byte = 0x80; byte <= 0xff; byte += 1) {
    const ch = decoder.decode(Uint8Array.of(byte));
    const code = ch.codePointAt(0) ?? 0xfffd;
    if (code !== 0xfffd) map.set(code, byte);
  }
  table = map;
  return map;
}

/**
 * The text in windows-1251. ASCII is itself; a character of the code page's upper half is its byte; any other
 * (a Latin letter with a diacritic, an emoji) becomes `&#xHEX;` — valid only where the serialiser put text or an
 * attribute value, which is the only place such a character can come from.
 */
export function encodeCp1251(textValue: string): Buffer {
  const map = cp1251Table();
  const bytes: number[] = [];
  for (const ch of textValue) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x80) {
      bytes.push(code);
      continue;
    }
    const byte = map.get(code);
    if (byte !== undefined) {
      bytes.push(byte);
      continue;
    }
    for (const c of `&#x${code.toString(16).toUpperCase()};`) bytes.push(c.charCodeAt(0));
  }
  return Buffer.from(bytes);
}
