/**
 * The trip as it happens (issue 32, docs/trips.md): a trip is a report with a timeline built step by step on the
 * driver's phone. The phone makes the trip's id (`trip_uid`, a UUID) so steps can be queued offline before the
 * server knows the trip; each step is one idempotent `PUT /trips/{trip_uid}/steps/{step}` (the outbox's key is
 * the pair), stamped with the device's time and, when the driver allowed it, the position and its accuracy. The
 * server keeps its own receipt time apart. Steps may arrive out of order (the outbox retries): the timeline is
 * ordered by the steps' names, never by arrival.
 *
 * The body is JSON, or multipart/form-data with a `data` part holding that JSON and file parts `photo` (repeatable,
 * JPEG/PNG/WebP, the report's limits: contract/report-limits.ts) and `signature` (one PNG, the receiver's signature
 * drawn on the screen; its strokes go in `acceptance.strokes`).
 */
import { z } from 'zod';
import { MAX_ID, text } from './fields.ts';

/** The four stamps of a trip, in their order. */
export const TRIP_STEPS = ['loading_arrived', 'loading_departed', 'unloading_arrived', 'unloading_departed'] as const;
export type TripStep = (typeof TRIP_STEPS)[number];

/** The driver's big button for each step. */
export const TRIP_STEP_LABELS: Record<TripStep, string> = {
  loading_arrived: 'Прибыл на погрузку',
  loading_departed: 'Загружен, выезжаю',
  unloading_arrived: 'Прибыл на выгрузку',
  unloading_departed: 'Выгружен',
};

/** The step's past tense on a timeline («Прибыл на погрузку 10:42»). */
export const TRIP_STEP_DONE: Record<TripStep, string> = {
  loading_arrived: 'Прибыл на погрузку',
  loading_departed: 'Выехал с погрузки',
  unloading_arrived: 'Прибыл на выгрузку',
  unloading_departed: 'Выехал с выгрузки',
};

/** The step after `step`, or null after the last. */
export const nextStep = (step: TripStep | null): TripStep | null =>
  step === null ? TRIP_STEPS[0] : (TRIP_STEPS[TRIP_STEPS.indexOf(step) + 1] ?? null);

/** A UUID made on the phone (crypto.randomUUID()). */
export const tripUidSchema = z
  .string({ message: 'ожидается идентификатор рейса' })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'идентификатор рейса должен быть UUID')
  .transform((s) => s.toLowerCase());

export const tripStepSchema = z.enum(TRIP_STEPS, { message: 'неизвестный шаг рейса' });

/** A position as the Geolocation API gives it; `accuracy` in metres (the radius of 68 % confidence). */
export const positionSchema = z
  .object({
    lat: z.number({ message: 'ожидается широта' }).min(-90, 'широта от −90 до 90').max(90, 'широта от −90 до 90'),
    lon: z.number({ message: 'ожидается долгота' }).min(-180, 'долгота от −180 до 180').max(180, 'долгота от −180 до 180'),
    accuracy: z.number({ message: 'ожидается точность в метрах' }).min(0, 'точность не может быть отрицательной').max(100_000, 'точность не больше 100 км'),
  })
  .strict();
export type Position = z.infer<typeof positionSchema>;

/**
 * How a stamp was made: `tap` — the driver's button; `auto` — the phone entered or left the place's radius and
 * stayed (the driver saw it and could correct it); `corrected` — the driver changed an automatic or tapped time;
 * `form` — typed after the fact in the one-form entry («внесён задним числом»).
 */
export const STAMP_SOURCES = ['tap', 'auto', 'corrected', 'form'] as const;
export type StampSource = (typeof STAMP_SOURCES)[number];

const deviceTime = z.iso.datetime({ offset: true, message: 'ожидается время ISO 8601' });

const quantity = z
  .number({ message: 'ожидается число' })
  .finite('ожидается число')
  .positive('должно быть больше нуля')
  .max(1_000_000, 'не больше 1 000 000');

