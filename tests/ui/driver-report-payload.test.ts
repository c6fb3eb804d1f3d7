import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES, REPORT_MAX_BYTES, REPORT_MAX_PHOTOS } from '../../contract/report-limits.ts';
import {
  buildReport,
  buildReportEdit,
  draftFromReport,
  emptyDraft,
  isUnsendable,
  newPhotoBytes,
  photosError,
  resolvedErrors,
  typedTimes,
  type ReportDraft,
} from '../../src/parts/report/report-payload.ts';
import { buildReportForm } from '../../worker/report-form.ts';
import { newOutboxRecord } from '../../worker/outbox-store.ts';

const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });

describe('driver report payload', () => {
  it('a trip entered after the fact carries its typed times today, in order and not ahead, and the form sends them', () => {
    const now = new Date(2026, 10, 28, 15, 0);
    expect(typedTimes({ ...emptyDraft, loadingArrived: '08:10', unloadingDeparted: '09:40' }, now)).toEqual({
      ok: true,
      times: { loading_arrived_at: new Date(2026, 10, 28, 8, 10).toISOString(), unloading_departed_at: new Date(2026, 10, 28, 9, 40).toISOString() },
    });
    expect(typedTimes({ ...emptyDraft, loadingArrived: '10:10', unloadingDeparted: '09:40' }, now)).toEqual({
      ok: false,
      errors: { unloadingDeparted: 'Время раньше, чем «Прибытие на погрузку»' },
    });
    // All four steps typed: each in its place of the trip's order, an arrival at unloading before the departure from
    // loading named under its own field.
    expect(typedTimes({ ...emptyDraft, loadingArrived: '08:10', loadingDeparted: '08:40', unloadingArrived: '09:20', unloadingDeparted: '09:40' }, now)).toEqual({
      ok: true,
      times: {
        loading_arrived_at: new Date(2026, 10, 28, 8, 10).toISOString(),
        loading_departed_at: new Date(2026, 10, 28, 8, 40).toISOString(),
        unloading_arrived_at: new Date(2026, 10, 28, 9, 20).toISOString(),
        unloading_departed_at: new Date(2026, 10, 28, 9, 40).toISOString(),
      },
    });
    expect(typedTimes({ ...emptyDraft, loadingDeparted: '08:40', unloadingArrived: '08:30' }, now)).toEqual({
      ok: false,
      errors: { unloadingArrived: 'Время раньше, чем «Выезд с погрузки»' },
    });
    expect(typedTimes({ ...emptyDraft, unloadingDeparted: '16:30' }, now)).toEqual({ ok: false, errors: { unloadingDeparted: 'Это время ещё не наступило' } });
    expect(typedTimes({ ...emptyDraft, loadingArrived: '25:00' }, now)).toEqual({ ok: false, errors: { loadingArrived: 'Укажите время в виде ЧЧ:ММ' } });

    // At `now`, as the times above: on the clock's own, '00:40' today was ahead of it from midnight to 00:40 (CI ran then).
    const built = buildReport(7, { ...emptyDraft, quantity: '20', loadingArrived: '00:00' }, [], now);
    if (!built.ok) throw new Error('not built');
    const record = newOutboxRecord(built.report, 3, Date.now());
    const form = buildReportForm(record, []);
    expect(form.get('loading_arrived_at')).toBe(built.report.times?.loading_arrived_at);
    expect(form.get('unloading_departed_at')).toBeNull();
    const four = buildReport(7, { ...emptyDraft, quantity: '20', loadingArrived: '00:00', loadingDeparted: '00:10', unloadingArrived: '00:30', unloadingDeparted: '00:40' }, [], now);
    if (!four.ok) throw new Error('not built');
    const fourForm = buildReportForm(newOutboxRecord(four.report, 3, Date.now()), []);
    expect([fourForm.get('loading_departed_at'), fourForm.get('unloading_arrived_at')]).toEqual([four.report.times?.loading_departed_at, four.report.times?.unloading_arrived_at]);
  });

  it('sends the totals only when their buyer flag is on', () => {
    const result = buildReport(
      7,
      { ...emptyDraft, quantity: '20', totalLoading: '100', totalUnloading: '98', loadingIsBuyer: true, unloadingIsBuyer: false },
      [photo],
    );
    expect(result).toEqual({
      ok: true,
      report: {
        association_id: 7,
        quantity: 20,
        total_loading_quantity: 100,
        total_unloading_quantity: null,
        loadingIsBuyer: 1,
        unloadingIsBuyer: 0,
        trips: 1,
        ticketNumber: null,
        final: false,
        photos: [photo],
      },
    });
  });

  it('sends both totals with both flags on, and an empty total as null', () => {
    const result = buildReport(
      3,
      { ...emptyDraft, quantity: '5', totalLoading: '', totalUnloading: '4,5', loadingIsBuyer: true, unloadingIsBuyer: true },
      [],
    );
    expect(result.ok && result.report).toMatchObject({
      total_loading_quantity: null,
      total_unloading_quantity: 4.5,
      loadingIsBuyer: 1,
      unloadingIsBuyer: 1,
    });
  });

  it('ignores garbage left in a total whose flag is off', () => {
    const result = buildReport(3, { ...emptyDraft, quantity: '1', totalUnloading: 'abc' }, []);
    expect(result.ok).toBe(true);
    expect(result.ok && result.report.total_unloading_quantity).toBeNull();
  });

  it('rejects an invalid number in a flagged total and names the field', () => {
    const result = buildReport(3, { ...emptyDraft, quantity: '1', totalLoading: 'x', loadingIsBuyer: true }, []);
    expect(result).toEqual({ ok: false, errors: { totalLoading: 'Введите число' } });
  });

  it('sends an empty quantity as null when there are photos', () => {
    const result = buildReport(3, emptyDraft, [photo, photo]);
    expect(result.ok && result.report.quantity).toBeNull();
    expect(result.ok && result.report.photos).toHaveLength(2);
  });

  it('refuses a report with neither a quantity nor a photo', () => {
    expect(buildReport(3, emptyDraft, [])).toEqual({
      ok: false,
      errors: { form: 'Укажите количество или добавьте фото' },
    });
  });

  it('turns a stored report back into a draft that rebuilds the same numbers', () => {
    const stored = { quantity: 12.5, total_loading_quantity: 40, total_unloading_quantity: null };
    const draft = draftFromReport(stored);
    expect(draft).toEqual({ ...emptyDraft, quantity: '12,5', totalLoading: '40', totalUnloading: '', loadingIsBuyer: true, unloadingIsBuyer: false });
    const rebuilt = buildReport(1, draft, []);
    expect(rebuilt.ok && rebuilt.report).toMatchObject({ ...stored, loadingIsBuyer: 1, unloadingIsBuyer: 0 });
  });

  it('sends the trips, the ticket number and the last-trip mark; refuses a bad count or ticket, naming the field', () => {
    const ok = buildReport(3, { ...emptyDraft, quantity: '40', trips: '2', ticketNumber: ' № 4711/2 ', final: true }, []);
    expect(ok.ok && ok.report).toMatchObject({ trips: 2, ticketNumber: '№ 4711/2', final: true });
    expect(buildReport(3, { ...emptyDraft, quantity: '1', trips: '0' }, [])).toEqual({ ok: false, errors: { trips: 'Число рейсов — от 1 до 50' } });
    expect(buildReport(3, { ...emptyDraft, quantity: '1', trips: '2,5' }, []).ok).toBe(false);
    const bad = buildReport(3, { ...emptyDraft, quantity: '1', ticketNumber: '<b>' }, []);
    expect(bad.ok ? null : bad.errors.ticketNumber).toMatch(/номере талона/);
    // An edit sends a changed ticket number and trip count only.
    const edit = buildReportEdit({ ...emptyDraft, quantity: '20' }, { ...emptyDraft, quantity: '20', ticketNumber: 'Б-7', trips: '2' }, 1);
    expect(edit).toEqual({ ok: true, fields: { trips: 2, ticket_number: 'Б-7' } });
  });

  it("prefers the server's stored flags over guessing from the totals", () => {
    const draft = draftFromReport({
      quantity: 1,
      total_loading_quantity: null,
      total_unloading_quantity: null,
      loading_is_buyer: 1,
      unloading_is_buyer: 0,
    });
    expect([draft.loadingIsBuyer, draft.unloadingIsBuyer]).toEqual([true, false]);
  });
});

