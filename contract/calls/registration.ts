/**
 * Registration requests (docs/product.md §2 and §6): the public sign-up, the staff's pending list, approval, and
 * rejection with a reason (docs/hardening.md). `POST /users/` is the same sign-up under the spec's other name
 * (contract/calls/users.ts).
 */
import { z } from 'zod';
import { answer, area, GET, PAY, POST } from '../call.ts';
import { STAFF } from '../roles.ts';
import { registrationSchema } from '../payloads.ts';
import { text } from '../fields.ts';
import type { RegistrationReceipt, RegistrationRequest, UserWire } from '../entities.ts';

/**
 * A sign-in or sign-up needs a few kB (a push subscription is the biggest part): an anonymous caller may not make
 * the server parse a megabyte of nested JSON.
 */
export const SIGN_IN_BODY_LIMIT = 16 * 1024;

export const REJECT_REASON_MAX = 500;
export const rejectRequestSchema = z.object({
  reason: text('укажите причину отказа')
    .min(1, 'укажите причину отказа')
    .max(REJECT_REASON_MAX, `не длиннее ${REJECT_REASON_MAX} символов`),
});
export type RejectRequestPayload = z.infer<typeof rejectRequestSchema>;

export const registrationCalls = area(
  POST('/registration-requests/', {
    roles: null,
    body: registrationSchema,
    bodyLimit: SIGN_IN_BODY_LIMIT,
    status: 201,
    answer: answer<RegistrationReceipt>(),
    audience: ['company-staff:body.company_id'],
  }),
  /** Pending requests the caller may decide on: their company's, or all for a super-admin. */
  GET('/registration-requests/', { roles: STAFF, answer: answer<RegistrationRequest[]>() }),
  POST('/registration-requests/:id/approve', {
    roles: STAFF,
    answer: answer<UserWire>(),
    // A new active manager is listed with the company's salaries (/wages/managers/).
    invalidates: ['users', ...PAY],
    audience: ['company-staff:answer.company_id'],
  }),
  /** The applicant learns the reason when they next try to sign in with the request's password. */
  POST('/registration-requests/:id/reject', {
    roles: STAFF,
    body: rejectRequestSchema,
    answer: answer<RegistrationRequest>(),
    audience: ['company-staff:answer.company_id'],
  }),
);
