/**
 * A trip's base facts (gather.ts) and its timeline (`TripFacts`, as GET /reports/{id} answers it) turned into what
 * each paper's renderer reads: the proof of delivery and the paper waybill (server/pdf/facts.ts) and the ЭТрН titles
 * (server/etrn/facts.ts). Pure: no database, no clock but what comes in.
 */
import type { DriverConfirmation, TripFacts, TripStep } from '../../contract/trips.ts';
import type { DriverConfirmations } from '../trips/confirmations.ts';
import type { PodFacts, PdfParty, PdfPhoto, PdfVehicle, WaybillFacts as PaperFacts } from '../pdf/facts.ts';
import { splitName, type DriverSigned, type Moment, type PartyFacts, type SignerFacts, type WaybillFacts as EtrnFacts } from '../etrn/facts.ts';
import type { PartyRow, TripBase } from './gather.ts';
import { LEASE_DOCUMENT_NAMES } from '../../contract/registers.ts';
import { waybillNumberOf } from '../../contract/waybill.ts';
import { cargoPacking, licenceText } from '../../contract/cargo-facts.ts';

/** Times are written in Moscow time until a company has a zone of its own (docs/documents.md). */
export const PAPER_ZONE = 'Europe/Moscow';
const ZONE_OFFSET_MINUTES = 180;

/** What the trip carried: loaded and handed over, in the task's unit (the report's own figures when no step had them). */
export interface TripQuantities {
  loaded: number | null;
  unloaded: number | null;
}

export function tripQuantities(base: TripBase): TripQuantities {
  return { loaded: base.report.total_loading_quantity ?? base.report.quantity, unloaded: base.report.total_unloading_quantity ?? base.report.quantity };
}

const partyOf = (p: PartyRow | null): PdfParty | null =>
  p ? { name: p.name, full_name: p.full_name, legal_form: p.legal_form, inn: p.inn, kpp: p.kpp, ogrn: p.ogrn, address: p.address, phone: p.phone } : null;

const carrierOf = (c: TripBase['company']): PdfParty => ({
  name: c.name,
  full_name: c.full_name,
  legal_form: c.inn?.length === 12 ? 'ip' : 'ul',
  inn: c.inn,
  kpp: c.kpp,
  ogrn: c.ogrn,
  address: c.address,
  phone: c.phone,
});

type VehicleRow = NonNullable<TripBase['vehicle']>;
/** How a vehicle or its trailer is held: the ownership, the document when not owned, the lessor. */
type Holding = Pick<VehicleRow, 'ownership' | 'lease_doc_name' | 'lease_doc_number' | 'lease_doc_date' | 'lessor_inn'>;

/** The trailer's own holding (migration 051): a leased truck may pull its own trailer, and the other way round. */
const trailerHolding = (v: VehicleRow): Holding => ({
  ownership: v.trailer_ownership,
  lease_doc_name: v.trailer_lease_doc_name,
  lease_doc_number: v.trailer_lease_doc_number,
  lease_doc_date: v.trailer_lease_doc_date,
  lessor_inn: v.trailer_lessor_inn,
});

/** The document a unit not owned is held under: the card's name, else the ownership's usual one, with number and date. */
function leaseDocument(v: Holding): { name: string; number: string; date: string } | null {
  if (!v.ownership || v.ownership === 'own' || !v.lease_doc_number || !v.lease_doc_date) return null;
  return { name: v.lease_doc_name ?? LEASE_DOCUMENT_NAMES[v.ownership], number: v.lease_doc_number, date: v.lease_doc_date };
}

const dotted = (iso: string) => iso.split('-').reverse().join('.');

/** The paper's «основание владения»: «Договор лизинга № Л-12 от 01.02.2025, арендодатель ИНН 7707083893». */
function ownershipDocument(v: Holding): string | null {
  const doc = leaseDocument(v);
  if (!doc) return null;
  return `${doc.name} № ${doc.number} от ${dotted(doc.date)}${v.lessor_inn ? `, арендодатель ИНН ${v.lessor_inn}` : ''}`;
}

