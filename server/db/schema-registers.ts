/** The registers' tables (migration 012, issue 31; docs/registers.md): counterparties, places, the fleet. */
import type { Generated } from 'kysely';
import type { LegalForm } from '../../contract/requisites.ts';
import type { BodyType, Ownership, VehiclePaperFields } from '../../contract/registers.ts';

type Id = Generated<number>;
/** 0 | 1, as every boolean of the schema (server/db/schema.ts). */
type Bool = number;

/** A company's counterparty (migration 010; docs/registers.md). */
export interface CounterpartiesTable {
  id: Id;
  company_id: number;
  legal_form: LegalForm;
  name: string;
  full_name: string | null;
  inn: string | null;
  kpp: string | null;
  ogrn: string | null;
  /** JSON list of CounterpartyRole. */
  roles: string;
  address: string | null;
  contact_name: string | null;
  phone: string | null;
  edo_id: string | null;
  note: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A place of loading or unloading (migration 010). `name_key`: contract/registers.ts placeKey(name). */
export interface PlacesTable {
  id: Id;
  company_id: number;
  name: string;
  name_key: string;
  address: string | null;
  lat: number | null;
  lon: number | null;
  radius_m: number;
  counterparty_id: number | null;
  driver_note: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A vehicle of the company's fleet (migration 010). `plate_key`: the normalised plate (unique in the company). */
/** With the card's fields the papers read (migration 033: `VehiclePaperFields`). */
export interface VehiclesTable extends VehiclePaperFields {
  id: Id;
  company_id: number;
  plate_key: string;
  plate: string;
  make: string | null;
  model: string | null;
  body_type: BodyType | null;
  ownership: Ownership | null;
  capacity_t: number | null;
  volume_m3: number | null;
  trailer_plate: string | null;
  is_foreign: Bool;
  is_active: Bool;
  created_at: string;
  updated_at: string;
}
