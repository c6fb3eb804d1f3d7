/**
 * Progressive rates: a company's ladder of volume bands. Staff of the company read it; its admins (and the
 * super-admin) change it. Every change is checked against the whole ladder as it would be after it; a refusal is
 * a 400 naming the band (server/routes/WAGES.md). The scale has versions by start date (`valid_from`): a change
 * lands in the version starting on its date (copied from the one in force then, if none starts there) and never in
 * a closed month (409).
 */
import { answer, area, DELETE, GET, POST, PUT, PAY } from '../call.ts';
import { ADMINS, STAFF } from '../roles.ts';
import { rateBandDeleteQuery, rateBandSchema, rateBandUpdateSchema, scaleImpactQuery, type RateBand, type ScaleImpact } from '../wages.ts';

export const progressiveRateCalls = area(
  /** Every version's bands, oldest version first, each by min. */
  GET('/progressive_rates/company/:id', { roles: STAFF, answer: answer<RateBand[]>() }),
  GET('/progressive_rates/company/:id/impact', { roles: STAFF, query: scaleImpactQuery, answer: answer<ScaleImpact>() }),
  POST('/progressive_rates/company/:id', {
    roles: ADMINS,
    body: rateBandSchema,
    status: 201,
    answer: answer<RateBand>(),
    invalidates: PAY,
    audience: ['company-staff:param.id'],
  }),
  /** The answer is the whole ladder: a moved boundary changes the neighbour too. */
  PUT('/progressive_rates/:id', { roles: ADMINS, body: rateBandUpdateSchema, answer: answer<RateBand[]>(), invalidates: PAY, audience: ['rate-band:param.id'] }),
  DELETE('/progressive_rates/:id', { roles: ADMINS, query: rateBandDeleteQuery, status: 204, answer: answer<null>(), invalidates: PAY, audience: ['rate-band:param.id'] }),
);