const ticketNumber = z
  .string({ message: 'ожидается текст' })
  .trim()
  .max(40, 'не длиннее 40 символов')
  .regex(/^$|^[\p{L}\p{N}№][\p{L}\p{N} ./№#-]*$/u, 'буквы, цифры, пробел, точка, дефис, «/» и «№»')
  .transform((s) => (s === '' ? null : s))
  .nullable();

/** One stroke of a signature: points [x, y, t] in the pad's CSS pixels and ms since the pad opened. */
const strokesSchema = z
  .array(z.array(z.tuple([z.number().finite(), z.number().finite(), z.number().finite()])).max(5000, 'слишком длинный штрих'))
  .max(200, 'слишком много штрихов');

/**
 * The receiver's acceptance, with the last step (`unloading_departed`): a name (and position) with a signature
 * (the `signature` PNG part and its strokes), or the driver's record that the receiver refused, with the reason.
 */
export const acceptanceSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('signed'),
        receiver_name: text('ожидается имя получателя').min(2, 'укажите имя получателя').max(120, 'не длиннее 120 символов'),
        receiver_position: text().max(120, 'не длиннее 120 символов').nullish(),
        strokes: strokesSchema.optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('refused'),
        receiver_name: text().max(120, 'не длиннее 120 символов').nullish(),
        reason: text('укажите причину отказа').min(3, 'укажите причину отказа').max(500, 'не длиннее 500 символов'),
      })
      .strict(),
  ],
  { message: 'ожидается подпись получателя (signed) или отказ (refused)' },
);
export type AcceptancePayload = z.infer<typeof acceptanceSchema>;

/** The driver's confirmation on a step (ПЭП): his remarks on the cargo, optional. */
export const driverConfirmationSchema = z
  .object({
    remarks: text().max(1000, 'не длиннее 1000 символов').nullish(),
  })
  .strict();
export type DriverConfirmationPayload = z.infer<typeof driverConfirmationSchema>;

/** The steps a driver confirms on, and what he confirms («Груз принят к перевозке» → Т2, «Груз сдан» → Т4). */
export const CONFIRM_STEPS = ['loading_departed', 'unloading_departed'] as const;
export type ConfirmStep = (typeof CONFIRM_STEPS)[number];
export const CONFIRM_TEXT: Record<ConfirmStep, string> = {
  loading_departed: 'Груз принят к перевозке',
  unloading_departed: 'Груз сдан',
};
export const isConfirmStep = (step: TripStep): step is ConfirmStep => (CONFIRM_STEPS as readonly string[]).includes(step);

/** A driver's confirmation as stored: who, when, where, the mass as the step recorded it, his remarks. */
export interface DriverConfirmation {
  step: ConfirmStep;
  driver_id: number;
  driver_name: string;
  at: string;
  position: Position | null;
  quantity: number | null;
  remarks: string | null;
}

/**
 * PUT /trips/{trip_uid}/steps/{step}: the step's facts. `association_id` names the driver's part of the task (the
 * first step makes the trip; later steps must name the same one). Step data is allowed only on its step:
 * the ticket and the loaded quantity on `loading_departed`, the unloaded quantity and the acceptance on
 * `unloading_departed` (a per-shift acceptance is its own call). A repeated PUT of a stored step answers the stored
 * step (200, `replay: true`) and changes nothing, unless `source` is `corrected` (the driver's correction of the
 * time; its position stays).
 */
