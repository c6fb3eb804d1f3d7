/** /registration-requests: public sign-up (same as POST /users/), the staff's pending list, approval. */
import type { RouteModule } from '../context.ts';
import { STAFF } from '../../contract/roles.ts';
import { registrationSchema } from '../../contract/payloads.ts';
import { currentUser } from '../auth/guard.ts';
import { idParam, parse } from '../errors.ts';
import { approveRequest, createRegistrationRequest, listPendingRequests } from '../users/registration.ts';
import { loadUserWire } from '../users/wire.ts';
import { SIGN_IN_BODY_LIMIT } from './auth.ts';
import { countSignup } from '../users/signup-limits.ts';

export const registrationRoutes: RouteModule = (app, ctx) => {
  app.post('/registration-requests/', { bodyLimit: SIGN_IN_BODY_LIMIT }, async (request, reply) => {
    const input = parse(registrationSchema, request.body);
    countSignup(ctx, request, reply, input.company_id);
    const created = await createRegistrationRequest(ctx.db, input);
    return reply.status(201).send(created);
  });

  app.get('/registration-requests/', { preHandler: ctx.guard(STAFF) }, async (request) =>
    listPendingRequests(ctx.db, currentUser(request)),
  );

  app.post('/registration-requests/:id/approve', { preHandler: ctx.guard(STAFF) }, async (request) => {
    const userId = await approveRequest(ctx.db, idParam(request.params), currentUser(request));
    return loadUserWire(ctx.db, userId);
  });
};
