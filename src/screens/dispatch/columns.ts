/** The board's columns as plain data, and what a move does to them (applied at once; the server's answer replaces it). */
import type { Board } from '../../../contract/calls/dispatch.ts';

/** 'none' is «Без водителя»; a driver's column is `d<id>`. */
export type ColumnKey = 'none' | `d${number}`;
export type Columns = Map<ColumnKey, number[]>;

export const driverKey = (id: number): ColumnKey => `d${id}`;
export const driverOf = (key: ColumnKey): number | null => (key === 'none' ? null : Number(key.slice(1)));
/** A card is a task in a column: the same task may sit in two drivers' columns. */
export const cardKey = (column: ColumnKey, taskId: number): string => `${column}:${taskId}`;
export function parseCard(key: string): { column: ColumnKey; taskId: number } {
  const [column, id] = key.split(':') as [ColumnKey, string];
  return { column, taskId: Number(id) };
}

export function columnsOf(board: Board): Columns {
  const columns: Columns = new Map([['none', [...board.unassigned]]]);
  for (const d of board.drivers) columns.set(driverKey(d.id), [...d.task_ids]);
  return columns;
}

/** The columns after moving `taskId` from one column to a place in another (or the same). */
export function applyMove(columns: Columns, taskId: number, from: ColumnKey, to: ColumnKey, index: number): Columns {
  const next: Columns = new Map([...columns].map(([k, v]) => [k, [...v]]));
  const source = next.get(from) ?? [];
  const at = source.indexOf(taskId);
  if (at >= 0) source.splice(at, 1);
  const target = next.get(to) ?? [];
  if (!target.includes(taskId)) target.splice(Math.max(0, Math.min(index, target.length)), 0, taskId);
  next.set(from, source);
  next.set(to, target);
  return next;
}
