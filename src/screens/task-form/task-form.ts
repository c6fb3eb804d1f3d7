/**
 * The task form's values and their conversions (pure; tests/ui/task-form.test.ts). Fields are text as the
 * user typed them, so nothing is lost on an error or a reload; the body is built only when every field is
 * valid, with the contract's own zod rules. Those rules (zod and the contract's schemas, about 25 kB) load beside the
 * form rather than with it (`loadTaskChecks`): the screen asks for them when it opens and waits for them before a send.
 */
import type { DriverStatus, Task } from '../../../contract/entities.ts';
import type { taskCreateSchema } from '../../../contract/driver.ts';

let checks: typeof taskCreateSchema | null = null;
let loading: Promise<void> | null = null;

/** Loads the contract's task rules once; `buildBody` applies them from then on (the server always does). */
export function loadTaskChecks(): Promise<void> {
  loading ??= import('../../../contract/driver.ts').then((m) => {
    checks = m.taskCreateSchema;
  });
  return loading;
}
import { parseQuantity, quantityText } from '../../ui/decimal.ts';

export interface DriverRowValues {
  driver_id: number;
  /** The driver's planned share; empty: the plan split evenly. */
  planned_quantity: string;
  quantity: string;
  transport_rate: string;
  loading_quantity: string;
  unloading_quantity: string;
  status: DriverStatus;
}

/** A register card a task names (a counterparty, a place): picked in the form, shown by name. */
export interface LinkValue {
  id: number;
  name: string;
  detail?: string | null | undefined;
}

/** The task's counterparties: each picked (or null), with the text typed in its picker. */
export const PARTY_KEYS = ['customer', 'shipper', 'consignee'] as const;
export type PartyKey = (typeof PARTY_KEYS)[number];

export interface TaskFormValues {
  company_id: string;
  date: string;
  cargo: string;
  /** The place as typed; `loading` the register's place picked for it (its name is then the text). */
  loading_place: string;
  unloading_place: string;
  loading?: LinkValue | null;
  unloading?: LinkValue | null;
  /** Optional: drafts saved before the registers have none. */
  parties?: Partial<Record<PartyKey, LinkValue | null>>;
  party_text?: Partial<Record<PartyKey, string>>;
  planned_quantity: string;
  unit: string;
  rate: string;
  comment: string;
  max_drivers: string;
  drivers: DriverRowValues[];
  /** The cargo's state, packaging and ОКВГУМ package code for the waybill; all empty: bulk (optional: older drafts). */
  cargo_state?: string;
  cargo_packaging?: string;
  cargo_package_code?: string;
}

export type FieldErrors = Partial<Record<string, string>>;

export const DRIVER_NUMBER_FIELDS = ['planned_quantity', 'quantity', 'transport_rate', 'loading_quantity', 'unloading_quantity'] as const;
export type DriverNumberField = (typeof DRIVER_NUMBER_FIELDS)[number];

/** Field order on screen: the first wrong one gets the focus. */
export const FIELD_ORDER = ['company_id', 'date', 'customer_id', 'shipper_id', 'consignee_id', 'cargo', 'cargo_state', 'cargo_packaging', 'cargo_package_code', 'loading_place', 'unloading_place', 'planned_quantity', 'unit', 'rate', 'max_drivers', 'comment', 'drivers'];

export function emptyValues(date: string): TaskFormValues {
  return {
    company_id: '',
    date,
    cargo: '',
    loading_place: '',
    unloading_place: '',
    planned_quantity: '',
    unit: 'т',
    rate: '',
    comment: '',
    max_drivers: '',
    drivers: [],
  };
}

const linkOf = (ref: { id: number; name: string; inn?: string | null; address?: string | null } | null | undefined): LinkValue | null =>
  ref ? { id: ref.id, name: ref.name, detail: ref.inn ? `ИНН ${ref.inn}` : (ref.address ?? null) } : null;

export function valuesFromTask(task: Task): TaskFormValues {
  const parties = { customer: linkOf(task.customer), shipper: linkOf(task.shipper), consignee: linkOf(task.consignee) };
  return {
    company_id: String(task.company_id),
    date: task.date,
    cargo: task.cargo,
    loading_place: task.loading_place,
    unloading_place: task.unloading_place,
    loading: linkOf(task.loading),
    unloading: linkOf(task.unloading),
    parties,
    party_text: { customer: parties.customer?.name ?? '', shipper: parties.shipper?.name ?? '', consignee: parties.consignee?.name ?? '' },
    planned_quantity: quantityText(task.planned_quantity),
    unit: task.unit,
    rate: quantityText(task.rate),
    comment: task.comment ?? '',
    max_drivers: task.max_drivers === null ? '' : String(task.max_drivers),
    cargo_state: task.cargo_state ?? '',
    cargo_packaging: task.cargo_packaging ?? '',
    cargo_package_code: task.cargo_package_code ?? '',
    drivers: task.driver_associations
      .filter((a) => a.status !== 'cancelled')
      .map((a) => ({
        driver_id: a.driver_id,
        planned_quantity: quantityText(a.planned_quantity),
        quantity: quantityText(a.quantity),
        transport_rate: quantityText(a.transport_rate),
        loading_quantity: quantityText(a.loading_quantity),
        unloading_quantity: quantityText(a.unloading_quantity),
        status: a.status,
      })),
  };
}

