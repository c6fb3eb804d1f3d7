/** Announcements and drivers' responses: payloads and answers. Rules: server/routes/ANNOUNCEMENTS.md. */
import { z } from 'zod';
import { text, wireId } from './fields.ts';

export const RESPONSE_STATUSES = ['pending', 'approved', 'declined'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

export const RESPONSE_STATUS_LABELS: Record<ResponseStatus, string> = {
  pending: 'На рассмотрении',
  approved: 'Подтверждён',
  declined: 'Отклонён',
};

export const announcementCreateSchema = z
  .object({
    title: text('укажите заголовок').min(1, 'укажите заголовок').max(200, 'не длиннее 200 символов'),
    body: text('укажите текст').min(1, 'укажите текст').max(5000, 'не длиннее 5000 символов'),
    requires_response: z.boolean({ message: 'ожидается true или false' }).default(false),
    /** Super-admin only: a company, or null for every company. Staff post to their own company. */
    company_id: z.number({ message: 'ожидается номер компании' }).int().positive().nullable().optional(),
  })
  .strict();
export type AnnouncementCreate = z.infer<typeof announcementCreateSchema>;

export const responseCreateSchema = z
  .object({ text: text().max(2000, 'не длиннее 2000 символов').nullish() })
  .strict();

/** GET /announcements/: the super-admin narrows to one company (and the all-company ones). */
export const announcementListQuerySchema = z.object({ company_id: wireId().optional() });

/** POST /announcements/responses/{id}/confirm: `approve` absent, empty, 'true' or '1' approves; 'false' or '0' declines. */
export const responseConfirmQuerySchema = z.object({
  approve: z
    .enum(['', 'true', '1', 'false', '0'], { message: 'ожидается true или false' })
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
});

export interface MyResponse {
  id: number;
  text: string | null;
  status: ResponseStatus;
  created_at: string;
  decided_at: string | null;
}

/** A response as staff decided on it (the answer to a confirmation). */
export interface DecidedResponse extends MyResponse {
  announcement_id: number;
  user_id: number;
}

export interface Announcement {
  id: number;
  title: string;
  body: string;
  created_at: string;
  author_name: string | null;
  company_id: number | null;
  /** «Все компании» when company_id is null. */
  company_name: string;
  requires_response: boolean;
  is_read: boolean;
  /** The caller's own response, if any. */
  my_response: MyResponse | null;
  /** For staff: how the responses stand. */
  responses: { pending: number; approved: number; declined: number } | null;
}

export interface AnnouncementList {
  items: Announcement[];
  unread: number;
}

export interface PendingResponse {
  id: number;
  announcement_id: number;
  announcement_title: string;
  user_id: number;
  user_name: string;
  company_name: string | null;
  text: string | null;
  created_at: string;
}
