/** What every route module receives: the database, config, guards and storage. */
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { Guard } from './auth/guard.ts';
import type { AccessTokens } from './auth/jwt.ts';
import type { RefreshTokens } from './auth/refresh.ts';
import type { FileStorage } from './files/storage.ts';
import type { PayrollCloses } from './payroll/close-jobs.ts';

export interface AppContext {
  config: Config;
  db: Db;
  tokens: AccessTokens;
  refresh: RefreshTokens;
  guard: Guard;
  storage: FileStorage;
  /** Months' closes as jobs (payroll/close-jobs.ts). */
  payrollCloses: PayrollCloses;
}

/** A route module: registers its routes on `app` (already prefixed with /api). */
export type RouteModule = (app: FastifyInstance, ctx: AppContext) => Promise<void> | void;