const licenceOf = (d: TripBase['driver']): string | null => {
  const text = licenceText(d.license_series, d.license_number);
  return text ? `${text}${d.license_issued ? ` от ${dotted(d.license_issued)}` : ''}` : null;
};

const vehicleOf = (v: TripBase['vehicle']): PdfVehicle | null =>
  v
    ? {
        plate: v.plate,
        make: v.make,
        model: v.model,
        body_type: v.body_type,
        ownership: v.ownership,
        ownership_document: ownershipDocument(v),
        capacity_t: v.capacity_t,
        volume_m3: v.volume_m3,
        trailer_plate: v.trailer_plate,
        trailer: v.trailer_plate
          ? {
              type: v.trailer_type,
              make: v.trailer_make,
              capacity_t: v.trailer_capacity_t,
              volume_m3: v.trailer_volume_m3,
              ownership: v.trailer_ownership,
              ownership_document: ownershipDocument(trailerHolding(v)),
            }
          : null,
      }
    : null;

export function podFacts(base: TripBase, trip: TripFacts, photos: PdfPhoto[], signature: Uint8Array | null, now: string): PodFacts {
  const q = tripQuantities(base);
  return {
    company: carrierOf(base.company),
    report_id: base.report.id,
    task: {
      id: base.task.id,
      date: base.task.date,
      cargo: base.task.cargo,
      loading_place: base.loading?.name ?? base.task.loading_place,
      unloading_place: base.unloading?.name ?? base.task.unloading_place,
      loading_address: base.loading?.address ?? null,
      unloading_address: base.unloading?.address ?? null,
      unit: base.task.unit,
      customer: partyOf(base.customer),
    },
    driver: { name: base.driver.name, licence: licenceOf(base.driver), phone: base.driver.phone },
    vehicle: vehicleOf(base.vehicle),
    trip,
    ticket_number: base.report.ticket_number,
    loading_quantity: q.loaded,
    unloading_quantity: q.unloaded,
    photos,
    signature,
    generated_at: now,
    time_zone: PAPER_ZONE,
  };
}

/** The waybill's number: the task's and the trip's, so it is unique in the company and says what it is for. */
export const waybillNumber = (base: TripBase): string => waybillNumberOf(base.task.id, base.report.id);

/** The paper's cargo boxes: its state, and «Навалом; вид тары VY» (what the task names; bulk when it names none). */
function paperPacking(task: TripBase['task']): { state: string | null; packaging: string | null } {
  const c = cargoPacking(task);
  const packaging = [c.packaging, c.packageCode ? `вид тары ${c.packageCode}` : null].filter(Boolean).join('; ');
  return { state: c.state, packaging: packaging || null };
}

export function paperWaybillFacts(base: TripBase, trip: TripFacts, signature: Uint8Array | null): PaperFacts {
  const q = tripQuantities(base);
  return {
    number: waybillNumber(base),
    date: base.task.date,
    order: { number: String(base.task.id), date: base.task.date },
    shipper: partyOf(base.shipper),
    consignee: partyOf(base.consignee),
    delivery_address: base.unloading?.address ?? base.task.unloading_place,
    cargo: { name: base.task.cargo, ...paperPacking(base.task), quantity: q.loaded, unit: base.task.unit },
    carrier: carrierOf(base.company),
    driver: { name: base.driver.name, inn: base.driver.inn, licence: licenceOf(base.driver), phone: base.driver.phone },
    vehicle: vehicleOf(base.vehicle),
    loading: { address: base.loading?.address ?? base.task.loading_place, quantity: q.loaded },
    unloading: { address: base.unloading?.address ?? base.task.unloading_place, quantity: q.unloaded },
    timeline: trip.timeline,
    ticket_number: base.report.ticket_number,
    acceptance: trip.acceptance,
    signature,
    after_the_fact: trip.after_the_fact,
    time_zone: PAPER_ZONE,
  };
}

