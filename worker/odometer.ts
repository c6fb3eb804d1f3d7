/**
 * The driver's odometer readings in the outbox (issue 33 §2; docs/trip-sheets.md «The driver's odometer»): one
 * record per (sheet, start|end), its idempotency key `odometer:{sheet}:{which}`, so a reading is queued exactly once
 * on the device and the server's call — idempotent by the same pair — stores it once. No zod here (the service
 * worker bundles this file): the engine checks the value before (outbox-api.ts).
 */
import type { OdometerFacts, OutboxRecord } from './db.ts';

export interface NewOdometerReading {
  sheet_id: number;
  which: 'start' | 'end';
  value: number;
  /** The device's time of the reading, ISO. */
  at: string;
  /** The dashboard's photo (compressed in the engine like a report's), or null. */
  photo: Blob | null;
}

export const odometerKey = (sheetId: number, which: 'start' | 'end'): string => `odometer:${sheetId}:${which}`;

/** How long a delivered reading stays on the device (its sheet's day is read from the server after that). */
export const ODOMETER_KEEP_MS = 36 * 60 * 60 * 1000;

/** The Russian reason a reading cannot be queued, or null. */
export function odometerRefusal(input: NewOdometerReading, records: readonly OutboxRecord[], userId: number): string | null {
  if (!Number.isInteger(input.sheet_id) || input.sheet_id <= 0) return 'Не найден путевой лист';
  if (records.some((r) => r.userId === userId && r.idempotencyKey === odometerKey(input.sheet_id, input.which))) {
    return input.which === 'start' ? 'Показание при выезде уже записано' : 'Показание при возвращении уже записано';
  }
  if (input.which === 'end') {
    const start = records.find((r) => r.userId === userId && r.idempotencyKey === odometerKey(input.sheet_id, 'start'))?.odometer;
    if (start && input.value < start.value) return `Меньше, чем при выезде (${start.value} км)`;
  }
  return null;
}

export function newOdometerRecord(input: NewOdometerReading, userId: number, now: number): OutboxRecord {
  const odometer: OdometerFacts = { sheetId: input.sheet_id, which: input.which, value: input.value, at: input.at };
  return {
    association_id: 0,
    quantity: null,
    total_unloading_quantity: null,
    total_loading_quantity: null,
    flags: { unloadingIsBuyer: 0, loadingIsBuyer: 0 },
    photos: [],
    attempts: 0,
    nextAttemptAt: now,
    sent: false,
    sentAt: null,
    resolved: false,
    idempotencyKey: odometerKey(input.sheet_id, input.which),
    completedAt: input.at,
    createdAt: now,
    lastError: null,
    userId,
    odometer,
  };
}
