/** The customer's price list (contract/calls/prices.ts; docs/prices.md). */
import type { RouteModule } from '../context.ts';
import { priceCalls } from '../../contract/calls/prices.ts';
import { registerArea } from './define.ts';
import { addLine, changeLine, priceList } from '../prices/lines.ts';

export const priceRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  registerArea(app, ctx, priceCalls, {
    'GET /price-lists/': ({ user, query }) => priceList(db, user, query.counterparty_id),
    'POST /price-lists/': ({ user, body }) => addLine(db, user, body),
    'PUT /price-lists/:id': ({ user, params: { id }, body }) => changeLine(db, user, id, body),
  });
};