const partyFacts = (p: PartyRow | null): PartyFacts | null =>
  p
    ? {
        id: p.id,
        legalForm: p.legal_form,
        name: p.legal_form === 'ul' ? (p.full_name ?? p.name) : null,
        person: p.legal_form === 'ul' ? null : splitName(p.full_name ?? p.name),
        inn: p.inn,
        kpp: p.legal_form === 'ul' ? p.kpp : null,
        ogrnip: p.legal_form === 'ip' ? p.ogrn : null,
        address: p.address,
        phone: p.phone,
        email: null,
        edoId: p.edo_id,
      }
    : null;

const moment = (trip: TripFacts, step: TripStep): Moment | null => {
  const stamp = trip.timeline[step];
  return stamp ? { at: stamp.at, offsetMinutes: ZONE_OFFSET_MINUTES } : null;
};

/** The tonnes of a quantity in the task's unit (a volume is not a mass: left out). */
const tonnes = (value: number | null, unit: string): number | null => (value !== null && unit.trim() === 'т' ? value : null);

/** The driver as the signer of a title he confirmed by his ПЭП: an employee of the carrier (СтатПодп 1), «Водитель». */
const driverSigned = (c: DriverConfirmation | undefined): DriverSigned | null =>
  c ? { signer: { name: splitName(c.driver_name), position: 'Водитель', status: '1', powerOfAttorney: null }, at: { at: c.at, offsetMinutes: ZONE_OFFSET_MINUTES }, remarks: c.remarks } : null;

/**
 * The ЭТрН's facts. `signer` is the staff member who prepares the titles (status 1, an employee of the carrier; the
 * qualified signature is applied at the operator). Facts a card does not hold (a lease document, the driver's ИНН,
 * a trailer's make, the ЭДО id of a party) stay null, and missingFacts names them. `chain`: what the
 * received titles give (server/papers/incoming.ts chainFor) — the shipper's Т1 and the consignee's Т3 the carrier's
 * Т2 and Т4 cite, and the waybill's УИД. `confirmed`: the driver's ПЭП confirmations, given only when the company
 * asks for them (its `driver_confirms`): he then signs the Т2 / Т4 he confirmed.
 */
