/**
 * Carrier transfers (docs/product.md §7): a company hands a task, or part of its quantity, to another carrier company.
 * pending → accepted (the receiver gets its own carrier task) | declined (with a reason); the sender edits or
 * withdraws it only while pending. Staff only; a company sees only transfers it sends or receives (anything else
 * is 404), the super-admin all. Rules in full: server/routes/TRANSFERS.md.
 *
 * Who hears of a change: both companies of the transfer, and whoever hears of its task and carrier task.
 */
import { answer, area, DELETE, GET, POST, PUT } from '../call.ts';
import { STAFF } from '../roles.ts';
import {
  transferCreateSchema,
  transferDeclineSchema,
  transferListQuerySchema,
  transferUpdateSchema,
  type CarrierTaskView,
  type Transfer,
} from '../transfers.ts';

/** An accepted transfer makes a task; any change shows on the tasks' and the board's transfer figures. */
const shows = ['tasks', 'dispatch'] as const;

export const transferCalls = area(
  /** Without `quantity` the rest of the task (what is not handed out yet) goes. */
  POST('/transfers/', { roles: STAFF, body: transferCreateSchema, status: 201, answer: answer<Transfer>(), invalidates: shows, audience: ['transfer:answer.id'] }),
  /** `to_company_id`: one company's incoming; else the caller's company's, by `direction` and `status`. Newest first, at most 500. */
  GET('/transfers/', { roles: STAFF, query: transferListQuerySchema, answer: answer<Transfer[]>() }),
  /** The sender, while pending. */
  PUT('/transfers/:id', { roles: STAFF, body: transferUpdateSchema, answer: answer<Transfer>(), invalidates: shows, audience: ['transfer:param.id'] }),
  /** The sender withdraws it, while pending (the row goes: its audience is read before the write). */
  DELETE('/transfers/:id', { roles: STAFF, status: 204, answer: answer<null>(), invalidates: shows, audience: ['transfer:param.id'] }),
  /** The receiver, while pending: its carrier task is made. */
  POST('/transfers/:id/accept', { roles: STAFF, answer: answer<Transfer>(), invalidates: shows, audience: ['transfer:param.id'] }),
  /** The receiver, while pending, with a reason. */
  POST('/transfers/:id/decline', { roles: STAFF, body: transferDeclineSchema, answer: answer<Transfer>(), invalidates: shows, audience: ['transfer:param.id'] }),
  /** `:id` is the transfer's id: both sides read the carrier task through the transfer that links them. */
  GET('/transfers/carrier-task/:id', { roles: STAFF, answer: answer<CarrierTaskView>() }),
);
