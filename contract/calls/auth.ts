/**
 * /auth on the route table: sign-in (tokens and the device's push subscription), refresh (rotation), logout, the
 * roles list. The engine (worker/auth.ts) makes these calls itself — the tokens never reach a screen — so the
 * table types them and the server registers them; no screen calls them by key. Sign-in and refresh are told to
 * nobody on the change feed.
 */
import { answer, area, GET, POST } from '../call.ts';
import { ALL_ROLES } from '../roles.ts';
import { loginSchema, refreshSchema } from '../payloads.ts';
import type { RoleInfo, TokenPair } from '../entities.ts';
import { SIGN_IN_BODY_LIMIT } from './registration.ts';

export const authCalls = area(
  POST('/auth/login/', { roles: null, body: loginSchema, bodyLimit: SIGN_IN_BODY_LIMIT, answer: answer<TokenPair>() }),
  POST('/auth/refresh/', { roles: null, body: refreshSchema, bodyLimit: SIGN_IN_BODY_LIMIT, answer: answer<TokenPair>() }),
  POST('/auth/logout/', { roles: null, body: refreshSchema, bodyLimit: SIGN_IN_BODY_LIMIT, status: 204, answer: answer<undefined>() }),
  GET('/auth/roles/', { roles: ALL_ROLES, answer: answer<RoleInfo[]>() }),
);
