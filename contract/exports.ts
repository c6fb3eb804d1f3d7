/** Export jobs (docs/product.md §7) and the /table viewer's answers. */
import { z } from 'zod';
import { completedQuerySchema } from './driver.ts';
import { MAX_ID, wireId, wireInt } from './fields.ts';

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export interface ExportJob {
  id: number;
  status: ExportStatus;
  rows_written: number;
  /** Known once the job has counted its rows. */
  rows_total: number | null;
  filename: string | null;
  /** Russian, for a failed job. */
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** POST /tasks/completed/export: the task list's own filters (no paging: the export is all of them). */
export const exportRequestSchema = completedQuerySchema
  .pick({ search: true, status: true, ordering: true, date_from: true, date_to: true })
  .extend({
    company_id: z.number({ message: 'ожидается номер компании' }).int().positive().optional(),
    counterparty_id: z.number({ message: 'ожидается номер контрагента' }).int().positive().optional(),
    place_id: z.number({ message: 'ожидается номер места' }).int().positive().optional(),
  })
  .strict();
export type ExportRequest = z.input<typeof exportRequestSchema>;

/** POST /tasks/completed/export/{id}/table-link. */
export interface TableLink {
  url: string;
  expires_at: string;
}

/** GET /table/rows: a page of the stored sheet. */
export interface TableRows {
  sheet: string;
  title: string;
  columns: string[];
  rows: (string | number | null)[][];
  /** Data rows (the totals row is not one of them). */
  total: number;
  offset: number;
  /** The sheet's totals row (its SUM formulas' results), shown pinned below the rows; null without one. */
  footer: (string | number | null)[] | null;
}

/** GET /table/file, GET /onlyoffice/config: the signed link's file and token (its credential, EXPORTS.md). */
export const tableFileQuerySchema = z.object({
  file_id: wireId('ожидается номер файла'),
  token: z.string({ message: 'нет ссылки доступа' }).min(10, 'нет ссылки доступа').max(2000),
});

/** GET /table/rows: the link's file and token, and which rows. */
export const tableRowsQuerySchema = tableFileQuerySchema.extend({
  offset: wireInt(0, MAX_ID).default(0),
  limit: wireInt(1, 500).default(200),
  /** Sort by this column (0-based), ascending unless `desc` is 1; left out, the file's order. */
  sort: wireInt(0, 200).optional(),
  desc: z.enum(['0', '1'], { message: 'ожидается 0 или 1' }).optional(),
});

/** GET /onlyoffice/config: the Docs server's address (null: none configured, the built-in grid) and the editor's config. */
export interface OnlyOfficeConfig {
  server_url: string | null;
  config: Record<string, unknown>;
}
