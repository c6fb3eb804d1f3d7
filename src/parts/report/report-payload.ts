/** Builds the outbox's NewReport from what the driver typed (docs/product.md §5: totals only with flag 1). */
import { PHOTO_MAX_BYTES, REPORT_MAX_BYTES, REPORT_MAX_PHOTOS, REPORT_MAX_TRIPS, REPORT_PHOTO_TYPES } from '../../../contract/report-limits.ts';
import type { FormFields, NewReport } from '../../engine/types.ts';
import { parseQuantity, quantityText as text } from '../driver/quantity.ts';
import { typedTimesIssues, type TypedTimeField } from '../../../contract/driver.ts';

export interface ReportDraft {
  quantity: string;
  totalLoading: string;
  totalUnloading: string;
  loadingIsBuyer: boolean;
  unloadingIsBuyer: boolean;
  /** Trips this report counts, as typed ('1' by default). */
  trips: string;
  ticketNumber: string;
  /** «Последний рейс — завершить задачу». */
  final: boolean;
  /** A trip entered after the fact: its typed times today, 'ЧЧ:ММ' (empty: not typed). New reports only. */
  loadingArrived?: string;
  loadingDeparted?: string;
  unloadingArrived?: string;
  unloadingDeparted?: string;
}

/** The typed-time keys of a draft, in the trip's order. */
type TypedKey = 'loadingArrived' | 'loadingDeparted' | 'unloadingArrived' | 'unloadingDeparted';

export type ReportDraftErrors = Partial<
  Record<'quantity' | 'totalLoading' | 'totalUnloading' | 'trips' | 'ticketNumber' | TypedKey | 'form', string>
>;

/** The draft's typed-time fields and the form fields they fill (contract/driver.ts). */
const TYPED: [TypedKey, TypedTimeField][] = [
  ['loadingArrived', 'loading_arrived_at'],
  ['loadingDeparted', 'loading_departed_at'],
  ['unloadingArrived', 'unloading_arrived_at'],
  ['unloadingDeparted', 'unloading_departed_at'],
];

/** 'ЧЧ:ММ' today (the phone's local time) as ISO, or null when it is not a time. */
function todayAt(hhmm: string, now: Date): string | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) return null;
  const date = new Date(now);
  date.setHours(Number(match[1]), Number(match[2]), 0, 0);
  return date.toISOString();
}

/**
 * The typed times of a trip entered after the fact (contract/driver.ts `typedTimesIssues`: in order, not ahead of
 * now), or the errors under their fields.
 */
export function typedTimes(draft: ReportDraft, now = new Date()): { ok: true; times: Partial<Record<TypedTimeField, string>> } | { ok: false; errors: ReportDraftErrors } {
  const times: Partial<Record<TypedTimeField, string>> = {};
  const errors: ReportDraftErrors = {};
  for (const [key, field] of TYPED) {
    const typed = draft[key]?.trim() ?? '';
    if (typed === '') continue;
    const at = todayAt(typed, now);
    if (at === null) errors[key] = 'Укажите время в виде ЧЧ:ММ';
    else times[field] = at;
  }
  for (const issue of typedTimesIssues(times, now.getTime())) {
    const key = TYPED.find(([, field]) => field === issue.path[0])?.[0];
    if (key) errors[key] ??= issue.message === 'время ещё не наступило' ? 'Это время ещё не наступило' : `Время ${issue.message}`;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, times };
}

export type ReportBuild = { ok: true; report: NewReport } | { ok: false; errors: ReportDraftErrors };

export const emptyDraft: ReportDraft = {
  quantity: '',
  totalLoading: '',
  totalUnloading: '',
  loadingIsBuyer: false,
  unloadingIsBuyer: false,
  trips: '1',
  ticketNumber: '',
  final: false,
};

/** The numbers a draft stands for, or the errors of the fields that do not parse. */
interface DraftValues {
  quantity: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  loading_is_buyer: 0 | 1;
  unloading_is_buyer: 0 | 1;
  trips: number;
  ticket_number: string | null;
}

