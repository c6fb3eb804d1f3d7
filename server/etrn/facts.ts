/**
 * What a trip's transport waybill (ЭТрН, ФНС format 5.01) needs, gathered from the app's cards and the trip's
 * timeline into one plain shape: the generators (titles.ts) and the missing-facts check (missing.ts) read only this,
 * so they are pure and a route can fill it from the database later. Every field that a card may not have yet is
 * nullable: missing.ts says which are needed for which title and where each one lives (docs/documents.md).
 */
import type { LegalForm } from '../../contract/requisites.ts';

/** The titles we make: the shipper's Т1 as a draft it signs, the carrier's Т2 (acceptance) and Т4 (handover). */
export const ETRN_TITLES = ['t1', 't2', 't4'] as const;
export type EtrnTitle = (typeof ETRN_TITLES)[number];

/** A person's name as the format splits it (ФИОТип: 1–60 characters each; the patronymic only when there is one). */
export interface PersonName {
  last: string;
  first: string;
  middle: string | null;
}

/**
 * A participant: shipper, consignee, carrier or customer. ЮЛ: name, ИНН (10), КПП; ИП: ФИО, ИНН (12), ОГРНИП;
 * физлицо: ФИО and ИНН (12) — the format has no participant without an ИНН except a foreigner, which we do not
 * make. The address is the card's text (written as «АдрИнф», country 643); the phone is required by the format
 * for every participant of Т1 (Контакт/Тлф).
 */
export interface PartyFacts {
  /** The counterparty's card (null for the carrier: its requisites are the company's). */
  id: number | null;
  legalForm: LegalForm;
  /** ЮЛ: the full name as registered (НаимОрг). */
  name: string | null;
  /** ИП and физлицо: the name split into its parts. */
  person: PersonName | null;
  inn: string | null;
  kpp: string | null;
  /** ИП only: 15 digits. */
  ogrnip: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  /** The participant's ЭДО id at its operator (ФНС participant id, 4–46 characters): it goes into the file name. */
  edoId: string | null;
}

/** An instant of the trip as the timeline holds it (ISO-8601 UTC) with the UTC offset of the place, in minutes. */
export interface Moment {
  at: string;
  offsetMinutes: number;
}

export interface PlaceFacts {
  /** The place's card. */
  id: number | null;
  name: string;
  address: string | null;
  lat: number | null;
  lon: number | null;
}

/** A vehicle or a trailer as its card holds it. */
export interface VehicleUnitFacts {
  /** The plate as stored (contract/plates.ts: normalised, no spaces; the format allows 9 characters). */
  plate: string | null;
  /** Тип, e.g. «Самосвал», «Полуприцеп». */
  type: string | null;
  make: string | null;
  capacityT: number | null;
  volumeM3: number | null;
  /** own (собственность), rent (аренда), leasing (лизинг), free_use (безвозмездное пользование). */
  ownership: 'own' | 'rent' | 'leasing' | 'free_use' | null;
  /** Required by the format's rules when the unit is not owned: the lease (leasing, loan) contract. */
  leaseDocument: { name: string; number: string; date: string } | null;
  /** The lessor's ИНН (10 or 12 digits): the document's party (ИдРекСост). */
  lessorInn: string | null;
}

export interface VehicleFacts extends VehicleUnitFacts {
  /** The vehicle's card. */
  id: number | null;
  trailer: VehicleUnitFacts | null;
}

export interface DriverFacts {
  /** The driver's card (a user). */
  id: number | null;
  name: PersonName | null;
  phone: string | null;
  inn: string | null;
  /** The driving licence: series (4 digits in Russia), number (6), date of issue (YYYY-MM-DD). */
  licenceSeries: string | null;
  licenceNumber: string | null;
  licenceIssued: string | null;
}

export interface CargoFacts {
  name: string | null;
  /** СостГруз: «Сыпучий», «Навалом», «Твёрдый». */
  state: string | null;
  /** СпУпак: «Без упаковки», «Навалом», «В мешках». */
  packaging: string | null;
  /** ВидТар: the two-character code of the kind of package (ОКВГУМ / UN Rec. 21, e.g. «VY» bulk, «NE» unpacked). */
  packageCode: string | null;
  /** Грузовые места (1 for bulk). */
  places: number;
  /** The declared gross mass, tonnes (ПлМасГруз is in kilograms; converted). */
  massT: number | null;
  volumeM3: number | null;
  /** МетОпрМасс: 01 weighing, 02 by volume and density, 03 by the standard (ФНС codes). */
  massMethod: '01' | '02' | '03' | null;
}

