/** Correcting a report in place: removed photos first (the server's photo cap), then one PUT; retries skip what is done. */
import type { Remote } from 'comlink';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FormFields, Params, Result, WorkerApi } from '../../worker/api.ts';
import { setEngine } from '../../src/engine/engine.ts';
import { ApiError } from '../../src/engine/queries.ts';
import { hasChanges, saveReportEdit, type ReportEdit } from '../../src/parts/report/save-edit.ts';

type Call = { method: string; path: string; params?: Params; fields?: FormFields; files?: number };
let calls: Call[] = [];
let answers: Array<Result<unknown>> = [];

const ok: Result<unknown> = { ok: true, data: null };
const next = (): Result<unknown> => answers.shift() ?? ok;

beforeEach(() => {
  calls = [];
  answers = [];
  const engine: Partial<WorkerApi> = {
    send: async (method, path, _body, params) => {
      calls.push({ method, path, ...(params ? { params } : {}) });
      return next() as never;
    },
    sendForm: async (method, path, fields, files) => {
      calls.push({ method, path, fields, files: files.length });
      return next() as never;
    },
  };
  setEngine(engine as unknown as Remote<WorkerApi>);
});

const photo = new Blob(['p'], { type: 'image/jpeg' });
const edit = (over: Partial<ReportEdit> = {}): ReportEdit => ({ reportId: 5, fields: {}, addedPhotos: [], removedPhotoIds: [], ...over });

describe('saveReportEdit', () => {
  it('deletes the removed photos first, then PUTs the changed fields with the added photos', async () => {
    await saveReportEdit(edit({ fields: { quantity: 14 }, addedPhotos: [photo, photo], removedPhotoIds: [31, 32] }), new Set());
    expect(calls).toEqual([
      { method: 'DELETE', path: '/reports/5/photo', params: { photo_id: 31 } },
      { method: 'DELETE', path: '/reports/5/photo', params: { photo_id: 32 } },
      { method: 'PUT', path: '/reports/5', fields: { quantity: 14 }, files: 2 },
    ]);
  });

  it('never deletes the report itself, and sends no PUT when only photos were removed', async () => {
    await saveReportEdit(edit({ removedPhotoIds: [31] }), new Set());
    expect(calls).toEqual([{ method: 'DELETE', path: '/reports/5/photo', params: { photo_id: 31 } }]);
  });

  it('a retry after a failed PUT does not delete the same photos again', async () => {
    const removed = new Set<number>();
    const change = edit({ fields: { quantity: 1 }, removedPhotoIds: [31] });
    answers = [ok, { ok: false, message: 'Нет связи с сервером', status: null, network: true }];
    await expect(saveReportEdit(change, removed)).rejects.toBeInstanceOf(ApiError);
    expect(removed).toEqual(new Set([31]));

    calls = [];
    await saveReportEdit(change, removed);
    expect(calls).toEqual([{ method: 'PUT', path: '/reports/5', fields: { quantity: 1 }, files: 0 }]);
  });

  it('stops at a refused photo deletion: nothing else is sent', async () => {
    answers = [{ ok: false, message: 'Фото не найдено в этом отчёте', status: 404, network: false }];
    await expect(saveReportEdit(edit({ fields: { quantity: 1 }, removedPhotoIds: [31] }), new Set())).rejects.toThrow('Фото не найдено в этом отчёте');
    expect(calls).toHaveLength(1);
  });

  it('knows when there is nothing to save', () => {
    expect(hasChanges(edit())).toBe(false);
    expect(hasChanges(edit({ fields: { quantity: null } }))).toBe(true);
    expect(hasChanges(edit({ addedPhotos: [photo] }))).toBe(true);
    expect(hasChanges(edit({ removedPhotoIds: [1] }))).toBe(true);
  });
});
