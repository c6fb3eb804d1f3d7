/**
 * A user's own settings on the route table (the rest of /users is still hand-registered in server/routes/users*.ts;
 * docs/route-table.md). Alerts: which events a staff user is told of, and whether with a sound and a system
 * notification (contract/alerts.ts, docs/alerts.md).
 */
import { answer, area, GET, PUT } from '../call.ts';
import { STAFF } from '../roles.ts';
import type { AlertSettings } from '../alerts.ts';
import { alertSettingsSchema } from '../alert-settings.ts';

export const userCalls = area(
  GET('/users/me/alerts', { roles: STAFF, answer: answer<AlertSettings>() }),
  PUT('/users/me/alerts', { roles: STAFF, body: alertSettingsSchema, answer: answer<AlertSettings>(), audience: ['caller-only'] }),
);
