/**
 * Reports (server/routes/REPORTS.md): a driver's report filed through the outbox (an idempotent multipart POST
 * with photos), its edits, deletes and photos, the reports of one driver's part of a task, the driver's daily
 * hours; and the review of loads (docs/reports-review.md): the company's reports as a paged list with filters,
 * a reviewer's decision on one report, and «approve every clean one» in one action.
 */
import { z } from 'zod';
import { MAX_ID, text, wireId, wireInt } from '../fields.ts';
import { answer, area, DELETE, GET, POST, PUT, PAY } from '../call.ts';
import type { DriverStatus, Page, Report, ReportPhoto, ReportView, ReviewStatus, Task } from '../entities.ts';
import { REVIEW_STATUSES } from '../entities.ts';
import { REPORT_FLAG_FILTERS } from '../report-checks.ts';
import { dailyHoursSchema, isoDate, wagesQuerySchema, type DailyHours } from '../driver.ts';
import { ALL_ROLES, DRIVER_ONLY, STAFF } from '../roles.ts';

/** GET /reports/: filters in the URL; dates are the tasks' dates. */
export const reportListQuerySchema = z.object({
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
  driver_id: wireId('ожидается номер водителя').optional(),
  task_id: wireId('ожидается номер задачи').optional(),
  company_id: wireId('ожидается номер компании').optional(),
  review: z.enum(REVIEW_STATUSES, { message: 'ожидается pending, approved или disputed' }).optional(),
  /**
   * A flag's code; `any`: some flag; `none`: no flag at all; `clean`: no fault flag (information such as a late
   * filing allowed) — what «approve all clean» approves.
   */
  flag: z.enum(REPORT_FLAG_FILTERS, { message: 'неизвестная отметка проверки' }).optional(),
  search: z.string().trim().max(200).optional(),
  limit: wireInt(1, 200).default(50),
  offset: wireInt(0, MAX_ID).default(0),
});
export type ReportListQuery = z.infer<typeof reportListQuerySchema>;

/** A report in the review list: with its driver, its task and its first photo. */
export interface ReportListItem extends Omit<Report, 'photos' | 'idempotency_key'> {
  driver_name: string | null;
  task: { id: number; company_id: number; date: string; cargo: string; loading_place: string; unloading_place: string; unit: string };
  /** Its delivered quantity (docs/loads.md). */
  delivered: number;
  photo_count: number;
  first_photo: ReportPhoto | null;
}

/**
 * GET /reports/disputed/: one of the signed-in driver's reports the dispatcher disputed, on a current or a finished
 * task, with what the driver needs to recognise and correct it: the task and his part's status.
 */
export interface DisputedReport {
  report: Report;
  task: Pick<Task, 'id' | 'date' | 'cargo' | 'loading_place' | 'unloading_place' | 'unit'>;
  association_status: DriverStatus;
}

export const reviewSchema = z
  .object({
    action: z.enum(['approve', 'dispute', 'reopen'], { message: 'ожидается approve, dispute или reopen' }),
    comment: text().max(1000, 'не длиннее 1000 символов').nullish(),
  })
  .strict()
  .refine((v) => v.action !== 'dispute' || (v.comment ?? '').length > 0, { message: 'укажите, что не так с отчётом', path: ['comment'] });
export type ReviewPayload = z.infer<typeof reviewSchema>;

export const approveCleanSchema = z
  .object({
    date_from: isoDate,
    date_to: isoDate,
    driver_id: z.number({ message: 'ожидается номер водителя' }).int().positive().nullish(),
    /** A super-admin names the company; staff approve their own. */
    company_id: z.number({ message: 'ожидается номер компании' }).int().positive().nullish(),
  })
  .strict()
  .refine((v) => v.date_from <= v.date_to, { message: 'начало периода позже конца', path: ['date_to'] });

export interface ReviewCount {
  approved: number;
}

/** GET /reports/{id}/photos: the first photo, or all of them. */
export const reportPhotosQuerySchema = z.object({ mode: z.enum(['single', 'all'], { message: 'ожидается single или all' }).default('single') });
/** DELETE /reports/{id}/photo: which photo, in the query. */
export const reportPhotoIdQuerySchema = z.object({ photo_id: wireId('ожидается номер фото') });

/** What a report's write changes besides the reports: its task's quantities, the pay, the dispatch board. */
const REPORT_STALE = ['tasks', ...PAY, 'dispatch'] as const;

/**
 * A report's filing, edits, deletes and photos, the reports of one driver's part of a task, the daily hours. The
 * form (POST, and PUT with photos) is multipart, read by its handler as it streams (photos to disk, the caps'
 * 400/413 texts), so those two declare no `body`; a PUT may also be JSON (the fields only), parsed there too.
 */
export const reportFilingCalls = area(
  /** The outbox's upload: `Idempotency-Key` header; 201 for a new report, 200 (the same report) for a replay. */
  POST('/reports/', { roles: DRIVER_ONLY, status: 201, answer: answer<Report>(), invalidates: REPORT_STALE, audience: ['association-task:answer.association_id', 'caller'] }),
  PUT('/reports/:id', { roles: ALL_ROLES, answer: answer<Report>(), invalidates: REPORT_STALE, audience: ['report-task:param.id'] }),
  DELETE('/reports/:id', { roles: ALL_ROLES, status: 204, answer: answer<null>(), invalidates: REPORT_STALE, audience: ['report-task:param.id'] }),
  DELETE('/reports/:id/photo', {
    roles: ALL_ROLES,
    query: reportPhotoIdQuerySchema,
    status: 204,
    answer: answer<null>(),
    invalidates: REPORT_STALE,
    audience: ['report-task:param.id'],
  }),
  GET('/reports/:id', { roles: ALL_ROLES, answer: answer<ReportView>() }),
  GET('/reports/:id/photos', { roles: ALL_ROLES, query: reportPhotosQuerySchema, answer: answer<{ photos: ReportPhoto[] }>() }),
  /** The photo's bytes (an image, sent by the handler); the UI downloads it through the engine (photo.url). */
  GET('/reports/photos/:photoId', { roles: ALL_ROLES, answer: answer<unknown>() }),
  GET('/reports/association/:id', { roles: ALL_ROLES, answer: answer<Report[]>() }),
  /** The driver's own disputed reports, the latest dispute first: what waits for his correction. */
  GET('/reports/disputed/', { roles: DRIVER_ONLY, answer: answer<DisputedReport[]>() }),
  POST('/reports/daily_hours/', { roles: DRIVER_ONLY, body: dailyHoursSchema, answer: answer<DailyHours>(), invalidates: REPORT_STALE, audience: ['caller'] }),
  GET('/reports/daily_hours/', { roles: DRIVER_ONLY, query: wagesQuerySchema, answer: answer<DailyHours[]>() }),
);

/** The review of loads. */
export const reportReviewCalls = area(
  GET('/reports/', { roles: STAFF, query: reportListQuerySchema, answer: answer<Page<ReportListItem> & { pending: number }>() }),
  POST('/reports/:id/review', {
    roles: STAFF,
    body: reviewSchema,
    answer: answer<Report>(),
    invalidates: ['tasks', ...PAY],
    audience: ['report-task:param.id'],
  }),
  POST('/reports/review/approve-clean', {
    roles: STAFF,
    body: approveCleanSchema,
    answer: answer<ReviewCount>(),
    invalidates: ['tasks', ...PAY],
    audience: ['caller'],
  }),
);

/** The area's table; the server registers the filing calls in the scope that parses multipart. */
export const reportCalls = { ...reportFilingCalls, ...reportReviewCalls };

export type { ReviewStatus };
