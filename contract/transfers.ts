/**
 * Carrier transfers: a task (or part of its quantity) handed from one carrier company to another. States and
 * who may do what: server/routes/TRANSFERS.md.
 */
import { z } from 'zod';
import { text, wireId } from './fields.ts';
import type { Task } from './entities.ts';

export const TRANSFER_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_STATUS_LABELS: Record<TransferStatus, string> = {
  pending: 'Ожидает ответа',
  accepted: 'Принята',
  declined: 'Отклонена',
};

const id = (what: string) => z.number({ message: `ожидается номер ${what}` }).int().positive();
const quantity = z.number({ message: 'ожидается число' }).finite().gt(0, 'должно быть больше нуля').max(1e9);
const comment = text().max(2000, 'не длиннее 2000 символов');

/** POST /transfers/: without a quantity the whole rest of the task (what is not handed out yet) goes. */
export const transferCreateSchema = z
  .object({
    task_id: id('задачи'),
    to_company_id: id('компании'),
    quantity: quantity.nullish(),
    comment: comment.nullish(),
  })
  .strict();
export type TransferCreate = z.infer<typeof transferCreateSchema>;

/** PUT /transfers/{id} (the sender, while pending). */
export const transferUpdateSchema = z
  .object({
    to_company_id: id('компании').optional(),
    quantity: quantity.optional(),
    comment: comment.nullable().optional(),
  })
  .strict()
  .refine((b) => b.to_company_id !== undefined || b.quantity !== undefined || b.comment !== undefined, {
    message: 'укажите to_company_id, quantity или comment',
  });
export type TransferUpdate = z.infer<typeof transferUpdateSchema>;

/** POST /transfers/{id}/decline: the receiver says why. */
export const transferDeclineSchema = z
  .object({ reason: text('укажите причину').min(1, 'укажите причину').max(1000, 'не длиннее 1000 символов') })
  .strict();

export const transferListQuerySchema = z.object({
  to_company_id: wireId('ожидается номер компании').optional(),
  company_id: wireId('ожидается номер компании').optional(),
  direction: z.enum(['incoming', 'outgoing'], { message: 'ожидается incoming или outgoing' }).optional(),
  status: z.enum(TRANSFER_STATUSES, { message: 'ожидается pending, accepted или declined' }).optional(),
});

export interface CompanyRef {
  id: number;
  name: string;
}

/** How far the receiver's carrier task has got. */
export interface TransferProgress {
  task_status: string;
  planned_quantity: number;
  completed_quantity: number;
  drivers: number;
  drivers_completed: number;
}

export interface Transfer {
  id: number;
  status: TransferStatus;
  /** Relative to the caller's company; null for a super-admin looking at two other companies. */
  direction: 'incoming' | 'outgoing' | null;
  task: Pick<Task, 'id' | 'date' | 'cargo' | 'loading_place' | 'unloading_place' | 'planned_quantity' | 'unit'>;
  from_company: CompanyRef;
  to_company: CompanyRef;
  quantity: number;
  comment: string | null;
  decline_reason: string | null;
  created_by_name: string | null;
  decided_by_name: string | null;
  created_at: string;
  updated_at: string | null;
  decided_at: string | null;
  carrier_task_id: number | null;
  progress: TransferProgress | null;
}

/** GET /transfers/carrier-task/{id}: the transfer and the receiver's task with its drivers. */
export interface CarrierTaskView {
  transfer: Transfer;
  task:
    | (Pick<Task, 'id' | 'company_id' | 'date' | 'cargo' | 'loading_place' | 'unloading_place' | 'planned_quantity' | 'unit'> & {
        status: string;
        drivers: { driver_id: number; driver_name: string; status: string; quantity: number | null }[];
      })
    | null;
}
