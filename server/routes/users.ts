/**
 * /users (contract/calls/users.ts `profileCalls`): the signed-in user's profile and vehicles, and public
 * registration (POST /users/ makes a pending registration request, exactly as POST /registration-requests/ does).
 */
import type { RouteModule } from '../context.ts';
import { profileCalls } from '../../contract/calls/users.ts';
import { notFound } from '../errors.ts';
import { createRegistrationRequest } from '../users/registration.ts';
import { loadUserWire, transportWire } from '../users/wire.ts';
import { countSignup } from '../users/signup-limits.ts';
import { registerArea } from './define.ts';

export const userRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, profileCalls, {
    'POST /users/': async ({ body, request, reply }) => {
      countSignup(ctx, request, reply, body.company_id);
      return createRegistrationRequest(db, body);
    },

    'GET /users/me/': ({ user }) => loadUserWire(db, user.id),

    'PUT /users/me/': async ({ user, body: changes }) => {
      if (Object.keys(changes).length > 0) {
        await db.kysely.updateTable('users').set(changes).where('id', '=', user.id).execute();
      }
      return loadUserWire(db, user.id);
    },

    'GET /users/me/transports/': async ({ user }) => {
      const rows = await db.kysely
        .selectFrom('transports')
        .selectAll()
        .where('user_id', '=', user.id)
        .orderBy('is_current', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(transportWire);
    },

    'PUT /users/me/transport/:id/': async ({ user, params: { id } }) => {
      const own = await db.kysely
        .selectFrom('transports')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      // Another user's vehicle is answered like a missing one: its existence is none of this user's business.
      if (!own) throw notFound('Транспорт не найден');
      await db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('transports').set({ is_current: 0 }).where('user_id', '=', user.id).execute();
        await trx.updateTable('transports').set({ is_current: 1 }).where('id', '=', id).execute();
      });
      const row = await db.kysely.selectFrom('transports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return transportWire(row);
    },
  });
};
