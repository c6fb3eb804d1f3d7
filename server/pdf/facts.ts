/**
 * What the papers are drawn from: facts already read by the caller (the renderers touch no database). The trip's
 * part is contract/trips.ts's own shapes (`TripFacts`, `Timeline`, `Acceptance`), so a route hands over what
 * GET /reports/{id} answers; parties and vehicles are the registers' fields (contract/registers.ts). Every fact
 * but a few names may be null: its box on the paper stays empty, to be completed by hand.
 */
import type { LegalForm } from '../../contract/requisites.ts';
import type { BodyType, Ownership } from '../../contract/registers.ts';
import type { Acceptance, Timeline, TripFacts } from '../../contract/trips.ts';
import type { TripSheet } from '../../contract/trip-sheets.ts';

/** A party with its requisites: the carrier (the company's own), a customer, shipper or consignee. */
export interface PdfParty {
  name: string;
  full_name?: string | null;
  legal_form?: LegalForm | null;
  inn?: string | null;
  kpp?: string | null;
  ogrn?: string | null;
  address?: string | null;
  phone?: string | null;
}

export interface PdfDriver {
  name: string;
  inn?: string | null;
  /** The driving licence: series, number, date. */
  licence?: string | null;
  phone?: string | null;
}

export interface PdfVehicle {
  plate: string | null;
  make?: string | null;
  model?: string | null;
  body_type?: BodyType | null;
  ownership?: Ownership | null;
  /** The document the vehicle is held by when not owned (a lease: its number and date). */
  ownership_document?: string | null;
  capacity_t?: number | null;
  volume_m3?: number | null;
  trailer_plate?: string | null;
  /** The trailer's card fields (its type, make, capacity, volume and how it is held) when it has a plate. */
  trailer?: {
    type: string | null;
    make: string | null;
    capacity_t: number | null;
    volume_m3: number | null;
    ownership?: Ownership | null;
    ownership_document?: string | null;
  } | null;
}

/** A picture's bytes as stored (JPEG, PNG or WebP) and what it shows. */
export interface PdfPhoto {
  data: Uint8Array;
  caption?: string | null;
}

/** The proof of delivery of one trip (issue 32). */
export interface PodFacts {
  /** The carrier. */
  company: PdfParty;
  report_id: number;
  task: {
    id: number;
    /** YYYY-MM-DD. */
    date: string;
    cargo: string;
    loading_place: string;
    unloading_place: string;
    loading_address?: string | null;
    unloading_address?: string | null;
    unit: string;
    customer?: PdfParty | null;
  };
  driver: PdfDriver;
  vehicle?: PdfVehicle | null;
  /** As GET /reports/{id} answers it. */
  trip: TripFacts;
  ticket_number: string | null;
  loading_quantity: number | null;
  unloading_quantity: number | null;
  photos: PdfPhoto[];
  /** The receiver's signature PNG when `trip.acceptance.kind` is `signed`. */
  signature?: Uint8Array | null;
  /** When the paper was made (ISO); now when absent. */
  generated_at?: string;
  /** The zone times are shown in (IANA), Europe/Moscow when absent. */
  time_zone?: string;
}

/** The paper transport waybill of one trip (issue 33 §1, Правила перевозок грузов автомобильным транспортом, прил. 4). */
export interface WaybillFacts {
  number: string | null;
  /** YYYY-MM-DD. */
  date: string | null;
  order?: { number: string | null; date: string | null } | null;
  /** 1. Грузоотправитель. */
  shipper: PdfParty | null;
  /** 2. Грузополучатель and the delivery address. */
  consignee: PdfParty | null;
  delivery_address?: string | null;
  /** 3. Груз. */
  cargo: {
    name: string | null;
    /** The cargo's state («Сыпучий»). */
    state?: string | null;
    /** Places, marking, tare, packing. */
    packaging?: string | null;
    /** The planned (or declared) quantity in `unit`. */
    quantity?: number | null;
    unit?: string | null;
    /** For a dangerous cargo: its class and UN number. */
    dangerous?: string | null;
  };
  /** 4. Сопроводительные документы на груз (certificates, quality passports…); the ticket is added by the renderer. */
  documents?: string[];
  /** Documents confirming the shipment (an invoice, УПД: number and date). */
  shipment_documents?: string | null;
  /** 5. Указания грузоотправителя. */
  instructions?: { vehicle?: string | null; requirements?: string | null; terms?: string | null } | null;
  /** 6. Перевозчик and the driver. */
  carrier: PdfParty | null;
  driver: PdfDriver | null;
  /** 7. Транспортное средство. */
  vehicle: PdfVehicle | null;
  /** 8. Прием груза and 10. Выдача груза: the places, the planned times, the trip's timeline and quantities. */
  loading: { address: string | null; planned_at?: string | null; quantity?: number | null; state?: string | null; places?: string | null };
  unloading: { address: string | null; planned_at?: string | null; quantity?: number | null; state?: string | null; places?: string | null };
  timeline?: Timeline | null;
  ticket_number?: string | null;
  /** The receiver's acceptance, and its signature PNG when signed. */
  acceptance?: Acceptance | null;
  signature?: Uint8Array | null;
  /** The shipper's person who handed the cargo over: position and name. */
  shipper_signatory?: string | null;
  /** 9. Переадресовка, when there was one. */
  readdressing?: { date: string | null; form: string | null; address: string | null; new_consignee: string | null } | null;
  /** 11. Отметки. */
  remarks?: string[];
  /** 12. Стоимость перевозки: roubles; `vat_rate` as printed («20 %», «Без НДС»). */
  price?: { amount_without_vat: number | null; vat_rate: string | null; vat: number | null; amount_with_vat: number | null; calculation?: string | null } | null;
  /** «внесён задним числом»: the times were typed after the trip. */
  after_the_fact?: boolean;
  time_zone?: string;
}

/** The trip sheet of a vehicle's day (issue 33 §2, docs/trip-sheets.md): the sheet as the calls answer it. */
export interface TripSheetPdfFacts {
  /** The owner (the carrier): the company card. */
  company: PdfParty;
  sheet: TripSheet;
  /** When the paper was made (ISO); now when absent. */
  generated_at?: string;
  time_zone?: string;
}