export const tripStepBodySchema = z
  .object({
    association_id: z.number({ message: 'ожидается номер задания водителя' }).int().positive().max(MAX_ID),
    at: deviceTime,
    position: positionSchema.nullish(),
    source: z.enum(STAMP_SOURCES, { message: 'ожидается tap, auto, corrected или form' }).default('tap'),
    ticket_number: ticketNumber.optional(),
    loading_quantity: quantity.nullish(),
    unloading_quantity: quantity.nullish(),
    acceptance: acceptanceSchema.optional(),
    /**
     * The driver's own confirmation by his simple electronic signature (ПЭП) when the company asks for it
     * (`driver_confirms`): «Груз принят к перевозке» on `loading_departed`, «Груз сдан» on `unloading_departed`, with
     * the step's mass and his remarks. It signs the carrier's Т2 / Т4 (docs/documents.md «The driver's confirmation»).
     */
    driver_confirmation: driverConfirmationSchema.optional(),
    /** 1 on the driver's last trip of the task: the trip's end finishes his part (as a report's `final`). */
    final: z.union([z.literal(0), z.literal(1)], { message: 'ожидается 0 или 1' }).optional(),
  })
  .strict();
export type TripStepBody = z.infer<typeof tripStepBodySchema>;

/** One stamp of the timeline as the server answers it. */
export interface TimelineStamp {
  /** The device's time, ISO. */
  at: string;
  /** When the server stored it, ISO. */
  received_at: string;
  position: Position | null;
  source: StampSource;
  /** Metres from the place's point when both are known, else null. */
  distance_m: number | null;
}

export type Timeline = Record<TripStep, TimelineStamp | null>;

/**
 * Waiting times (простой) and the trip's legs, whole minutes; null where a stamp is missing. `loading`: arrival to
 * departure at loading; `unloading`: the same at unloading; `travel`: loading departure to unloading arrival;
 * `cycle`: this trip's loading arrival to the driver's next trip's loading arrival (null for his latest).
 */
export interface TripWaits {
  loading_min: number | null;
  unloading_min: number | null;
  travel_min: number | null;
  cycle_min: number | null;
}

export interface Acceptance {
  kind: 'signed' | 'refused' | 'none';
  receiver_name: string | null;
  receiver_position: string | null;
  /** The signature image's URL (through the engine, like a photo's), when signed. */
  signature_url: string | null;
  refused_reason: string | null;
  at: string | null;
  position: Position | null;
  /** 'trip' or 'shift' (one signature for the listed trips of a day). */
  scope: 'trip' | 'shift' | null;
}

/** What GET /reports/{id} adds for a trip (a report filed as one form answers `after_the_fact: true`). */
export interface TripFacts {
  trip_uid: string | null;
  timeline: Timeline;
  waits: TripWaits;
  acceptance: Acceptance;
  /** Entered after the fact in one form (its times typed): «внесён задним числом». */
  after_the_fact: boolean;
}

/** PUT /trips/{trip_uid}/steps/{step}: 201 the first time, 200 with `replay: true` for a repeat. */
export interface TripStepAnswer {
  report_id: number;
  trip_uid: string;
  step: TripStep;
  replay: boolean;
  timeline: Timeline;
}

/** A driver's state on the board (GET /dispatch/board `trip_state`), and since when. */
export const TRIP_STATES = ['loading', 'loaded', 'unloading', 'free', 'no_data'] as const;
export type TripState = (typeof TRIP_STATES)[number];
export interface DriverTripState {
  state: TripState;
  /** The time of the step that began the state (ISO), or of the last step for `no_data`; null for free with no trip today. */
  since: string | null;
  trip_uid: string | null;
}

/** The board's Russian words for a state («на погрузке с 10:42»); `since` already formatted «HH:MM». */
export function tripStateText(state: TripState, since: string | null, minutesSilent = 0): string {
  switch (state) {
    case 'loading':
      return since ? `на погрузке с ${since}` : 'на погрузке';
    case 'loaded':
      return since ? `в пути с грузом с ${since}` : 'в пути с грузом';
    case 'unloading':
      return since ? `на выгрузке с ${since}` : 'на выгрузке';
    case 'free':
      return 'свободен';
    case 'no_data':
      return `нет данных ${minutesSilent} мин`;
  }
}

/**
 * The company's trip settings (its checks card): whether the receiver signs per trip, once per shift, or not at
 * all; the automatic stamps' dwell; when a wait is long; when a running trip with no step reads «нет данных».
 */
