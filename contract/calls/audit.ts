/**
 * The history of a task, a driver's part or a report (docs/loads.md, «История изменений»): who changed what,
 * when, from which device (a driver's), field by field.
 */
import { z } from 'zod';
import { wireId } from '../fields.ts';
import { answer, area, GET } from '../call.ts';
import { STAFF } from '../roles.ts';

export const AUDIT_ENTITIES = ['task', 'association', 'report'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

export interface AuditEntry {
  id: number;
  entity: AuditEntity;
  entity_id: number;
  action: 'create' | 'update' | 'delete';
  /**
   * Field by field, from → to, as stored — except `driver_id`, answered with the drivers' names (an id is nobody's
   * word), and a report's `photos`, its photos' ids («12,14»: the history screen says what was added and removed).
   */
  changes: { field: string; from: string | number | null; to: string | number | null }[];
  /** An association entry's driver (the part is a driver on the task): the screen names them, not the part's number. */
  driver_name: string | null;
  user_id: number | null;
  user_name: string | null;
  device_id: string | null;
  created_at: string;
}

export const auditQuerySchema = z.object({
  entity: z.enum(AUDIT_ENTITIES, { message: 'ожидается task, association или report' }),
  id: wireId('ожидается номер'),
});

export const auditCalls = area(
  /** A task's history holds its parts' and reports' too; a part's or a report's, only its own. Newest first. */
  GET('/audit/', { roles: STAFF, query: auditQuerySchema, answer: answer<AuditEntry[]>() }),
);
