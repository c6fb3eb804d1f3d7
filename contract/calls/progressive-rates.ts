/**
 * Progressive rates: a company's ladder of volume bands. Staff of the company read it; its admins (and the
 * super-admin) change it. Every change is checked against the whole ladder as it would be after it; a refusal is
 * a 400 naming the band (server/routes/WAGES.md).
 */
import { answer, area, DELETE, GET, POST, PUT } from '../call.ts';
import { ADMINS, STAFF } from '../roles.ts';
import { rateBandSchema, rateBandUpdateSchema, type RateBand } from '../wages.ts';

export const progressiveRateCalls = area(
  GET('/progressive_rates/company/:id', { roles: STAFF, answer: answer<RateBand[]>() }),
  POST('/progressive_rates/company/:id', {
    roles: ADMINS,
    body: rateBandSchema,
    status: 201,
    answer: answer<RateBand>(),
    invalidates: ['wages'],
    audience: ['company-staff:param.id'],
  }),
  /** The answer is the whole ladder: a moved boundary changes the neighbour too. */
  PUT('/progressive_rates/:id', { roles: ADMINS, body: rateBandUpdateSchema, answer: answer<RateBand[]>(), invalidates: ['wages'], audience: ['rate-band:param.id'] }),
  DELETE('/progressive_rates/:id', { roles: ADMINS, status: 204, answer: answer<null>(), invalidates: ['wages'], audience: ['rate-band:param.id'] }),
);
