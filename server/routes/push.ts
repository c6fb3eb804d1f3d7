/**
 * Push notifications, the client's side (design in PUSH.md; contract/calls/push.ts): the VAPID public
 * key a browser subscribes with, and this device's subscription — refreshed when the browser changes it, removed
 * when the user turns notifications off in /profile. Login still carries it too (docs/product.md §7).
 */
import type { RouteModule } from '../context.ts';
import { pushCalls } from '../../contract/calls/push.ts';
import { badRequest } from '../errors.ts';
import { pushSubscriptionJson, storePushSubscription } from './auth.ts';
import { registerArea } from './define.ts';

export const pushRoutes: RouteModule = (app, ctx) => {
  registerArea(app, ctx, pushCalls, {
    'GET /push/key/': () => ({ public_key: ctx.config.vapid.publicKey }),

    'PUT /push/subscription/': async ({ user, body }) => {
      const subscription = pushSubscriptionJson(body.push_subscription ?? null);
      if (subscription === null) throw badRequest('push_subscription: ожидается подписка на уведомления с полем endpoint');
      await storePushSubscription(ctx.db, user.id, user.device_id, subscription);
      return undefined;
    },

    'DELETE /push/subscription/': async ({ user }) => {
      await ctx.db.kysely.deleteFrom('push_subscriptions').where('user_id', '=', user.id).where('device_id', '=', user.device_id).execute();
      return undefined;
    },
  });
};