export function etrnFacts(
  base: TripBase,
  trip: TripFacts,
  signer: { name: string; position: string },
  chain: Partial<Pick<EtrnFacts, 'uid' | 't1File' | 't3File'>> = {},
  confirmed: DriverConfirmations = {},
): EtrnFacts {
  const q = tripQuantities(base);
  const company = base.company;
  const carrierIp = company.inn?.length === 12;
  const refused = trip.acceptance.kind === 'refused';
  const carrierSigner: SignerFacts = { name: splitName(signer.name), position: signer.position, status: '1', powerOfAttorney: null };
  const contactSigner = base.shipper?.contact_name ? { name: splitName(base.shipper.contact_name), position: 'Представитель грузоотправителя', status: '1' as const, powerOfAttorney: null } : null;
  const v = base.vehicle;
  return {
    tripId: base.report.id,
    number: waybillNumber(base),
    date: base.task.date,
    uid: chain.uid ?? null,
    order: { number: String(base.task.id), date: base.task.date },
    shipper: partyFacts(base.shipper),
    consignee: partyFacts(base.consignee),
    carrier: {
      id: null,
      legalForm: carrierIp ? 'ip' : 'ul',
      name: carrierIp ? null : (company.full_name ?? company.name),
      person: carrierIp ? splitName(company.full_name ?? company.name) : null,
      inn: company.inn,
      kpp: carrierIp ? null : company.kpp,
      ogrnip: carrierIp ? company.ogrn : null,
      address: company.address,
      phone: company.phone,
      email: null,
      edoId: company.edo_id,
    },
    customer: base.customer && base.customer.id !== base.shipper?.id && base.customer.id !== base.consignee?.id ? partyFacts(base.customer) : null,
    customerContract: null,
    cargo: {
      name: base.task.cargo,
      ...cargoPacking(base.task),
      places: 1,
      massT: tonnes(q.loaded ?? base.task.planned_quantity, base.task.unit),
      volumeM3: base.task.unit.trim() === 'м³' ? q.loaded : null,
      // Bulk cargo is weighed at the weighbridge (01); a volume is measured by the body (02).
      massMethod: base.task.unit.trim() === 'м³' ? '02' : '01',
    },
    vehicle: v
      ? {
          id: v.id,
          plate: v.plate_key,
          type: v.body_type === 'dump_truck' ? 'Самосвал' : v.body_type ? 'Грузовой' : null,
          make: [v.make, v.model].filter(Boolean).join(' ') || null,
          capacityT: v.capacity_t,
          volumeM3: v.volume_m3,
          ownership: v.ownership,
          leaseDocument: leaseDocument(v),
          lessorInn: v.lessor_inn,
          // The trailer is held on its own (migration 051): its ownership, document and lessor, not the vehicle's.
          trailer: v.trailer_plate
            ? {
                plate: v.trailer_plate.replace(/\s+/g, ''),
                type: v.trailer_type,
                make: v.trailer_make,
                capacityT: v.trailer_capacity_t,
                volumeM3: v.trailer_volume_m3,
                ownership: v.trailer_ownership,
                leaseDocument: leaseDocument(trailerHolding(v)),
                lessorInn: v.trailer_lessor_inn,
              }
            : null,
        }
      : null,
    driver: {
      id: base.driver.id,
      name: splitName(base.driver.name),
      phone: base.driver.phone,
      inn: base.driver.inn,
      licenceSeries: base.driver.license_series,
      licenceNumber: base.driver.license_number,
      licenceIssued: base.driver.license_issued,
    },
    loading: base.loading ? { id: base.loading.id, name: base.loading.name, address: base.loading.address, lat: base.loading.lat, lon: base.loading.lon } : null,
    unloading: base.unloading ? { id: base.unloading.id, name: base.unloading.name, address: base.unloading.address, lat: base.unloading.lat, lon: base.unloading.lon } : null,
    // A task names the day of loading, not an hour: the declared loading is the day's start in the place's zone.
    plannedLoading: { at: new Date(`${base.task.date}T00:00:00+03:00`).toISOString(), offsetMinutes: ZONE_OFFSET_MINUTES },
    loadingArrived: moment(trip, 'loading_arrived'),
    loadingDeparted: moment(trip, 'loading_departed'),
    unloadingArrived: moment(trip, 'unloading_arrived'),
    unloadingDeparted: moment(trip, 'unloading_departed'),
    massAcceptedT: tonnes(q.loaded, base.task.unit),
    massHandedOverT: tonnes(q.unloaded, base.task.unit),
    remarksLoading: null,
    remarksUnloading: refused ? `Получатель отказался подписать: ${trip.acceptance.refused_reason ?? ''}`.trim() : null,
    refusal: refused
      ? {
          stage: 'unloading',
          who: trip.acceptance.receiver_name ?? 'Грузополучатель',
          reason: trip.acceptance.refused_reason ?? '',
          at: { at: trip.acceptance.at ?? trip.timeline.unloading_departed?.at ?? base.report.created_at, offsetMinutes: ZONE_OFFSET_MINUTES },
        }
      : null,
    shipperSigner: contactSigner,
    carrierSigner,
    driverSigned: { t2: driverSigned(confirmed.loading_departed), t4: driverSigned(confirmed.unloading_departed) },
    t1File: chain.t1File ?? null,
    t3File: chain.t3File ?? null,
  };
}
