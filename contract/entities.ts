/**
 * The HTTP API's entities, as the server answers them (docs/product.md §3).
 * Both `server/` and `worker/` import these; nothing here touches a realm's globals.
 */
import type { Role } from './roles.ts';
import type { TripFacts, TripSettings, TripStep } from './trips.ts';
import type { ReportFlag } from './report-checks.ts';
import type { DriverPay } from './money.ts';
import type { CounterpartyRef, PlaceRef, VehicleRef } from './registers.ts';
import type { PriceSource } from './prices.ts';
import type { CustomerDispute } from './customer-links.ts';
import type { DriverWaybill } from './waybill.ts';

export interface Company {
  id: number;
  name: string;
}

/** GET /companies/{id}, PUT /companies/{id}: the company with the carrier's requisites (contract/requisites.ts), each null until entered. */
export interface CompanyCard extends Company {
  /** The carrier's ЭДО participant id (migration 019). */
  edo_id: string | null;
  full_name: string | null;
  inn: string | null;
  kpp: string | null;
  ogrn: string | null;
  address: string | null;
  phone: string | null;
  /** The VAT its acts and invoices bill at, percent (prices include it); null: «Без НДС» (docs/statements.md). */
  vat_rate: number | null;
}

export interface Transport {
  id: number;
  vehicle_number: string;
  vehicle_brand: string;
  vehicle_capacity: number | null;
  is_current: boolean;
}

/** The server sends the role as an object; the client flattens it to the name (docs/product.md §3). */
export interface UserWire {
  id: number;
  email: string;
  name: string;
  phone: string;
  company_id: number | null;
  company_name: string | null;
  role: Role | { name: Role };
  is_active: boolean;
  current_transport: Transport | null;
  /** A driver's current vehicle of the company's fleet (docs/registers.md); null: none chosen. */
  vehicle_id: number | null;
  vehicle: VehicleRef | null;
  /** A driver's licence: series and number («77 12 345678»), date of issue (YYYY-MM-DD). */
  /** The licence's series («77 12») and number («345678»), apart (migration 051: the waybill's СерВУ, НомВУ). */
  license_series: string | null;
  license_number: string | null;
  license_issued: string | null;
  /** A driver's ИНН (12 digits), the waybill's. */
  inn: string | null;
}

/** GET /users/drivers/: a driver with today's workload and whether they have history (then DELETE deactivates). */
export interface DriverListItem extends UserWire {
  today_task_count: number;
  has_history: boolean;
}

/** GET /users/ (super-admin): one page of users. */
export interface UserListPage {
  items: (UserWire & { created_at: string })[];
  total: number;
  next_offset: number | null;
}

/** DELETE /users/drivers/{id}/: a driver without history is erased; one with history is deactivated. */
export interface DriverRemoval {
  outcome: 'deleted' | 'deactivated';
  detail: string;
}

export interface User extends Omit<UserWire, 'role'> {
  role: Role;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
}

/**
 * Who will decide on a new registration request: the company's own staff (a manager or admin for a driver,
 * an admin for a manager), or — where the company has none yet — a super-admin, who sees every request.
 */
export type RegistrationReviewer = 'company' | 'super-admin';

/** The answer to a sign-up (POST /users/, POST /registration-requests/): the request and who will review it. */
export interface RegistrationReceipt extends RegistrationRequest {
  reviewer: RegistrationReviewer;
}

export interface RegistrationRequest {
  id: number;
  email: string;
  name: string;
  phone: string;
  company_id: number;
  company_name: string | null;
  role: Role;
  status: 'pending' | 'approved' | 'rejected';
  /** Why staff rejected it (a rejected request only). */
  reject_reason: string | null;
  created_at: string;
  vehicle_number: string | null;
  vehicle_brand: string | null;
  vehicle_capacity: number | null;
  current_transport: Omit<Transport, 'id' | 'is_current'> | null;
}