/** «Создать ещё одну»: the same date, places and counterparties, everything else fresh. */
export function nextValues(values: TaskFormValues): TaskFormValues {
  const { company_id, loading_place, unloading_place, loading, unloading, parties, party_text, unit } = values;
  return { ...emptyValues(values.date), company_id, loading_place, unloading_place, loading, unloading, parties, party_text, unit };
}

export interface DriverBody {
  id: number;
  planned_quantity: number | null;
  quantity: number | null;
  transport_rate: number | null;
  loading_quantity: number | null;
  unloading_quantity: number | null;
  status?: DriverStatus;
}

export interface TaskBody {
  company_id?: number;
  date: string;
  cargo: string;
  loading_place: string;
  unloading_place: string;
  planned_quantity: number;
  unit: string;
  rate: number | null;
  comment: string | null;
  max_drivers: number | null;
  cargo_state: string | null;
  cargo_packaging: string | null;
  cargo_package_code: string | null;
  driver_ids: number[];
  drivers: DriverBody[];
  /** The register links: null is none picked (docs/registers.md; `createBody` leaves those out so the server defaults them). */
  customer_id: number | null;
  shipper_id: number | null;
  consignee_id: number | null;
  loading_place_id: number | null;
  unloading_place_id: number | null;
}

/** The task's link fields, each with the picked card it comes from. */
const LINK_FIELDS = ['customer_id', 'shipper_id', 'consignee_id', 'loading_place_id', 'unloading_place_id'] as const;

/**
 * POST /tasks/'s body: a link not picked is not sent — the shipper and the consignee then default on the server to
 * the places' owners or the customer, a place typed by name is linked to the company's place of that name.
 */
export function createBody(body: TaskBody): Omit<TaskBody, (typeof LINK_FIELDS)[number]> & Partial<Pick<TaskBody, (typeof LINK_FIELDS)[number]>> {
  const out: Partial<TaskBody> = { ...body };
  for (const key of LINK_FIELDS) if (out[key] === null) delete out[key];
  return out as ReturnType<typeof createBody>;
}

const MAX_QUANTITY = 100_000;

function numberField(text: string, errors: FieldErrors, key: string, required: boolean): number | null {
  const parsed = parseQuantity(text);
  if (!parsed.ok) {
    errors[key] = parsed.error;
    return null;
  }
  if (parsed.value === null) {
    if (required) errors[key] = 'Укажите число';
    return null;
  }
  if (parsed.value > MAX_QUANTITY) errors[key] = `Не больше ${MAX_QUANTITY.toLocaleString('ru-RU')}`;
  return parsed.value;
}

const ZOD_MESSAGES: Record<string, string> = {
  date: 'Укажите дату',
  cargo: 'Укажите груз',
  loading_place: 'Укажите место погрузки',
  unloading_place: 'Укажите место выгрузки',
  unit: 'Укажите единицу',
};

