/** /registration-requests on the route table (contract/calls/registration.ts): sign-up, the pending list, approval, rejection. */
import type { RouteModule } from '../context.ts';
import { registrationCalls } from '../../contract/calls/registration.ts';
import { approveRequest, createRegistrationRequest, listPendingRequests, rejectRequest } from '../users/registration.ts';
import { loadUserWire } from '../users/wire.ts';
import { countSignup } from '../users/signup-limits.ts';
import { registerArea } from './define.ts';

export const registrationRoutes: RouteModule = (app, ctx) => {
  registerArea(app, ctx, registrationCalls, {
    'POST /registration-requests/': async ({ body, request, reply }) => {
      countSignup(ctx, request, reply, body.company_id);
      return createRegistrationRequest(ctx.db, body);
    },
    'GET /registration-requests/': async ({ user }) => listPendingRequests(ctx.db, user),
    'POST /registration-requests/:id/approve': async ({ user, params }) => loadUserWire(ctx.db, await approveRequest(ctx.db, params.id, user)),
    'POST /registration-requests/:id/reject': async ({ user, params, body }) => rejectRequest(ctx.db, params.id, user, body.reason),
  });
};
