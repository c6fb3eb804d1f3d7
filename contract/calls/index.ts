/**
 * The route table: every declared HTTP call, joined from one table per area (contract/call.ts). The server
 * registers these, the UI calls them by key, the engine, the change feed and the RBAC test read them.
 */
import type { AnswerOf, BodyOf, CallDecl, Method, ParamsIn, QueryOf } from '../call.ts';
import { keyOf, pathMatches } from '../call.ts';
import { companyCalls } from './companies.ts';
import { reportCalls } from './reports.ts';
import { auditCalls } from './audit.ts';
import { progressiveRateCalls } from './progressive-rates.ts';
import { payrollCalls } from './payroll.ts';
import { dispatchCalls } from './dispatch.ts';
import { taskCalls } from './tasks.ts';
import { userCalls } from './users.ts';
import { transferCalls } from './transfers.ts';
import { announcementCalls } from './announcements.ts';
import { registrationCalls } from './registration.ts';
import { authCalls } from './auth.ts';
import { wageCalls } from './wages.ts';
import { exportCalls } from './exports.ts';
import { clientErrorCalls } from './client-errors.ts';
import { pushCalls } from './push.ts';
import { eventCalls } from './events.ts';
import { registerCalls } from './registers.ts';
import { retentionCalls } from './retention.ts';
import { tripSheetCalls } from './trip-sheets.ts';
import { priceCalls } from './prices.ts';
import { tripCalls } from './trips.ts';
import { paperCalls } from './papers.ts';
import { statementCalls } from './statements.ts';
import { customerLinkCalls } from './customer-links.ts';
import { documentCalls } from './documents.ts';
import { operatorSettingsCalls } from './operator.ts';

export const CALLS = {
  ...companyCalls,
  ...reportCalls,
  ...auditCalls,
  ...progressiveRateCalls,
  ...payrollCalls,
  ...dispatchCalls,
  ...taskCalls,
  ...userCalls,
  ...transferCalls,
  ...announcementCalls,
  ...registrationCalls,
  ...authCalls,
  ...wageCalls,
  ...exportCalls,
  ...clientErrorCalls,
  ...pushCalls,
  ...eventCalls,
  ...registerCalls,
  ...retentionCalls,
  ...tripSheetCalls,
  ...priceCalls,
  ...tripCalls,
  ...paperCalls,
  ...statementCalls,
  ...customerLinkCalls,
  ...documentCalls,
  ...operatorSettingsCalls,
};

export type Calls = typeof CALLS;
export type CallKey = keyof Calls;
export type GetKey = { [K in CallKey]: Calls[K]['method'] extends 'GET' ? K : never }[CallKey];
export type SendKey = Exclude<CallKey, GetKey>;

export type CallAnswer<K extends CallKey> = AnswerOf<Calls[K]>;
export type CallParams<K extends CallKey> = ParamsIn<Calls[K]>;
export type CallQuery<K extends CallKey> = QueryOf<Calls[K]>;
export type CallBody<K extends CallKey> = BodyOf<Calls[K]>;

export const ALL_CALLS: readonly CallDecl[] = Object.values(CALLS);

/** The declaration a request (method and concrete path, without /api) is an instance of, if any. */
export function callFor(method: Method | string, path: string): CallDecl | undefined {
  const clean = path.replace(/^\/?(api\/)?/, '/');
  // A literal segment beats a parameter: '/tasks/active/' before '/tasks/:id/'.
  const candidates = ALL_CALLS.filter((c) => c.method === method && pathMatches(c.path, clean));
  return candidates.sort((a, b) => (a.path.match(/:/g)?.length ?? 0) - (b.path.match(/:/g)?.length ?? 0))[0];
}

export { keyOf };