/** The server's rule (contract/driver.ts): letters, digits and a few separators, up to 40. */
const TICKET = /^[\p{L}\p{N}№][\p{L}\p{N} ./№#-]*$/u;

function draftValues(draft: ReportDraft): { ok: true; values: DraftValues } | { ok: false; errors: ReportDraftErrors } {
  const errors: ReportDraftErrors = {};
  const quantity = parseQuantity(draft.quantity);
  if (!quantity.ok) errors.quantity = quantity.error;
  // A total whose flag is off is never sent, so whatever its field holds cannot make the form invalid.
  const loading = draft.loadingIsBuyer ? parseQuantity(draft.totalLoading) : null;
  if (loading && !loading.ok) errors.totalLoading = loading.error;
  const unloading = draft.unloadingIsBuyer ? parseQuantity(draft.totalUnloading) : null;
  if (unloading && !unloading.ok) errors.totalUnloading = unloading.error;
  const trips = draft.trips.trim() === '' ? 1 : /^[1-9][0-9]?$/.test(draft.trips.trim()) ? Number(draft.trips.trim()) : null;
  if (trips === null || trips > REPORT_MAX_TRIPS) errors.trips = `Число рейсов — от 1 до ${REPORT_MAX_TRIPS}`;
  const ticket = draft.ticketNumber.trim();
  if (ticket.length > 40) errors.ticketNumber = 'Номер талона — не длиннее 40 символов';
  else if (ticket !== '' && !TICKET.test(ticket)) errors.ticketNumber = 'В номере талона — буквы, цифры, пробел, точка, дефис, «/» и «№»';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    values: {
      quantity: quantity.ok ? quantity.value : null,
      total_loading_quantity: loading?.ok ? loading.value : null,
      total_unloading_quantity: unloading?.ok ? unloading.value : null,
      loading_is_buyer: draft.loadingIsBuyer ? 1 : 0,
      unloading_is_buyer: draft.unloadingIsBuyer ? 1 : 0,
      trips: trips ?? 1,
      ticket_number: ticket === '' ? null : ticket,
    },
  };
}

const NOTHING_TO_REPORT: ReportDraftErrors = { form: 'Укажите количество или добавьте фото' };

/**
 * The errors shown after a submit, kept only while their cause is still there: a field's
 * error goes once the field parses (or its flag is off), "nothing to report" once there is a quantity or a
 * photo, and a photo problem once the photos change. `photosChanged` says the photo list is not the one the
 * error was about.
 */
export function resolvedErrors(errors: ReportDraftErrors, draft: ReportDraft, photoCount: number, photosChanged: boolean): ReportDraftErrors {
  const now = draftValues(draft);
  const fieldErrors = now.ok ? {} : now.errors;
  const next: ReportDraftErrors = {};
  for (const key of ['quantity', 'totalLoading', 'totalUnloading', 'trips', 'ticketNumber'] as const) {
    if (errors[key] && fieldErrors[key]) next[key] = fieldErrors[key];
  }
  const typed = typedTimes(draft);
  for (const [key] of TYPED) if (errors[key] && !typed.ok && typed.errors[key]) next[key] = typed.errors[key];
  if (errors.form) {
    const nothing = errors.form === NOTHING_TO_REPORT.form;
    const stillNothing = draft.quantity.trim() === '' && photoCount === 0;
    if (nothing ? stillNothing : !photosChanged) next.form = errors.form;
  }
  return next;
}

/** `now`: the moment the typed times are of (today's date, none ahead of it); the clock's by default. */
export function buildReport(associationId: number, draft: ReportDraft, photos: Blob[], now = new Date()): ReportBuild {
  const parsed = draftValues(draft);
  const typed = typedTimes(draft, now);
  if (!parsed.ok || !typed.ok) return { ok: false, errors: { ...(parsed.ok ? {} : parsed.errors), ...(typed.ok ? {} : typed.errors) } };
  const { values } = parsed;
  if (values.quantity === null && photos.length === 0) return { ok: false, errors: NOTHING_TO_REPORT };
  return {
    ok: true,
    report: {
      association_id: associationId,
      quantity: values.quantity,
      total_loading_quantity: values.total_loading_quantity,
      total_unloading_quantity: values.total_unloading_quantity,
      loadingIsBuyer: values.loading_is_buyer,
      unloadingIsBuyer: values.unloading_is_buyer,
      trips: values.trips,
      ticketNumber: values.ticket_number,
      final: draft.final,
      ...(Object.keys(typed.times).length > 0 ? { times: typed.times } : {}),
      photos,
    },
  };
}

