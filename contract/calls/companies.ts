/**
 * /companies: the public list (the registration form picks from it) and management for admins. An admin may
 * create companies and rename their own; deleting belongs to the super-admin; an admin may attach users to
 * their own company.
 */
import { z } from 'zod';
import { answer, area, DELETE, GET, PAY, POST, PUT } from '../call.ts';
import type { Company, CompanyCard, UserWire } from '../entities.ts';
import { companySchema, companyUserSchema } from '../payloads.ts';
import { checkCompanyRequisites, companyRequisitesFields } from '../requisites.ts';
import { ADMINS, ALL_ROLES, STAFF, SUPER_ONLY } from '../roles.ts';
import { checkThresholdsSchema, type CheckThresholds } from '../report-checks.ts';
import { tripSettingsSchema, type TripSettings } from '../trips.ts';
import { companyVatField } from '../statements.ts';

/** A company's name and people show on pay (/payroll, the statistics): renaming it, deleting it or moving a user in. */
const COMPANY_SHOWN = ['users', ...PAY] as const;

/**
 * PUT /companies/{id}: the name, and the carrier's requisites (issue 31) — each absent stays as it is, empty text
 * clears it; `vat_rate` (issue 34 §2): the VAT its acts and invoices bill at, null «Без НДС».
 */
export const companyUpdateSchema = z
  .object({ ...companySchema.shape, ...companyRequisitesFields, vat_rate: companyVatField })
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
  /**
   * The company's trip settings on the same card (docs/trips.md): the receiver's acceptance, a long wait, the
   * automatic stamps' dwell, «нет данных». Staff read them (drivers read them with their tasks), admins change them.
   */
  GET('/companies/:id/trip-settings', { roles: ALL_ROLES, answer: answer<TripSettings>() }),
  PUT('/companies/:id/trip-settings', {
    roles: ADMINS,
    body: tripSettingsSchema,
    answer: answer<TripSettings>(),
    /** The drivers' tasks carry the settings (the phone asks for a signature by them). */
    invalidates: ['reports', 'dispatch', 'tasks'],
    audience: ['company:param.id'],
  }),
);