describe('driver report edit (PUT /reports/{id})', () => {
  const original = draftFromReport({
    quantity: 20,
    total_loading_quantity: 100,
    total_unloading_quantity: null,
    loading_is_buyer: 1,
    unloading_is_buyer: 0,
  });

  it('sends only the fields the driver changed', () => {
    expect(buildReportEdit(original, { ...original, quantity: '21,5' }, 1)).toEqual({ ok: true, fields: { quantity: 21.5 } });
  });

  it('sends nothing when nothing changed (only photos may go up then)', () => {
    expect(buildReportEdit(original, { ...original, quantity: '20,0' }, 1)).toEqual({ ok: true, fields: {} });
  });

  it('clears a total when its flag is turned off', () => {
    const result = buildReportEdit(original, { ...original, loadingIsBuyer: false }, 1);
    expect(result).toEqual({ ok: true, fields: { total_loading_quantity: null, loading_is_buyer: 0 } });
  });

  it('sends a newly flagged total with its flag, and an emptied quantity as null', () => {
    const result = buildReportEdit(original, { ...original, quantity: '', unloadingIsBuyer: true, totalUnloading: '97' }, 2);
    expect(result).toEqual({ ok: true, fields: { quantity: null, total_unloading_quantity: 97, unloading_is_buyer: 1 } });
  });

  it('names the field that does not parse', () => {
    expect(buildReportEdit(original, { ...original, totalLoading: 'сто' }, 1)).toEqual({ ok: false, errors: { totalLoading: 'Введите число' } });
  });

  it('refuses to leave a report with neither a quantity nor a photo', () => {
    expect(buildReportEdit(original, { ...original, quantity: '' }, 0)).toEqual({ ok: false, errors: { form: 'Укажите количество или добавьте фото' } });
  });
});

