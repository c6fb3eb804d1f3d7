/** A user's own settings (contract/calls/users.ts `userSettingsCalls`): the alerts they want (docs/alerts.md). */
import type { RouteModule } from '../context.ts';
import { userSettingsCalls } from '../../contract/calls/users.ts';
import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from '../../contract/alerts.ts';
import { alertSettingsSchema } from '../../contract/alert-settings.ts';
import { nowIso } from '../db/connect.ts';
import type { Db } from '../db/connect.ts';
import { registerArea } from './define.ts';

export async function alertSettingsOf(db: Db, userId: number): Promise<AlertSettings> {
  const row = await db.kysely.selectFrom('user_settings').select('alerts').where('user_id', '=', userId).executeTakeFirst();
  if (!row) return DEFAULT_ALERT_SETTINGS;
  const parsed = alertSettingsSchema.safeParse(JSON.parse(row.alerts));
  return parsed.success ? parsed.data : DEFAULT_ALERT_SETTINGS;
}

export const userSettingsRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  registerArea(app, ctx, userSettingsCalls, {
    'GET /users/me/alerts': ({ user }) => alertSettingsOf(db, user.id),
    'PUT /users/me/alerts': async ({ user, body }) => {
      const settings: AlertSettings = { kinds: [...new Set(body.kinds)], sound: body.sound, notify: body.notify };
      const alerts = JSON.stringify(settings);
      await db.kysely
        .insertInto('user_settings')
        .values({ user_id: user.id, alerts, updated_at: nowIso() })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ alerts, updated_at: nowIso() }))
        .execute();
      return settings;
    },
  });
};
