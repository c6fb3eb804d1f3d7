/**
 * Push notifications, the client's side (issue 10 C; design in PUSH.md): the VAPID public key a browser
 * subscribes with, and this device's subscription — refreshed when the browser changes it, removed when the
 * user turns notifications off in /profile. Login still carries it too (SPEC §3).
 */
import type { RouteModule } from '../context.ts';
import { ALL_ROLES } from '../../contract/roles.ts';
import { currentUser } from '../auth/guard.ts';
import { badRequest } from '../errors.ts';
import { pushSubscriptionJson, storePushSubscription } from './auth.ts';

export const pushRoutes: RouteModule = (app, ctx) => {
  app.get('/push/key/', async () => ({ public_key: ctx.config.vapid.publicKey }));

  app.put('/push/subscription/', { preHandler: ctx.guard(ALL_ROLES) }, async (request, reply) => {
    const user = currentUser(request);
    const body = request.body as { push_subscription?: unknown } | null;
    const subscription = pushSubscriptionJson(body?.push_subscription ?? null);
    if (subscription === null) throw badRequest('push_subscription: ожидается подписка на уведомления с полем endpoint');
    await storePushSubscription(ctx.db, user.id, user.device_id, subscription);
    return reply.status(204).send();
  });

  app.delete('/push/subscription/', { preHandler: ctx.guard(ALL_ROLES) }, async (request, reply) => {
    const user = currentUser(request);
    await ctx.db.kysely.deleteFrom('push_subscriptions').where('user_id', '=', user.id).where('device_id', '=', user.device_id).execute();
    return reply.status(204).send();
  });
};
