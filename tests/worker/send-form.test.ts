/** HttpApi.sendForm: PUT /reports/{id} with changed quantities and added photos (multipart, compressed). */
import { describe, expect, it, vi } from 'vitest';
import { buildFieldsForm } from '../../worker/report-form.ts';
import { networkFailure } from './doubles.ts';
import { makeEngine, seedSession, serveAuth } from './harness.ts';

/** Marks a blob as "compressed" so the test can tell which bytes went up. */
async function fakeCompress(photo: Blob): Promise<Blob> {
  return new Blob([`small:${await photo.text()}`], { type: 'image/jpeg' });
}

function textFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === 'string') out[name] = value;
  return out;
}

async function fileTexts(form: FormData, field: string): Promise<string[]> {
  return Promise.all(form.getAll(field).map((file) => (file as File).text()));
}

describe('buildFieldsForm', () => {
  it('sends null as empty text, numbers as text, and leaves out what is not given', () => {
    const form = buildFieldsForm({ quantity: 12.5, total_loading_quantity: null, loading_is_buyer: 0 }, []);
    expect(textFields(form)).toEqual({ quantity: '12.5', total_loading_quantity: '', loading_is_buyer: '0' });
    expect(form.has('total_unloading_quantity')).toBe(false);
  });

  it('attaches the files under the given field name, in order, with names', async () => {
    const form = buildFieldsForm({}, [new Blob(['a'], { type: 'image/jpeg' }), new Blob(['b'], { type: 'image/png' })], 'photo');
    expect(await fileTexts(form, 'photo')).toEqual(['a', 'b']);
    expect(form.getAll('photo').map((file) => (file as File).name)).toEqual(['photo-1.jpg', 'photo-2.png']);
    expect(form.has('photos')).toBe(false);
  });
});

describe('sendForm', () => {
  it('PUTs a multipart body with the bearer token and compressed photos, and answers the server data', async () => {
    const { api, server, db } = await makeEngine({ compress: fakeCompress });
    await seedSession(db, { access: 'stored-token', refresh: 'r' });
    server.on('PUT reports/5', () => ({ status: 200, data: { id: 5, quantity: 14 } }));

    const result = await api.sendForm('PUT', '/reports/5', { quantity: 14, total_unloading_quantity: null }, [
      new Blob(['one'], { type: 'image/jpeg' }),
      new Blob(['two'], { type: 'image/jpeg' }),
    ]);

    expect(result).toEqual({ ok: true, data: { id: 5, quantity: 14 } });
    const seen = server.log.at(-1)!;
    expect(seen.method).toBe('PUT');
    expect(seen.headers.authorization).toBe('Bearer stored-token');
    expect(seen.body).toBeInstanceOf(FormData);
    const form = seen.body as FormData;
    expect(textFields(form)).toEqual({ quantity: '14', total_unloading_quantity: '' });
    expect(await fileTexts(form, 'photos')).toEqual(['small:one', 'small:two']);
  });

  it('POSTs too, with the files under another field name when asked', async () => {
    const { api, server } = await makeEngine({ compress: fakeCompress });
    server.on('POST things/', () => ({ status: 201, data: { id: 1 } }));
    const result = await api.sendForm('POST', 'things/', { name: 'x' }, [new Blob(['p'])], 'photo');
    expect(result).toEqual({ ok: true, data: { id: 1 } });
    expect(await fileTexts(server.log.at(-1)!.body as FormData, 'photo')).toEqual(['small:p']);
  });

  it('sends a document (the `file` field: a title\'s XML) as it is, never through the photo compression', async () => {
    const { api, server } = await makeEngine({ compress: fakeCompress });
    server.on('POST etrn/incoming', () => ({ status: 201, data: { id: 1 } }));
    await api.sendForm('POST', 'etrn/incoming', { name: 't1.xml' }, [new Blob(['<Файл/>'], { type: 'application/xml' })], 'file');
    expect(await fileTexts(server.log.at(-1)!.body as FormData, 'file')).toEqual(['<Файл/>']);
  });

  it('keeps the original photo when compression fails (a broken image is still sent)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { api, server } = await makeEngine();
    server.on('PUT reports/5', () => ({ status: 200, data: {} }));
    await api.sendForm('PUT', 'reports/5', {}, [new Blob(['not an image'], { type: 'image/jpeg' })]);
    expect(await fileTexts(server.log.at(-1)!.body as FormData, 'photos')).toEqual(['not an image']);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('answers the server detail on a refusal', async () => {
    const { api, server } = await makeEngine({ compress: fakeCompress });
    server.on('PUT reports/5', () => ({ status: 413, data: { detail: 'В отчёте не больше 12 фото' } }));
    const result = await api.sendForm('PUT', 'reports/5', { quantity: 1 }, [new Blob(['p'])]);
    expect(result).toEqual({ ok: false, message: 'В отчёте не больше 12 фото', status: 413, network: false });
  });

  it('answers a network failure as such', async () => {
    const { api, server } = await makeEngine({ compress: fakeCompress });
    server.on('PUT reports/5', () => {
      throw networkFailure();
    });
    const result = await api.sendForm('PUT', 'reports/5', { quantity: 1 }, []);
    expect(result).toMatchObject({ ok: false, network: true, status: null });
  });

  it('a 401 refreshes once and the same form goes up again with the new token', async () => {
    const { api, server, db, clock } = await makeEngine({ compress: fakeCompress });
    const auth = serveAuth(server, clock);
    await seedSession(db, { access: 'expired', refresh: auth.grant().refresh_token });
    server.on('PUT reports/5', (request) =>
      auth.authorised(request.headers) ? { status: 200, data: { id: 5 } } : { status: 401, data: { detail: 'Требуется вход' } },
    );

    const result = await api.sendForm('PUT', 'reports/5', { quantity: 3 }, [new Blob(['p'])]);

    expect(result).toEqual({ ok: true, data: { id: 5 } });
    expect(server.count('PUT reports/5')).toBe(2);
    expect(server.count('POST auth/refresh/')).toBe(1);
    const retried = server.log.at(-1)!;
    expect(retried.headers.authorization).toBe(`Bearer ${auth.state.access}`);
    expect(textFields(retried.body as FormData)).toEqual({ quantity: '3' });
    expect(await fileTexts(retried.body as FormData, 'photos')).toEqual(['small:p']);
  });
});
