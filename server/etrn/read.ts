/**
 * Reading a title another party made (the shipper's Т1, the consignee's Т3; docs/documents.md «Received titles»):
 * libxml2's xmllint — the validator the tests judge our own titles with — checks the file is XML and valid against
 * its title's official schema, and writes it in canonical form (UTF-8, every reference resolved, no declaration),
 * which the small reader below turns into an element tree. The file's own encoding (windows-1251 as the format
 * says, or UTF-8) is xmllint's to read from the declaration. A file with a DOCTYPE is refused before any parsing:
 * the format has none, and so no entity of the sender's can expand or reach out.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The official schemas in the repo (server/etrn/schemas, copied from ../shared/etrn). */
export const SCHEMA_FILES = {
  t1: 'etrn-t1-shipper.xsd',
  t2: 'etrn-t2-carrier-accepts.xsd',
  t3: 'etrn-t3-consignee.xsd',
  t4: 'etrn-t4-carrier-delivers.xsd',
} as const;
export type SchemaTitle = keyof typeof SCHEMA_FILES;

export const schemaPath = (title: SchemaTitle): string => fileURLToPath(new URL(`./schemas/${SCHEMA_FILES[title]}`, import.meta.url));

/** xmllint could not be run (not installed): the server cannot check a file, which is not the sender's fault. */
export class ValidatorUnavailable extends Error {}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** xmllint with the file on its standard input (`-`), never touching the network. */
function xmllint(args: string[], input: Buffer): Promise<Run> {
  return new Promise((resolve, reject) => {
    // A file of 2 MB is checked in well under a second; the limit only ends a validator that hangs.
    const child = spawn('xmllint', ['--nonet', ...args, '-'], { stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new ValidatorUnavailable('xmllint is not installed') : error));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    // A child that ends early (a parser error) closes its input: the rest of the write is not our concern.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** xmllint's first message, «строка 12: …» (its `-:12: ` prefix read), without the line-drawing it adds after. */
export function firstProblem(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim());
  const line = lines.find((l) => /^-:\d+:/.test(l)) ?? lines.find((l) => l !== '' && !/validates$|fails to validate$/.test(l)) ?? '';
  const m = /^-:(\d+):\s*(.*)$/.exec(line);
  return (m ? `строка ${m[1]}: ${m[2]}` : line).slice(0, 500);
}

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const unescape = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#x([0-9A-Fa-f]+)|#(\d+));/g, (_m, name: string, hex?: string, dec?: string) => {
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    if (dec) return String.fromCodePoint(parseInt(dec, 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"' }[name as 'amp'];
  });

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=]+="[^"]*")*)\s*(\/?)>|([^<]+)/g;
const ATTR = /([^\s=]+)="([^"]*)"/g;

/**
 * The element tree of a canonical document (xmllint --c14n: double-quoted attributes, only the five references
 * and character references, no CDATA, no DOCTYPE). Not a general XML parser: only ever given xmllint's output.
 */
export function readCanonical(text: string): XmlNode {
  const root: XmlNode = { name: '', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  for (const m of text.matchAll(TOKEN)) {
    const top = stack[stack.length - 1] as XmlNode;
    if (m[1] !== undefined) {
      if (stack.length > 1) stack.pop();
    } else if (m[2] !== undefined) {
      const node: XmlNode = { name: m[2], attrs: {}, children: [], text: '' };
      for (const a of (m[3] ?? '').matchAll(ATTR)) node.attrs[a[1] as string] = unescape(a[2] as string);
      top.children.push(node);
      if (m[4] !== '/') stack.push(node);
    } else if (m[5] !== undefined) {
      top.text += unescape(m[5]);
    }
  }
  const element = root.children[0];
  if (!element) throw new Error('etrn: no root element');
  return element;
}

/** The first descendant along a path of names; `*` matches any one element. */
export function find(node: XmlNode | null | undefined, ...path: string[]): XmlNode | null {
  let current: XmlNode | null = node ?? null;
  for (const name of path) {
    if (!current) return null;
    current = current.children.find((c) => name === '*' || c.name === name) ?? null;
  }
  return current;
}

/** Every child of a name. */
export const all = (node: XmlNode | null, name: string): XmlNode[] => (node ? node.children.filter((c) => c.name === name) : []);

export type Checked = { ok: true; root: XmlNode } | { ok: false; problem: string };

/** Other names of the two encodings a received file may have. */
const ALIASES: Record<string, string> = { cp1251: 'windows-1251', utf8: 'utf-8' };

/** The encoding a file declares (`encoding="…"`), lower-case, by its usual name; UTF-8 when it declares none. */
export function declaredEncoding(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1').replace(/^\xEF\xBB\xBF/, '');
  const name = (/^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? 'utf-8').toLowerCase();
  return ALIASES[name] ?? name;
}

/** The encodings the format allows a received file: windows-1251 as it says, and UTF-8. */
const ENCODINGS = new Set(['windows-1251', 'utf-8']);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Whether the bytes are XML at all; the element tree when they are. Only windows-1251 or UTF-8 files starting with
 * markup are read (no UTF-16, UTF-32 or EBCDIC), so the bytes of a DOCTYPE are plain ASCII wherever it is: a file with
 * one is refused before xmllint reads it (its canonical form would expand entities, a local file's too).
 */
export async function parseXml(bytes: Buffer): Promise<Checked> {
  const body = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  const start = body.findIndex((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
  if (start < 0 || body[start] !== 0x3c) return { ok: false, problem: 'файл не начинается с разметки XML (ожидается кодировка windows-1251 или UTF-8)' };
  const encoding = declaredEncoding(bytes);
  if (!ENCODINGS.has(encoding)) return { ok: false, problem: `кодировка ${encoding} не допускается: ожидается windows-1251 или UTF-8` };
  if (bytes.includes('<!DOCTYPE', 0, 'latin1')) return { ok: false, problem: 'объявление DOCTYPE не допускается форматом' };
  const run = await xmllint(['--c14n'], bytes);
  if (run.code !== 0 || run.stdout.trim() === '') return { ok: false, problem: firstProblem(run.stderr) || 'это не XML' };
  return { ok: true, root: readCanonical(run.stdout) };
}

/** Null when the bytes are valid against the title's schema; else xmllint's first complaint. */
export async function schemaProblem(title: SchemaTitle, bytes: Buffer): Promise<string | null> {
  const run = await xmllint(['--noout', '--schema', schemaPath(title)], bytes);
  return run.code === 0 ? null : firstProblem(run.stderr) || 'файл не соответствует схеме';
}