export const ACCEPTANCE_MODES = ['per_trip', 'per_shift', 'none'] as const;
export type AcceptanceMode = (typeof ACCEPTANCE_MODES)[number];
export const ACCEPTANCE_MODE_LABELS: Record<AcceptanceMode, string> = {
  per_trip: 'Подпись получателя на каждый рейс',
  per_shift: 'Одна подпись за смену',
  none: 'Без подписи',
};

export interface TripSettings {
  acceptance_mode: AcceptanceMode;
  /** long_wait: a wait at loading or unloading over this many minutes is flagged and alerted. */
  long_wait_minutes: number;
  /** Automatic arrival: inside the place's radius for this many seconds. */
  geofence_dwell_seconds: number;
  /** «нет данных N мин» on the board after this many minutes without a step in a running trip. */
  no_data_minutes: number;
  /**
   * «Без путевого листа смену не начать» (issue 33 §2, docs/trip-sheets.md): a new trip of the day is refused (409)
   * while neither the driver nor his fleet vehicle has a trip sheet for that day; the board says «нет путевого листа».
   */
  require_trip_sheet: boolean;
  /**
   * «Водитель подтверждает приём и сдачу груза (ПЭП)» (issue 33 §1): the loading departure asks the driver to confirm
   * «Груз принят к перевозке», the unloading departure «Груз сдан», by his simple electronic signature; the carrier's
   * Т2 / Т4 of such a trip name him as their signer (docs/documents.md «The driver's confirmation»).
   */
  driver_confirms: boolean;
}

export const DEFAULT_TRIP_SETTINGS: TripSettings = Object.freeze({
  acceptance_mode: 'none',
  long_wait_minutes: 60,
  geofence_dwell_seconds: 60,
  no_data_minutes: 90,
  require_trip_sheet: false,
  driver_confirms: false,
});

export const tripSettingsSchema = z
  .object({
    acceptance_mode: z.enum(ACCEPTANCE_MODES, { message: 'ожидается per_trip, per_shift или none' }),
    long_wait_minutes: z.number({ message: 'ожидается число' }).int('ожидается целое число').min(5, 'не меньше 5 мин').max(1440, 'не больше 1440 мин'),
    geofence_dwell_seconds: z.number({ message: 'ожидается число' }).int('ожидается целое число').min(10, 'не меньше 10 с').max(1800, 'не больше 1800 с'),
    no_data_minutes: z.number({ message: 'ожидается число' }).int('ожидается целое число').min(10, 'не меньше 10 мин').max(1440, 'не больше 1440 мин'),
    /** Absent on a PUT: stays as stored (a client that does not know it does not switch it off). */
    require_trip_sheet: z.boolean({ message: 'ожидается true или false' }).optional(),
    driver_confirms: z.boolean({ message: 'ожидается true или false' }).optional(),
  })
  .strict();

/** The trip's refusal when the company requires a trip sheet and the day has none for the driver (or his vehicle). */
export const noTripSheetMessage = (day: string): string =>
  `Нет путевого листа на ${day.split('-').reverse().join('.')}: без него смену не начать. Попросите диспетчера выписать путевой лист на вашу машину`;

/**
 * POST /trips/acceptance: the per-shift acceptance — the receiver signs once for the listed trips of the day
 * (multipart with the `signature` PNG, or JSON for a refusal). Idempotent by `key` (a UUID made on the phone).
 */
export const shiftAcceptanceSchema = z
  .object({
    key: tripUidSchema,
    trip_uids: z.array(tripUidSchema).min(1, 'выберите рейсы').max(100, 'не больше 100 рейсов'),
    at: deviceTime,
    position: positionSchema.nullish(),
    acceptance: acceptanceSchema,
  })
  .strict();
export type ShiftAcceptanceBody = z.infer<typeof shiftAcceptanceSchema>;
