/**
 * /companies: the public list (the registration form picks from it) and management for admins. An admin may
 * create companies and rename their own; deleting belongs to the super-admin; an admin may attach users to
 * their own company.
 */
import { answer, area, DELETE, GET, PAY, POST, PUT } from '../call.ts';
import type { Company, UserWire } from '../entities.ts';
import { companySchema, companyUserSchema } from '../payloads.ts';
import { ADMINS, STAFF, SUPER_ONLY } from '../roles.ts';
import { checkThresholdsSchema, type CheckThresholds } from '../report-checks.ts';

/** A company's name and people show on pay (/payroll, the statistics): renaming it, deleting it or moving a user in. */
const COMPANY_SHOWN = ['users', ...PAY] as const;

export const companyCalls = area(
  GET('/companies/', { roles: null, answer: answer<Company[]>() }),
  POST('/companies/', {
    roles: ADMINS,
    body: companySchema,
    status: 201,
    answer: answer<Company>(),
    invalidates: ['users'],
    audience: ['company-staff:answer.id'],
  }),
  PUT('/companies/:id', {
    roles: ADMINS,
    body: companySchema,
    answer: answer<Company>(),
    invalidates: COMPANY_SHOWN,
    audience: ['company:param.id'],
  }),
  DELETE('/companies/:id', { roles: SUPER_ONLY, status: 204, answer: answer<null>(), invalidates: COMPANY_SHOWN, audience: ['company:param.id'] }),
  POST('/companies/:id/users/', {
    roles: ADMINS,
    body: companyUserSchema,
    answer: answer<UserWire>(),
    invalidates: COMPANY_SHOWN,
    audience: ['caller', 'company-staff:param.id', 'user:body.user_id'],
  }),
  /** The thresholds of the automatic checks of loads (docs/reports-review.md): staff read them, admins change them. */
  GET('/companies/:id/checks', { roles: STAFF, answer: answer<CheckThresholds>() }),
  PUT('/companies/:id/checks', {
    roles: ADMINS,
    body: checkThresholdsSchema,
    answer: answer<CheckThresholds>(),
    invalidates: ['reports'],
    audience: ['company-staff:param.id'],
  }),
);