describe('photos the server would refuse for good', () => {
  const jpeg = new Blob(['x'], { type: 'image/jpeg' });
  const heic = new Blob(['x'], { type: 'image/heic' });

  it('a photo that could not be compressed is unsendable only in a format the server does not take', () => {
    // The engine keeps the original when compression fails: the preview is then the HEIC itself.
    expect(isUnsendable({ original: heic, preview: heic, previewFailed: false })).toBe(true);
    expect(isUnsendable({ original: heic, preview: null, previewFailed: true })).toBe(true);
    expect(isUnsendable({ original: jpeg, preview: null, previewFailed: true })).toBe(false);
    expect(isUnsendable({ original: heic, preview: jpeg, previewFailed: false })).toBe(false);
    // Still compressing: not known yet, so not refused.
    expect(isUnsendable({ original: heic, preview: null, previewFailed: false })).toBe(false);
  });

  it('names the problem: unsendable photos first, then more than the cap', () => {
    expect(photosError(REPORT_MAX_PHOTOS, 0)).toBeNull();
    expect(photosError(REPORT_MAX_PHOTOS + 2, 0)).toBe('В отчёте не больше 12 фото: уберите лишние (2)');
    expect(photosError(3, 1)).toMatch(/не удалось обработать/);
    expect(photosError(3, 0, REPORT_MAX_BYTES)).toBeNull();
    expect(photosError(3, 0, REPORT_MAX_BYTES + 1)).toBe('Фото отчёта вместе больше 40 МБ: уберите часть из них');
  });

  it('uses the server\'s caps from contract/: a photo over the per-photo cap is unsendable', () => {
    const huge = new Blob([new Uint8Array(PHOTO_MAX_BYTES + 1)], { type: 'image/png' });
    const atCap = new Blob([new Uint8Array(PHOTO_MAX_BYTES)], { type: 'image/png' });
    expect(isUnsendable({ original: huge, preview: null, previewFailed: true })).toBe(true);
    expect(isUnsendable({ original: huge, preview: atCap, previewFailed: false })).toBe(false);
    expect(newPhotoBytes([{ original: huge, preview: atCap, previewFailed: false }, { original: huge, preview: null, previewFailed: false }])).toBe(
      PHOTO_MAX_BYTES,
    );
  });
});

describe('resolvedErrors: an error goes when its cause does', () => {
  const draft = (patch: Partial<ReportDraft> = {}): ReportDraft => ({ ...emptyDraft, ...patch });
  const nothing = { form: 'Укажите количество или добавьте фото' };

  it('drops «nothing to report» once a quantity is typed or a photo added, keeps it while still nothing', () => {
    expect(resolvedErrors(nothing, draft(), 0, false)).toEqual(nothing);
    expect(resolvedErrors(nothing, draft({ quantity: '12' }), 0, false)).toEqual({});
    expect(resolvedErrors(nothing, draft(), 1, true)).toEqual({});
  });

  it('drops a field error once the field parses, and updates it while it does not', () => {
    const bad = buildReport(1, draft({ quantity: 'много' }), []);
    expect(bad.ok).toBe(false);
    const errors = bad.ok ? {} : bad.errors;
    expect(errors.quantity).toBeTruthy();
    expect(resolvedErrors(errors, draft({ quantity: 'много' }), 0, false).quantity).toBe(errors.quantity);
    expect(resolvedErrors(errors, draft({ quantity: '22,5' }), 0, false)).toEqual({});
  });

  it('drops a total’s error when its «покупатель» flag is turned off', () => {
    const bad = buildReport(1, draft({ quantity: '5', loadingIsBuyer: true, totalLoading: 'x' }), []);
    const errors = bad.ok ? {} : bad.errors;
    expect(errors.totalLoading).toBeTruthy();
    expect(resolvedErrors(errors, draft({ quantity: '5', loadingIsBuyer: false }), 0, false)).toEqual({});
  });

  it('keeps a photo problem until the photos change', () => {
    const tooBig = { form: 'Фото слишком большие' };
    expect(resolvedErrors(tooBig, draft({ quantity: '5' }), 3, false)).toEqual(tooBig);
    expect(resolvedErrors(tooBig, draft({ quantity: '5' }), 2, true)).toEqual({});
  });
});
