/**
 * Exports (server/routes/EXPORTS.md) and the /table viewer: POST starts a job (202), GET tells its progress,
 * /download answers the file or nothing yet (204); a signed link opens the file in /table. The /table and
 * /onlyoffice calls are open to anyone (roles: null): the link's token is their credential, checked by the
 * handler. Files (xlsx) are fetched with `downloadOnce`. An export changes no data: nobody hears of it.
 */
import { answer, area, GET, POST } from '../call.ts';
import { STAFF } from '../roles.ts';
import { exportRequestSchema, tableFileQuerySchema, tableRowsQuerySchema, type ExportJob, type OnlyOfficeConfig, type TableLink, type TableRows } from '../exports.ts';

export const exportCalls = area(
  /** The task list's filters; the job runs in the background. */
  POST('/tasks/completed/export', { roles: STAFF, body: exportRequestSchema, status: 202, answer: answer<ExportJob>() }),
  GET('/tasks/completed/export/:id', { roles: STAFF, answer: answer<ExportJob>() }),
  /** The file (an attachment), or 204 while it is not ready. */
  GET('/tasks/completed/export/:id/download', { roles: STAFF, answer: answer<unknown>() }),
  /** A short-lived signed link to /table; 409 while the job is not done. */
  POST('/tasks/completed/export/:id/table-link', { roles: STAFF, answer: answer<TableLink>() }),
  GET('/table/rows', { roles: null, query: tableRowsQuerySchema, answer: answer<TableRows>() }),
  /** The file itself (an attachment), for the OnlyOffice Docs server. */
  GET('/table/file', { roles: null, query: tableFileQuerySchema, answer: answer<unknown>() }),
  GET('/onlyoffice/config', { roles: null, query: tableFileQuerySchema, answer: answer<OnlyOfficeConfig>() }),
);
