/**
 * Push notifications, the client's side, on the route table (server/routes/push.ts, PUSH.md): the VAPID public
 * key a browser subscribes with (public), and this device's subscription — refreshed when the browser changes it,
 * removed when the user turns notifications off in /profile. Told to nobody on the change feed.
 */
import { z } from 'zod';
import { answer, area, DELETE, GET, PUT } from '../call.ts';
import { ALL_ROLES } from '../roles.ts';

/**
 * The subscription is checked on the server (a PushSubscription's JSON with an http(s) endpoint); a body that is
 * no object carries none, and is refused for that, as a missing one is.
 */
export const pushSubscriptionBodySchema = z.object({ push_subscription: z.unknown() }).catch({ push_subscription: undefined });

export const pushCalls = area(
  GET('/push/key/', { roles: null, answer: answer<{ public_key: string }>() }),
  PUT('/push/subscription/', { roles: ALL_ROLES, body: pushSubscriptionBodySchema, status: 204, answer: answer<undefined>() }),
  DELETE('/push/subscription/', { roles: ALL_ROLES, status: 204, answer: answer<undefined>() }),
);
