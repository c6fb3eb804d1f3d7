/**
 * The company's registers (issue 31; docs/registers.md): counterparties, places of loading and unloading, the
 * fleet. Staff of the company (a super-admin: any company, naming it with `?company_id=`); another company's card
 * is 404. A counterparty or a place that tasks use is archived rather than deleted (the answer says which); a
 * duplicate ИНН + КПП, place name or plate is 409 naming the card that has it.
 */
import { answer, area, DELETE, GET, POST, PUT } from '../call.ts';
import type { Page } from '../entities.ts';
import { counterpartySchema } from '../requisites.ts';
import {
  counterpartyListQuery,
  placeListQuery,
  placeSchema,
  registerCreateQuery,
  vehicleListQuery,
  vehicleSchema,
  type Counterparty,
  type MapTiles,
  type Place,
  type RegisterRemoval,
  type Vehicle,
} from '../registers.ts';
import { STAFF } from '../roles.ts';

/** A counterparty's or a place's name shows on the company's tasks and the board. */
const shows = ['tasks', 'dispatch'] as const;

export const counterpartyCalls = area(
  GET('/counterparties/', { roles: STAFF, query: counterpartyListQuery, answer: answer<Page<Counterparty>>() }),
  POST('/counterparties/', {
    roles: STAFF,
    query: registerCreateQuery,
    body: counterpartySchema,
    status: 201,
    answer: answer<Counterparty>(),
    audience: ['company-staff:answer.company_id'],
  }),
  PUT('/counterparties/:id', {
    roles: STAFF,
    body: counterpartySchema,
    answer: answer<Counterparty>(),
    invalidates: shows,
    audience: ['company-staff:answer.company_id'],
  }),
  DELETE('/counterparties/:id', { roles: STAFF, answer: answer<RegisterRemoval>(), invalidates: shows, audience: ['company-staff:answer.company_id'] }),
  /** An archived card back in use (offered for new tasks again); one in use is answered as it is. */
  POST('/counterparties/:id/restore', { roles: STAFF, answer: answer<Counterparty>(), invalidates: shows, audience: ['company-staff:answer.company_id'] }),
);

export const placeCalls = area(
  GET('/places/', { roles: STAFF, query: placeListQuery, answer: answer<Page<Place>>() }),
  /** The server's map tiles for the card's map (MAP_TILE_URL); the same for every company. */
  GET('/places/map-tiles', { roles: STAFF, answer: answer<MapTiles>() }),
  POST('/places/', { roles: STAFF, query: registerCreateQuery, body: placeSchema, status: 201, answer: answer<Place>(), audience: ['company-staff:answer.company_id'] }),
  /** A place's address, point and note show on its tasks, the drivers' too. */
  PUT('/places/:id', { roles: STAFF, body: placeSchema, answer: answer<Place>(), invalidates: shows, audience: ['company:answer.company_id'] }),
  DELETE('/places/:id', { roles: STAFF, answer: answer<RegisterRemoval>(), invalidates: shows, audience: ['company-staff:answer.company_id'] }),
  /** An archived place back in use; 409 when a place in use has its name meanwhile. */
  POST('/places/:id/restore', { roles: STAFF, answer: answer<Place>(), invalidates: shows, audience: ['company-staff:answer.company_id'] }),
);

export const vehicleCalls = area(
  GET('/vehicles/', { roles: STAFF, query: vehicleListQuery, answer: answer<Page<Vehicle>>() }),
  POST('/vehicles/', { roles: STAFF, query: registerCreateQuery, body: vehicleSchema, status: 201, answer: answer<Vehicle>(), audience: ['company-staff:answer.company_id'] }),
  /** A vehicle's plate and capacity show on its drivers' cards and the board. */
  PUT('/vehicles/:id', { roles: STAFF, body: vehicleSchema, answer: answer<Vehicle>(), invalidates: ['users', 'dispatch'], audience: ['company-staff:answer.company_id'] }),
);

export const registerCalls = { ...counterpartyCalls, ...placeCalls, ...vehicleCalls };
