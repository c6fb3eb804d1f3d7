/**
 * The registers' calls (contract/calls/registers.ts; docs/registers.md): counterparties, places, the fleet. Staff of
 * the card's company or a super-admin; another company's card is 404, like a missing one.
 */
import type { RouteModule } from '../context.ts';
import { counterpartyCalls, placeCalls, vehicleCalls } from '../../contract/calls/registers.ts';
import { registerArea } from './define.ts';
import { cardCompany, listCompany } from '../registers/common.ts';
import { listCounterparties, removeCounterparty, restoreCounterparty, saveCounterparty } from '../registers/counterparties.ts';
import { listPlaces, loadPlace, removePlace, restorePlace, savePlace } from '../registers/places.ts';
import { listVehicles, saveVehicle } from '../registers/vehicles.ts';

const NO_COUNTERPARTY = 'Контрагент не найден';
const NO_PLACE = 'Место не найдено';
const NO_VEHICLE = 'Машина не найдена';

export const registerRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, counterpartyCalls, {
    'GET /counterparties/': async ({ user, query }) => listCounterparties(db, await listCompany(db, user, query.company_id), query),
    'POST /counterparties/': async ({ user, query, body }) => saveCounterparty(db, await listCompany(db, user, query.company_id), null, body),
    'PUT /counterparties/:id': async ({ user, params: { id }, body }) => saveCounterparty(db, await cardCompany(db, user, 'counterparties', id, NO_COUNTERPARTY), id, body),
    'DELETE /counterparties/:id': async ({ user, params: { id } }) => removeCounterparty(db, id, await cardCompany(db, user, 'counterparties', id, NO_COUNTERPARTY)),
    'POST /counterparties/:id/restore': async ({ user, params: { id } }) => {
      await cardCompany(db, user, 'counterparties', id, NO_COUNTERPARTY);
      return restoreCounterparty(db, id);
    },
  });

  registerArea(app, ctx, placeCalls, {
    'GET /places/': async ({ user, query }) => listPlaces(db, await listCompany(db, user, query.company_id), query),
    'GET /places/map-tiles': () => {
      const tiles = ctx.config.mapTiles;
      return { tile_url: tiles?.url ?? null, attribution: tiles?.attribution ?? null };
    },
    'POST /places/': async ({ user, query, body }) => {
      const companyId = await listCompany(db, user, query.company_id);
      return loadPlace(db, await savePlace(db.kysely, companyId, null, body));
    },
    'PUT /places/:id': async ({ user, params: { id }, body }) => {
      const companyId = await cardCompany(db, user, 'places', id, NO_PLACE);
      await db.kysely.transaction().execute((trx) => savePlace(trx, companyId, id, body));
      return loadPlace(db, id);
    },
    'DELETE /places/:id': async ({ user, params: { id } }) => removePlace(db, id, await cardCompany(db, user, 'places', id, NO_PLACE)),
    'POST /places/:id/restore': async ({ user, params: { id } }) => restorePlace(db, id, await cardCompany(db, user, 'places', id, NO_PLACE)),
  });

  registerArea(app, ctx, vehicleCalls, {
    'GET /vehicles/': async ({ user, query }) => listVehicles(db, await listCompany(db, user, query.company_id), query),
    'POST /vehicles/': async ({ user, query, body }) => saveVehicle(db, await listCompany(db, user, query.company_id), null, body),
    'PUT /vehicles/:id': async ({ user, params: { id }, body }) => saveVehicle(db, await cardCompany(db, user, 'vehicles', id, NO_VEHICLE), id, body),
  });
};