/** The body of POST /tasks/ (and the task part of PUT), or the Russian error of each wrong field. */
export function buildBody(values: TaskFormValues, needsCompany: boolean): { ok: true; body: TaskBody } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const planned = numberField(values.planned_quantity, errors, 'planned_quantity', true);
  const rate = numberField(values.rate, errors, 'rate', false);
  let maxDrivers: number | null = null;
  if (values.max_drivers.trim() !== '') {
    maxDrivers = Number(values.max_drivers.trim());
    if (!Number.isInteger(maxDrivers) || maxDrivers < 1 || maxDrivers > 1000) errors.max_drivers = 'Целое число от 1 до 1000';
  }
  if (maxDrivers !== null && values.drivers.length > maxDrivers) errors.max_drivers = `Назначено водителей больше, чем мест (${values.drivers.length})`;
  let companyId: number | undefined;
  if (needsCompany) {
    if (!values.company_id) errors.company_id = 'Выберите компанию';
    else companyId = Number(values.company_id);
  }
  const drivers: DriverBody[] = values.drivers.map((row) => {
    const body: DriverBody = { id: row.driver_id, planned_quantity: null, quantity: null, transport_rate: null, loading_quantity: null, unloading_quantity: null, status: row.status };
    for (const key of DRIVER_NUMBER_FIELDS) body[key] = numberField(row[key], errors, `drivers.${row.driver_id}.${key}`, false);
    return body;
  });
  // Shares that add up to more than the plan are a typing slip, not a plan.
  const shares = drivers.reduce((sum, d) => sum + (d.planned_quantity ?? 0), 0);
  if (planned !== null && shares > planned * 1.0001) {
    const first = drivers.find((d) => d.planned_quantity !== null);
    if (first) errors[`drivers.${first.id}.planned_quantity`] = `Доли вместе (${quantityText(shares)}) больше плана (${quantityText(planned)})`;
  }
  const candidate = {
    ...(companyId !== undefined ? { company_id: companyId } : {}),
    date: values.date,
    cargo: values.cargo,
    loading_place: values.loading_place,
    unloading_place: values.unloading_place,
    planned_quantity: planned ?? 0,
    unit: values.unit || 'т',
    rate,
    comment: values.comment.trim() === '' ? null : values.comment,
    max_drivers: maxDrivers,
    cargo_state: values.cargo_state?.trim() || null,
    cargo_packaging: values.cargo_packaging?.trim() || null,
    cargo_package_code: values.cargo_package_code?.trim().toUpperCase() || null,
    driver_ids: values.drivers.map((d) => d.driver_id),
  };
  const checked = checks?.safeParse(candidate);
  if (checked && !checked.success) {
    for (const issue of checked.error.issues) {
      const key = String(issue.path[0] ?? '');
      errors[key] ??= ZOD_MESSAGES[key] ?? issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: {
      ...candidate,
      cargo: candidate.cargo.trim(),
      loading_place: candidate.loading_place.trim(),
      unloading_place: candidate.unloading_place.trim(),
      drivers,
      customer_id: values.parties?.customer?.id ?? null,
      shipper_id: values.parties?.shipper?.id ?? null,
      consignee_id: values.parties?.consignee?.id ?? null,
      loading_place_id: values.loading?.id ?? null,
      unloading_place_id: values.unloading?.id ?? null,
    },
  };
}

/** The cargo fields' refusals start with their Russian label (contract/cargo-facts.ts). */
const CARGO_LABELS: Record<string, string> = { 'Состояние груза': 'cargo_state', 'Способ упаковки': 'cargo_packaging', 'Вид тары': 'cargo_package_code' };

/** The first field (in screen order) that has an error. */
export function firstErrorField(errors: FieldErrors): string | null {
  const keys = Object.keys(errors);
  for (const field of FIELD_ORDER) {
    const hit = keys.find((key) => key === field || key.startsWith(`${field}.`));
    if (hit) return hit;
  }
  return keys[0] ?? null;
}

/**
 * A server detail names its field first ('cargo: укажите груз', 'drivers: …'): shown under that field
 * when the form has it, else at the top of the form.
 */
export function serverFieldError(detail: string): { field: string | null; message: string } {
  const labelled = Object.entries(CARGO_LABELS).find(([label]) => detail.startsWith(`${label}: `));
  if (labelled) return { field: labelled[1], message: detail };
  const match = /^([a-z_]+)(?:\.\d+)*(?:\.[a-z_]+)?:\s*(.+)$/.exec(detail);
  // A place's id is refused under the place's field (its picker).
  const named = match?.[1]?.replace(/^(loading_place|unloading_place)_id$/, '$1');
  if (match && named && FIELD_ORDER.includes(named)) return { field: named, message: match[2] as string };
  return { field: null, message: detail };
}

/** What an edit sends: only the task fields that differ from what was loaded, plus the drivers when they changed. */
export function editBody(loaded: TaskBody, edited: TaskBody): Partial<TaskBody> {
  const changed: Partial<TaskBody> = {};
  const keys = [
    ...['date', 'cargo', 'loading_place', 'unloading_place', 'planned_quantity', 'unit', 'rate', 'comment', 'max_drivers'] as const,
    ...['cargo_state', 'cargo_packaging', 'cargo_package_code'] as const,
  ];
  for (const key of keys) {
    if (loaded[key] !== edited[key]) (changed as Record<string, unknown>)[key] = edited[key];
  }
  for (const key of LINK_FIELDS) {
    if (loaded[key] === edited[key]) continue;
    // A place typed rather than picked: its text is sent and the server links the place of that name.
    const typedPlace = edited[key] === null && (key === 'loading_place_id' || key === 'unloading_place_id');
    if (!typedPlace) changed[key] = edited[key];
  }
  if (JSON.stringify(loaded.drivers) !== JSON.stringify(edited.drivers)) {
    changed.driver_ids = edited.driver_ids;
    changed.drivers = edited.drivers;
  }
  return changed;
}

/** Drafts live in localStorage per user and per task (or 'new'), so a reload keeps what was typed. */
export function draftKey(userId: number | null | undefined, taskId: number | null): string {
  return `reis-task-draft:${userId ?? 'anon'}:${taskId ?? 'new'}`;
}
