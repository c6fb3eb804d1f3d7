/**
 * /users: the signed-in user's profile and vehicles, and public registration (POST /users/ makes a
 * pending registration request, exactly as POST /registration-requests/ does).
 */
import type { RouteModule } from '../context.ts';
import type { Transport, UserWire } from '../../contract/entities.ts';
import { ALL_ROLES } from '../../contract/roles.ts';
import { profileUpdateSchema, registrationSchema } from '../../contract/payloads.ts';
import { currentUser } from '../auth/guard.ts';
import { idParam, notFound, parse } from '../errors.ts';
import { createRegistrationRequest } from '../users/registration.ts';
import { loadUserWire, transportWire } from '../users/wire.ts';
import { SIGN_IN_BODY_LIMIT } from '../../contract/calls/registration.ts';
import { countSignup } from '../users/signup-limits.ts';

export const userRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const signedIn = { preHandler: ctx.guard(ALL_ROLES) };

  app.post('/users/', { bodyLimit: SIGN_IN_BODY_LIMIT }, async (request, reply) => {
    const input = parse(registrationSchema, request.body);
    countSignup(ctx, request, reply, input.company_id);
    const created = await createRegistrationRequest(db, input);
    return reply.status(201).send(created);
  });

  app.get('/users/me/', signedIn, async (request): Promise<UserWire> => loadUserWire(db, currentUser(request).id));

  app.put('/users/me/', signedIn, async (request): Promise<UserWire> => {
    const user = currentUser(request);
    const changes = parse(profileUpdateSchema, request.body);
    if (Object.keys(changes).length > 0) {
      await db.kysely.updateTable('users').set(changes).where('id', '=', user.id).execute();
    }
    return loadUserWire(db, user.id);
  });

  app.get('/users/me/transports/', signedIn, async (request): Promise<Transport[]> => {
    const rows = await db.kysely
      .selectFrom('transports')
      .selectAll()
      .where('user_id', '=', currentUser(request).id)
      .orderBy('is_current', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(transportWire);
  });

  app.put('/users/me/transport/:id/', signedIn, async (request): Promise<Transport> => {
    const user = currentUser(request);
    const id = idParam(request.params);
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
  });
};
