/**
 * /companies: the public list (the registration form picks from it) and management for admins. An admin may
 * create companies and rename their own; deleting belongs to the super-admin; an admin may attach users to
 * their own company.
 */
import { z } from 'zod';
import { answer, area, DELETE, GET, POST, PUT } from '../call.ts';
import type { Company, CompanyCard, UserWire } from '../entities.ts';
import { companySchema, companyUserSchema } from '../payloads.ts';
import { checkCompanyRequisites, companyRequisitesFields } from '../requisites.ts';
import { ADMINS, STAFF, SUPER_ONLY } from '../roles.ts';
import { checkThresholdsSchema, type CheckThresholds } from '../report-checks.ts';

/**
 * PUT /companies/{id}: the name, and the carrier's requisites (issue 31) — each absent stays as it is, empty text
 * clears it.
 */
export const companyUpdateSchema = z
  .object({ ...companySchema.shape, ...companyRequisitesFields })
  .strict()
  .superRefine(checkCompanyRequisites);

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
  /** The company with its requisites: its staff, a super-admin (another company's: 404). */
  GET('/companies/:id', { roles: STAFF, answer: answer<CompanyCard>() }),
  PUT('/companies/:id', {
    roles: ADMINS,
    body: companyUpdateSchema,
    answer: answer<CompanyCard>(),
    invalidates: ['users'],
    audience: ['company:param.id'],
  }),
  DELETE('/companies/:id', { roles: SUPER_ONLY, status: 204, answer: answer<null>(), invalidates: ['users'], audience: ['company:param.id'] }),
  POST('/companies/:id/users/', {
    roles: ADMINS,
    body: companyUserSchema,
    answer: answer<UserWire>(),
    invalidates: ['users'],
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
