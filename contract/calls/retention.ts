/**
 * Photo retention as a company setting (docs/scale.md «Хранение фото»): the admin sets how many years a trip's
 * photos are kept and what happens after (moved to the archive folder, or deleted); the server applies the rule
 * once a day to each company that has one. The trip and its figures always stay.
 */
import { z } from 'zod';
import { answer, area, GET, PUT } from '../call.ts';
import { ADMINS, STAFF } from '../roles.ts';

export const RETENTION_ACTIONS = ['archive', 'delete'] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];
export const RETENTION_ACTION_LABELS: Record<RetentionAction, string> = {
  archive: 'переносить в архив',
  delete: 'удалять',
};

/** The rule: photos of trips dated more than `years` whole years ago go. */
export const photoRetentionRuleSchema = z
  .object({
    years: z.number({ message: 'ожидается число лет' }).int('ожидается целое число лет').min(1, 'не меньше 1 года').max(50, 'не больше 50 лет'),
    action: z.enum(RETENTION_ACTIONS, { message: 'ожидается archive или delete' }),
  })
  .strict();
export type PhotoRetentionRule = z.infer<typeof photoRetentionRuleSchema>;

/** PUT: the rule, or null to keep every photo. */
export const photoRetentionSchema = z.object({ rule: photoRetentionRuleSchema.nullable() }).strict();

/** What the last daily run did. */
export interface PhotoRetentionRun {
  /** YYYY-MM-DD, the day it ran on. */
  on: string;
  /** Trips dated before this day lost their photos. */
  before: string;
  reports: number;
  photos: number;
  bytes: number;
  action: RetentionAction;
}

export interface PhotoRetention {
  rule: PhotoRetentionRule | null;
  last_run: PhotoRetentionRun | null;
}

export const retentionCalls = area(
  GET('/companies/:id/photo-retention', { roles: STAFF, answer: answer<PhotoRetention>() }),
  PUT('/companies/:id/photo-retention', {
    roles: ADMINS,
    body: photoRetentionSchema,
    answer: answer<PhotoRetention>(),
    invalidates: ['companies'],
    audience: ['company-staff:param.id'],
  }),
);