/** Task status (docs/product.md §4). 'completed' is the default filter of /tasks/completed/ (§7). */
export const TASK_STATUSES = ['open', 'in_progress', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A driver's status on a task (an association). */
export const DRIVER_STATUSES = ['accepted', 'in_progress', 'completed', 'cancelled'] as const;
export type DriverStatus = (typeof DRIVER_STATUSES)[number];

export interface DriverAssociation {
  id: number;
  task_id: number;
  driver_id: number;
  driver_name: string | null;
  quantity: number | null;
  status: DriverStatus;
  loading_quantity: number | null;
  transport_rate: number | null;
  unloading_quantity: number | null;
  order_index: number;
  /** Reports filed on this association, the newest one's id and when the server received it. */
  report_count: number;
  last_report_id: number | null;
  last_report_at: string | null;
  /** The sum of the reports' quantities (what the driver reported as carried). */
  reported_quantity: number | null;
  /** The planned share staff set; null: the plan split evenly (`share` says what that is). */
  planned_quantity: number | null;
  /** The driver's share of the task's plan (docs/loads.md). */
  share: number;
  /** Trips reported (Σ reports' trips). */
  trips: number;
  /** Delivered: Σ per report of the unloading total where given, else its quantity. */
  delivered: number;
  /** When the driver's part was finished; null while it goes on. */
  finished_at: string | null;
  /** Reports on it that staff disputed and the driver has not corrected yet. */
  disputed: number;
}

/** A task's one progress figure (docs/loads.md): every screen and export reads it. */
export interface TaskProgress {
  delivered: number;
  plan: number;
  /** Live drivers (not cancelled), and how many of them finished their part. */
  drivers: number;
  drivers_finished: number;
  /** A completed task's undelivered quantity (plan − delivered) when it fell short; else null. */
  shortfall: number | null;
}

/** A task's money so far (server/routes/WAGES.md): approved loads only. */
export interface TaskMoney {
  approved: number;
  revenue: number;
  pay: number;
  margin: number;
}

export interface Task {
  id: number;
  company_id: number;
  date: string;
  cargo: string;
  loading_place: string;
  unloading_place: string;
  planned_quantity: number;
  unit: string;
  status: TaskStatus;
  /** The customer's price per unit (what the company is paid). Null in a driver's view: it is not their pay. */
  rate: number | null;
  comment: string | null;
  max_drivers: number | null;
  /**
   * The register's places (docs/registers.md): their ids and what a driver needs of them — the address, the point,
   * the note. `loading_place` / `unloading_place` stay the texts (a linked place's name).
   */
  loading_place_id: number | null;
  unloading_place_id: number | null;
  loading: PlaceRef | null;
  unloading: PlaceRef | null;
  /** The cargo's state, packaging and ОКВГУМ package code for the waybill (contract/cargo-facts.ts); all null: bulk. */
  cargo_state: string | null;
  cargo_packaging: string | null;
  cargo_package_code: string | null;
  /** Staff views only (a driver never sees the counterparties): the customer, shipper and consignee. */
  customer_id?: number | null;
  shipper_id?: number | null;
  consignee_id?: number | null;
  customer?: CounterpartyRef | null;
  shipper?: CounterpartyRef | null;
  consignee?: CounterpartyRef | null;
  /** Staff views only: where `rate` came from — a line of the customer's price list, «вручную», or null (docs/prices.md). */
  price_source?: PriceSource | null;
  driver_associations: DriverAssociation[];
  /** A driver's view only: what they are paid per unit on it (server/wages/pay.ts, the one rate rule). */
  driver_pay?: DriverPay;
  /** A driver's view only: whom to call about it — the task's creator, else an admin of its company. */
  dispatcher?: { name: string; phone: string } | null;
  /** A driver's assigned tasks only: the company's trip settings (contract/trips.ts), which the phone runs a trip by. */
  trip_settings?: TripSettings;
  /**
   * A driver's assigned tasks only: his trip on it the server holds unfinished (its last step not stamped) — its id and
   * the times of the steps stamped — or null. A phone that did not stamp it (another phone, its storage cleared)
   * carries on with its next step instead of starting a new trip (src/parts/driver/trip-state.ts).
   */
  open_trip?: OpenTrip | null;
  /** A driver's assigned tasks only: the waybill (ЭТрН) of each of his trips on it that has one (docs/documents.md). */
  waybills?: DriverWaybill[];
  /** Staff views only: its approved loads' money — revenue at the task's price, the drivers' pay, the margin. */
  money?: TaskMoney;
  /** Drivers on the task (not cancelled) — also when a driver's view carries only their own association. */
  taken_places: number;
  progress: TaskProgress;
  created_at: string;
  /** Changes with every edit of the task's own fields (a stale tab's save is refused with 409). */
  updated_at: string;
}

export interface Page<T> {
  items: T[];
  next_offset: number | null;
  total: number;
}

export interface ReportPhoto {
  id: number;
  url: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
}

export interface Report {
  id: number;
  association_id: number;
  driver_id: number;
  quantity: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  loading_is_buyer: 0 | 1;
  unloading_is_buyer: 0 | 1;
  idempotency_key: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  photos: ReportPhoto[];
  /** Trips this report counts (usually 1) and the weighbridge ticket's number, if given. */
  trips: number;
  ticket_number: string | null;
  /** 1: the driver's last trip on the task (it finished their part). */
  final: 0 | 1;
  review_status: ReviewStatus;
  /** The reviewer's comment (required to dispute). */
  review_comment: string | null;
  reviewed_at: string | null;
  /** What the automatic checks found (contract/report-checks.ts). */
  flags: ReportFlag[];
  /**
   * Its month is closed and the load is paid in a closed sheet (WAGES.md): nothing about it may change — no edit,
   * photo removal, deletion or review; a correction is an adjustment. A late load of a closed month is not closed.
   */
  closed: boolean;
}

export const REVIEW_STATUSES = ['pending', 'approved', 'disputed'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * GET /reports/{id}: a report with what staff need to judge it (the driver, the task, the association), and the trip's
 * facts (docs/trips.md): its timeline, waits, acceptance; a form's report is `after_the_fact`.
 */
export interface ReportView extends Report, TripFacts {
  driver_name: string | null;
  task: Pick<Task, 'id' | 'company_id' | 'date' | 'cargo' | 'loading_place' | 'unloading_place' | 'planned_quantity' | 'unit' | 'status'>;
  association: Pick<DriverAssociation, 'id' | 'status' | 'quantity' | 'loading_quantity' | 'unloading_quantity' | 'transport_rate'>;
  /**
   * The load's pay by the one rate rule (server/wages/pay.ts): paid once approved; for a load not yet approved,
   * what it would be paid now (`estimate`). `frozen`: its month is closed and these are the stored figures.
   */
  pay: { delivered: number; rate: number | null; source: 'transport_rate' | 'progressive' | null; month_volume: number; amount: number; estimate: boolean; frozen: boolean };
  /** What the customer disputed through his link, with the dispatcher's answers (docs/customer-link.md), oldest first. */
  customer_disputes: CustomerDispute[];
}

export interface ApiErrorBody {
  detail: string;
}

/** GET /auth/roles/: every role with its Russian label. */
export interface RoleInfo {
  name: Role;
  label: string;
}

/** A stored client error (GET /client-errors/, super-admin). */
export interface ClientErrorEntry {
  id: number;
  user_id: number | null;
  device_id: string | null;
  message: string;
  stack: string | null;
  source: string | null;
  lineno: number | null;
  colno: number | null;
  user_agent: string | null;
  url: string | null;
  time: string | null;
  created_at: string;
}

/** A trip the server holds unfinished: its id and its stamped steps' times (ISO). */
export interface OpenTrip {
  uid: string;
  stamps: Partial<Record<TripStep, string>>;
}
