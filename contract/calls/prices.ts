/**
 * The customer's price list (issue 34 §1; docs/prices.md): its lines by customer, every version. Staff of the
 * customer's company (a super-admin: any); another company's customer or line is 404. A line whose period reaches
 * into a closed payroll month cannot be changed, and a new one cannot start in one (409 naming the month).
 */
import { answer, area, GET, POST, PUT } from '../call.ts';
import { priceLineCreateSchema, priceLineSchema, priceListQuery, type PriceLine, type PriceList } from '../prices.ts';
import { STAFF } from '../roles.ts';

export const priceCalls = area(
  GET('/price-lists/', { roles: STAFF, query: priceListQuery, answer: answer<PriceList>() }),
  POST('/price-lists/', { roles: STAFF, body: priceLineCreateSchema, status: 201, answer: answer<PriceLine>(), audience: ['company-staff:answer.company_id'] }),
  PUT('/price-lists/:id', { roles: STAFF, body: priceLineSchema, answer: answer<PriceLine>(), audience: ['company-staff:answer.company_id'] }),
);
