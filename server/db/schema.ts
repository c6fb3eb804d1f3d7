/**
 * The database schema as Kysely sees it. One set of tables for SQLite and PostgreSQL:
 * times are ISO-8601 text (UTC), booleans are 0/1 integers, quantities are double precision.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  ManagerRatesTable,
  PayrollAdjustmentsTable,
  PayrollEventsTable,
  PayrollDriversTable,
  PayrollLinesTable,
  PayrollClosesTable,
  PayrollMonthsTable,
  ProgressiveRatesTable,
} from './schema-money.ts';
import type { TripSheetsTable } from './schema-trip-sheets.ts';
import type { CounterpartiesTable, PlacesTable, VehiclesTable } from './schema-registers.ts';
export type { CounterpartiesTable, PlacesTable, VehiclesTable } from './schema-registers.ts';
import type { CustomerDisputesTable, CustomerLinksTable, CustomerLinkViewsTable } from './schema-customer-links.ts';
import type { PriceTables, TaskPriceColumns } from './schema-prices.ts';
import type { CompanyVatColumn, InvoiceTables } from './schema-invoices.ts';
import type { DocumentTables } from './schema-documents.ts';
import type { TripAcceptancesTable, TripAcceptanceTripsTable, TripConfirmationsTable, TripStampsTable } from './schema-trips.ts';
import type { EtrnIncomingTable } from './schema-etrn-incoming.ts';
import type { DriverStatus, RegistrationRequest, ReviewStatus, TaskStatus } from '../../contract/entities.ts';
import type { TransferStatus } from '../../contract/transfers.ts';
import type { AnnouncementReadsTable, AnnouncementResponsesTable, AnnouncementsTable, TaskImportsTable, TaskTemplatesTable, UserSettingsTable } from './schema-console.ts';
import type { ExportStatus } from '../../contract/exports.ts';

type Id = Generated<number>;
type Bool = number; // 0 | 1, portable across SQLite and PostgreSQL

export interface AuditLogTable {
  id: Id;
  company_id: number;
  task_id: number;
  entity: 'task' | 'association' | 'report';
  entity_id: number;
  action: 'create' | 'update' | 'delete';
  /** JSON list of {field, from, to}. */
  changes: string;
  user_id: number | null;
  device_id: string | null;
  created_at: string;
}

export interface CompaniesTable {
  id: Id;
  name: string;
  created_at: string;
  /** JSON of contract/report-checks.ts CheckThresholds, or null for the defaults. */
  check_thresholds: string | null;
  /** JSON of contract/trips.ts TripSettings (migration 014), or null for the defaults. */
  trip_settings: string | null;
  /** The carrier's own requisites (migration 010; contract/requisites.ts), each null until entered. */
  full_name: string | null;
  inn: string | null;
  kpp: string | null;
  ogrn: string | null;
  address: string | null;
  phone: string | null;
  /** The carrier's ЭДО participant id (migration 019). */
  edo_id: string | null;
  /** Photo retention (migration 017, docs/scale.md): the rule's JSON, the day last run, what that run did. */
  photo_retention: string | null;
  photo_retention_ran_on: string | null;
  photo_retention_last: string | null;
}

export interface UsersTable {
  id: Id;
  email: string;
  password_hash: string;
  name: string;
  phone: string;
  role: string;
  company_id: number | null;
  is_active: Bool;
  created_at: string;
  /** A driver's licence: its series («77 12»; migration 051), its number («345678»), date of issue (YYYY-MM-DD). */
  license_series: string | null;
  license_number: string | null;
  license_issued: string | null;
  /** A driver's ИНН (12 digits, both check digits right; migration 033): the waybill's driver. */
  inn: string | null;
  /** A driver's current vehicle of the company's fleet. */
  vehicle_id: number | null;
}

export interface TransportsTable {
  id: Id;
  user_id: number;
  vehicle_number: string;
  vehicle_brand: string;
  vehicle_capacity: number | null;
  is_current: Bool;
  created_at: string;
}

export interface RegistrationRequestsTable {
  id: Id;
  email: string;
  password_hash: string;
  name: string;
  phone: string;
  company_id: number;
  role: string;
  vehicle_number: string | null;
  vehicle_brand: string | null;
  vehicle_capacity: number | null;
  status: RegistrationRequest['status'];
  created_at: string;
  approved_at: string | null;
  approved_by: number | null;
  rejected_at: string | null;
  rejected_by: number | null;
  reject_reason: string | null;
  user_id: number | null;
}

