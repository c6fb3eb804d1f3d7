/**
 * Task calls on the route table (the others are still hand-registered in server/routes/tasks*.ts; docs/route-table.md).
 * Suggestions: what the company typed before in a task's text fields, most used first, for the task form.
 */
import { z } from 'zod';
import { answer, area, GET } from '../call.ts';
import { STAFF } from '../roles.ts';

export const SUGGESTION_FIELDS = ['cargo', 'loading_place', 'unloading_place'] as const;
export const suggestionsQuerySchema = z.object({
  field: z.enum(SUGGESTION_FIELDS, { message: 'ожидается cargo, loading_place или unloading_place' }),
  q: z.string().max(100, 'не больше 100 символов').default(''),
  company_id: z.coerce.number().int().positive().optional(),
});

export const taskCalls = area(GET('/tasks/suggestions', { roles: STAFF, query: suggestionsQuerySchema, answer: answer<string[]>() }));