/** A signer of a title: the person whose qualified signature the operator applies. */
export interface SignerFacts {
  name: PersonName | null;
  position: string | null;
  /** СтатПодп: 1 an employee of the participant, 2 a representative with a power of attorney (МЧД), 3 the participant itself. */
  status: '1' | '2' | '3';
  /** The МЧД, required when status is 2. */
  powerOfAttorney: { id: string; date: string; number: string | null } | null;
}

/** The id, date, time and signature of a counterpart's file a title answers (Т1 for Т2, Т3 for Т4). */
export interface FileRef {
  fileId: string;
  /** YYYY-MM-DD and hh:mm:ss as the file's header says. */
  date: string;
  time: string;
  /** The signature (CMS, base64) as received. */
  signature: string;
}

/** A party's refusal to sign at loading or unloading, with the reason, recorded by the carrier as a mark. */
export interface RefusalFacts {
  stage: 'loading' | 'unloading';
  who: string;
  reason: string;
  at: Moment;
}

/**
 * The driver's confirmation of a carrier's title by his simple electronic signature (ПЭП): «Груз принят к
 * перевозке» (Т2) at the loading departure, «Груз сдан» (Т4) at the unloading departure. He is that title's signer.
 */
export interface DriverSigned {
  signer: SignerFacts;
  /** When he confirmed, with the place's offset. */
  at: Moment;
  /** His remarks on the cargo, joined to the carrier's. */
  remarks: string | null;
}

export interface WaybillFacts {
  /** The trip (a report) the waybill is for: the «Документы» panel links what is missing on it. */
  tripId: number | null;
  /** The waybill's own number and date (ДатаТрН, YYYY-MM-DD). */
  number: string | null;
  date: string | null;
  /** УИД ТрН: the id the operator returns once Т1 is accepted; required by Т2 and Т4. */
  uid: string | null;
  /** The order (заказ, заявка) the trip is made under: the task's number and date. */
  order: { number: string; date: string } | null;
  shipper: PartyFacts | null;
  consignee: PartyFacts | null;
  carrier: PartyFacts | null;
  /** The customer (заказчик) when it is neither the shipper nor the consignee. */
  customer: PartyFacts | null;
  /** The contract with the customer for organising the carriage: Т1 names the customer only with it (СвЗак/ДогУслПер). */
  customerContract: { name: string; number: string; date: string } | null;
  cargo: CargoFacts;
  vehicle: VehicleFacts | null;
  driver: DriverFacts | null;
  loading: PlaceFacts | null;
  unloading: PlaceFacts | null;
  /** The declared date and time of loading (the task's). */
  plannedLoading: Moment | null;
  /** The trip's timeline: arrival and departure at loading and unloading. */
  loadingArrived: Moment | null;
  loadingDeparted: Moment | null;
  unloadingArrived: Moment | null;
  unloadingDeparted: Moment | null;
  /** The masses the carrier accepted at loading and handed over at unloading, tonnes (null: not weighed). */
  massAcceptedT: number | null;
  massHandedOverT: number | null;
  /** The carrier's remarks on the cargo's state at loading and at unloading. */
  remarksLoading: string | null;
  remarksUnloading: string | null;
  refusal: RefusalFacts | null;
  /** Who signs the shipper's Т1 draft (the shipper's card's contact) and the carrier's titles. */
  shipperSigner: SignerFacts | null;
  carrierSigner: SignerFacts | null;
  /** The driver's ПЭП of Т2 / Т4, when the company asks for it and he confirmed: then he signs that title. */
  driverSigned?: { t2: DriverSigned | null; t4: DriverSigned | null };
  /** The shipper's Т1 file, once received (or our draft once the shipper has signed it). */
  t1File: FileRef | null;
  /** The consignee's Т3 file, once received. */
  t3File: FileRef | null;
}

/** «Иванов Иван Иванович» → its parts; null when there are fewer than two words. */
export function splitName(text: string | null | undefined): PersonName | null {
  const words = (text ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return null;
  const [last, first, ...rest] = words as [string, string, ...string[]];
  return { last, first, middle: rest.length > 0 ? rest.join(' ') : null };
}