export interface RefreshTokensTable {
  id: Id;
  user_id: number;
  device_id: string;
  family_id: string;
  token_hash: string;
  device_info: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface PushSubscriptionsTable {
  id: Id;
  user_id: number;
  device_id: string;
  subscription: string; // JSON
  created_at: string;
}

export interface TasksTable extends TaskPriceColumns {
  id: Id;
  company_id: number;
  created_by: number | null;
  date: string; // YYYY-MM-DD
  cargo: string;
  loading_place: string;
  unloading_place: string;
  planned_quantity: number;
  unit: string;
  status: TaskStatus;
  rate: number | null;
  comment: string | null;
  max_drivers: number | null;
  created_at: string;
  updated_at: string;
  /** The register's links (migration 010); the texts above stay, a place's text following its name. */
  customer_id: number | null;
  shipper_id: number | null;
  consignee_id: number | null;
  loading_place_id: number | null;
  unloading_place_id: number | null;
  /** The cargo's state, packaging and kind of package for the waybill (migration 051); all null: bulk (contract/cargo-facts.ts). */
  cargo_state: string | null;
  cargo_packaging: string | null;
  cargo_package_code: string | null;
}

export interface TaskDriversTable {
  id: Id;
  task_id: number;
  driver_id: number;
  quantity: number | null;
  status: DriverStatus;
  loading_quantity: number | null;
  unloading_quantity: number | null;
  transport_rate: number | null;
  order_index: number;
  accepted_at: string | null;
  created_at: string;
  /** The driver's planned share; null: the task's plan split evenly among its live drivers. */
  planned_quantity: number | null;
  /** When the driver's part was finished (their last trip, or staff); null while it goes on. */
  finished_at: string | null;
}

export interface ReportsTable {
  id: Id;
  association_id: number;
  driver_id: number;
  quantity: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  loading_is_buyer: Bool;
  unloading_is_buyer: Bool;
  idempotency_key: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  trips: Generated<number>;
  ticket_number: string | null;
  /** The ticket as the duplicate check compares it (reports/ticket.ts): always written with ticket_number. */
  ticket_key: string | null;
  /** 1: the driver's last trip on the association (it finished their part). */
  final: Generated<Bool>;
  review_status: Generated<ReviewStatus>;
  review_comment: string | null;
  reviewed_by: number | null;
  reviewed_at: string | null;
  /** JSON list of contract/report-checks.ts ReportFlag. */
  flags: Generated<string>;
  /** The phone's trip id (migration 014; docs/trips.md): set on a trip stamped step by step, null on a form. */
  trip_uid: string | null;
  /** 1: entered after the fact in one form (its times typed or its filing's); 0: stamped as it happened. */
  after_the_fact: Generated<Bool>;
}

export interface ReportPhotosTable {
  id: Id;
  report_id: number;
  storage_key: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  created_at: string;
  /** 64-bit perceptual hash, 16 hex digits (server/reports/phash.ts); null for photos stored before it. */
  phash: string | null;
}

/**
 * The hashed photos of the last RECENT_PHOTO_DAYS days (migration 039): what the duplicate-photo check searches, a
 * copy of `report_photos`' rows written by a trigger on its insert (older rows pruned by the same trigger, deleted
 * with their photo by the foreign key), so the band indexes it probes are the window's size, not the years'.
 */
export interface RecentPhotoHashesTable {
  photo_id: number;
  report_id: number;
  phash: string;
  created_at: string;
}

export interface DailyHoursTable {
  id: Id;
  driver_id: number;
  date: string;
  hours: number;
  created_at: string;
}

export interface TransfersTable {
  id: Id;
  task_id: number;
  from_company_id: number;
  to_company_id: number;
  quantity: number | null;
  status: TransferStatus;
  comment: string | null;
  created_by: number | null;
  created_at: string;
  decided_at: string | null;
  /** The receiver's own task, created when the transfer is accepted. */
  carrier_task_id: number | null;
  decline_reason: string | null;
  decided_by: number | null;
  updated_at: string | null;
}

/** A completed-tasks export job (server/exports/jobs.ts). */
export interface ExportJobsTable {
  id: Id;
  user_id: number;
  status: ExportStatus;
  params: string; // JSON
  company_id: number | null;
  rows_written: Generated<number>;
  rows_total: number | null;
  storage_key: string | null;
  filename: string | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  /** Last sign of life of the process running the job (every HEARTBEAT_MS while 'running'). */
  heartbeat_at: string | null;
}

export interface ClientErrorsTable {
  id: Id;
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

export interface Database extends PriceTables, InvoiceTables, DocumentTables {
  companies: CompaniesTable & CompanyVatColumn;
  audit_log: AuditLogTable;
  users: UsersTable;
  transports: TransportsTable;
  registration_requests: RegistrationRequestsTable;
  refresh_tokens: RefreshTokensTable;
  push_subscriptions: PushSubscriptionsTable;
  tasks: TasksTable;
  task_drivers: TaskDriversTable;
  reports: ReportsTable;
  report_photos: ReportPhotosTable;
  recent_photo_hashes: RecentPhotoHashesTable;
  daily_hours: DailyHoursTable;
  transfers: TransfersTable;
  announcements: AnnouncementsTable;
  announcement_responses: AnnouncementResponsesTable;
  announcement_reads: AnnouncementReadsTable;
  manager_rates: ManagerRatesTable;
  progressive_rates: ProgressiveRatesTable;
  payroll_months: PayrollMonthsTable;
  payroll_closes: PayrollClosesTable;
  payroll_lines: PayrollLinesTable;
  payroll_drivers: PayrollDriversTable;
  payroll_events: PayrollEventsTable;
  payroll_adjustments: PayrollAdjustmentsTable;
  export_jobs: ExportJobsTable;
  client_errors: ClientErrorsTable;
  user_settings: UserSettingsTable;
  task_templates: TaskTemplatesTable;
  task_imports: TaskImportsTable;
  counterparties: CounterpartiesTable;
  places: PlacesTable;
  vehicles: VehiclesTable;
  trip_sheets: TripSheetsTable;
  trip_stamps: TripStampsTable;
  trip_acceptances: TripAcceptancesTable;
  trip_acceptance_trips: TripAcceptanceTripsTable;
  trip_confirmations: TripConfirmationsTable;
  customer_links: CustomerLinksTable;
  customer_link_views: CustomerLinkViewsTable;
  customer_disputes: CustomerDisputesTable;
  etrn_incoming: EtrnIncomingTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TaskRow = Selectable<TasksTable>;
export type TaskDriverRow = Selectable<TaskDriversTable>;
export type ReportRow = Selectable<ReportsTable>;
export type TransportRow = Selectable<TransportsTable>;
