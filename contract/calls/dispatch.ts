/**
 * The dispatcher's board (docs/dispatch.md): a day's tasks of a company in a column «Без водителя» and one column
 * per active driver, in each driver's saved order. One move call covers every drag — assign, reassign, take off,
 * reorder — and refuses a move made on a stale board (409); a bulk call assigns many tasks to one driver.
 */
import { z } from 'zod';
import { wireId } from '../fields.ts';
import { answer, area, GET, POST, PAY } from '../call.ts';
import { STAFF } from '../roles.ts';
import { isoDate } from '../driver.ts';
import type { Task } from '../entities.ts';
import type { DriverTripState } from '../trips.ts';

export interface BoardDriver {
  id: number;
  name: string;
  phone: string;
  vehicle: { number: string; brand: string; capacity: number | null } | null;
  /** The driver's tasks of the day in their saved order. */
  task_ids: number[];
  /** Σ the driver's shares and deliveries on those tasks. */
  planned: number;
  delivered: number;
  /** When the driver's newest report of the day reached the server. */
  last_report_at: string | null;
  /** Loading, loaded, unloading, free or «нет данных» and since when, from his latest trip's steps (docs/trips.md). */
  trip_state: DriverTripState;
  /**
   * True when the company requires a trip sheet (its trip settings), the driver works this day (has tasks on the
   * board) and neither he nor his fleet vehicle has a sheet for it: the board says «нет путевого листа».
   */
  no_trip_sheet: boolean;
}

export interface Board {
  date: string;
  company_id: number;
  drivers: BoardDriver[];
  /** The day's tasks with no driver on them (not cancelled, not completed). */
  unassigned: number[];
  /** Every task the columns name, as staff see them (progress, drivers, money). */
  tasks: Task[];
}

const id = z.number({ message: 'ожидается номер' }).int('ожидается номер').positive('ожидается номер');
const company = wireId('ожидается номер компании').optional();

export const boardQuerySchema = z.object({ date: isoDate, company_id: company });

/** One drag: the task from a column (null: «Без водителя») to a column at a place in it. */
export const boardMoveSchema = z
  .object({
    task_id: id,
    from_driver_id: id.nullable(),
    to_driver_id: id.nullable(),
    index: z.number({ message: 'ожидается место в колонке' }).int().min(0).max(10_000),
    date: isoDate,
  })
  .strict();
export type BoardMove = z.infer<typeof boardMoveSchema>;

export const boardAssignSchema = z
  .object({
    task_ids: z.array(id).min(1, 'выберите задачи').max(100, 'не больше 100 задач за раз'),
    driver_id: id,
    date: isoDate,
  })
  .strict();

export interface BoardAssignResult {
  results: { task_id: number; ok: boolean; detail: string | null }[];
  board: Board;
}

export const dispatchCalls = area(
  GET('/dispatch/board', { roles: STAFF, query: boardQuerySchema, answer: answer<Board>() }),
  POST('/dispatch/move', { roles: STAFF, body: boardMoveSchema, answer: answer<Board>(), invalidates: ['tasks', 'reports', ...PAY], audience: ['task:body.task_id'] }),
  POST('/dispatch/assign', { roles: STAFF, body: boardAssignSchema, answer: answer<BoardAssignResult>(), invalidates: ['tasks', 'reports', ...PAY], audience: ['caller', 'user:body.driver_id'] }),
);