export type ReportEditBuild = { ok: true; fields: FormFields } | { ok: false; errors: ReportDraftErrors };

/**
 * The text fields of PUT /reports/{id}: only those the driver changed, so an edit never overwrites what it
 * did not touch. A flag turned off also sends its total as null (docs/product.md §5). `photoCount` is the
 * number of photos the report will have after the edit.
 */
export function buildReportEdit(original: ReportDraft, draft: ReportDraft, photoCount: number): ReportEditBuild {
  const parsed = draftValues(draft);
  if (!parsed.ok) return parsed;
  const before = draftValues(original);
  if (parsed.values.quantity === null && photoCount === 0) return { ok: false, errors: NOTHING_TO_REPORT };
  const fields: FormFields = {};
  for (const [key, value] of Object.entries(parsed.values) as Array<[keyof DraftValues, number | string | null]>) {
    if (!before.ok || before.values[key] !== value) fields[key] = value;
  }
  return { ok: true, fields };
}

/** A stored report back as a draft, for correcting it. Older answers may lack the flags: a total implies it. */
export function draftFromReport(report: {
  quantity: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  loading_is_buyer?: number | boolean | null;
  unloading_is_buyer?: number | boolean | null;
  trips?: number;
  ticket_number?: string | null;
}): ReportDraft {
  return {
    trips: String(report.trips ?? 1),
    ticketNumber: report.ticket_number ?? '',
    final: false,
    quantity: text(report.quantity),
    totalLoading: text(report.total_loading_quantity),
    totalUnloading: text(report.total_unloading_quantity),
    loadingIsBuyer: Boolean(report.loading_is_buyer ?? report.total_loading_quantity !== null),
    unloadingIsBuyer: Boolean(report.unloading_is_buyer ?? report.total_unloading_quantity !== null),
  };
}

const SENDABLE_TYPES = new Set<string>(REPORT_PHOTO_TYPES);
const MB = 1024 * 1024;

interface PickedPhoto {
  original: Blob;
  preview: Blob | null;
  previewFailed: boolean;
}

/** What the engine will store for the photo (the compressed copy, or the original when compression failed). */
function outcomeOf(photo: PickedPhoto): Blob | null {
  return photo.preview ?? (photo.previewFailed ? photo.original : null);
}

/**
 * A photo the server would refuse however often it is sent: one the engine could not compress (it then
 * keeps the original, so the preview is the original) in a format the server does not take, such as HEIC
 * on a browser that cannot decode it, or larger than the server's cap per photo. Unknown while the preview
 * is still being made.
 */
export function isUnsendable(photo: PickedPhoto): boolean {
  const outcome = outcomeOf(photo);
  return outcome !== null && (!SENDABLE_TYPES.has(outcome.type) || outcome.size > PHOTO_MAX_BYTES);
}

/** The bytes the new photos will upload, as far as their previews are known. */
export function newPhotoBytes(photos: readonly PickedPhoto[]): number {
  return photos.reduce((sum, photo) => sum + (outcomeOf(photo)?.size ?? 0), 0);
}

/**
 * Caught in the form, not at the server: a queued report the server refuses is retried and, after ten
 * refusals, dropped. `total` counts every photo the report will have; `bytes` what the new ones upload.
 */
export function photosError(total: number, unsendable: number, bytes = 0): string | null {
  if (unsendable > 0) {
    return `Некоторые фото не удалось обработать или они больше ${PHOTO_MAX_BYTES / MB} МБ: уберите их или выберите снимки в JPEG`;
  }
  if (total > REPORT_MAX_PHOTOS) return `В отчёте не больше ${REPORT_MAX_PHOTOS} фото: уберите лишние (${total - REPORT_MAX_PHOTOS})`;
  if (bytes > REPORT_MAX_BYTES) return `Фото отчёта вместе больше ${REPORT_MAX_BYTES / MB} МБ: уберите часть из них`;
  return null;
}
