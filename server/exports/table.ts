/**
 * /table: a short-lived signed link to one export file, and that file's rows read back for the built-in grid.
 * A token names one file; it never opens another, and it expires after TABLE_LINK_TTL_S. A bad or old link
 * answers 403 (not 401): it is the link that is refused, and a signed-in engine must not refresh its own session for it.
 */
import { SignJWT, errors, jwtVerify } from 'jose';
import ExcelJS from 'exceljs';
import type { FileStorage } from '../files/storage.ts';
import { HttpError } from '../errors.ts';

export const TABLE_LINK_TTL_S = 15 * 60;
const AUDIENCE = 'table';

export async function signTableToken(secret: string, fileId: number, ttlSeconds = TABLE_LINK_TTL_S): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  const token = await new SignJWT({ file_id: fileId })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(new TextEncoder().encode(secret));
  return { token, expiresAt };
}

export async function checkTableToken(secret: string, token: string, fileId: number): Promise<void> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], audience: AUDIENCE, requiredClaims: ['exp'] });
    if (payload.file_id !== fileId) throw new HttpError(403, 'Эта ссылка открывает другую таблицу');
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof errors.JWTExpired) throw new HttpError(403, 'Ссылка устарела. Откройте таблицу из консоли ещё раз.');
    if (error instanceof errors.JOSEError) throw new HttpError(403, 'Ссылка на таблицу недействительна. Откройте таблицу из консоли ещё раз.');
    throw error;
  }
}

type Cell = string | number | null;

export interface SheetData {
  sheet: string;
  columns: string[];
  rows: Cell[][];
  /** The last row when it holds formulas (the export's totals): kept out of the rows, so sorting leaves it last. */
  footer: Cell[] | null;
}

/** dd.mm.yyyy → yyyymmdd, so dates sort as dates. */
const sortable = (v: Cell): Cell => (typeof v === 'string' && /^\d{2}\.\d{2}\.\d{4}$/.test(v) ? `${v.slice(6)}${v.slice(3, 5)}${v.slice(0, 2)}` : v);
const collator = new Intl.Collator('ru', { numeric: true, sensitivity: 'base' });

/** The rows sorted by one column: numbers as numbers, text in Russian order, empty cells last either way. */
export function sortRows(rows: readonly Cell[][], column: number, desc: boolean): Cell[][] {
  return rows
    .map((row, index) => ({ row, index, key: sortable(row[column] ?? null) }))
    .sort((a, b) => {
      if (a.key === null || b.key === null) return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
      const order = typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : collator.compare(String(a.key), String(b.key));
      return (desc ? -order : order) || a.index - b.index;
    })
    .map((entry) => entry.row);
}

function cellValue(value: ExcelJS.CellValue): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (value instanceof Date) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(value.getUTCDate())}.${pad(value.getUTCMonth() + 1)}.${value.getUTCFullYear()}`;
  }
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (typeof value === 'object' && 'text' in value) return String(value.text);
  if (typeof value === 'object' && 'result' in value) return cellValue(value.result as ExcelJS.CellValue);
  return String(value);
}

/** Reads the first sheet of a stored xlsx with the streaming reader. */
export async function readSheet(storage: FileStorage, key: string): Promise<SheetData> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(storage.read(key), { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore' });
  let sheetName = '';
  let columns: string[] = [];
  const rows: Cell[][] = [];
  let footer: Cell[] | null = null;
  for await (const worksheet of reader) {
    sheetName = (worksheet as unknown as { name?: string }).name ?? 'Лист1';
    for await (const row of worksheet) {
      const raw = (row.values as ExcelJS.CellValue[]).slice(1);
      if (row.number === 1) {
        columns = raw.map((v) => (v === null || v === undefined ? '' : String(cellValue(v))));
        continue;
      }
      // Every row as wide as the header: a reader drops trailing empty cells.
      const values = Array.from({ length: columns.length }, (_, i) => cellValue(raw[i] ?? null));
      if (raw.some((v) => typeof v === 'object' && v !== null && 'formula' in v)) footer = values;
      else rows.push(values);
    }
    break;
  }
  return { sheet: sheetName || 'Лист1', columns, rows, footer };
}

/** Parsed sheets, kept briefly: a grid scrolls through pages of the same file. */
export class SheetCache {
  private readonly entries = new Map<string, { at: number; data: Promise<SheetData> }>();
  constructor(
    private readonly storage: FileStorage,
    private readonly ttlMs = 5 * 60 * 1000,
    private readonly max = 4,
  ) {}

  get(key: string): Promise<SheetData> {
    const now = Date.now();
    for (const [k, entry] of this.entries) if (now - entry.at > this.ttlMs) this.entries.delete(k);
    const hit = this.entries.get(key);
    if (hit) return hit.data;
    const data = readSheet(this.storage, key);
    data.catch(() => this.entries.delete(key));
    this.entries.set(key, { at: now, data });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return data;
  }

  /** The sheet's rows sorted by a column, kept with the sheet: a grid scrolling a sorted view sorts once. */
  async sorted(key: string, column: number, desc: boolean): Promise<Cell[][]> {
    const data = await this.get(key);
    const memo = (this.sorts.get(data) ?? new Map<string, Cell[][]>());
    this.sorts.set(data, memo);
    const id = `${column}:${desc ? 1 : 0}`;
    const hit = memo.get(id) ?? sortRows(data.rows, column, desc);
    memo.set(id, hit);
    return hit;
  }

  private readonly sorts = new WeakMap<SheetData, Map<string, Cell[][]>>();
}
