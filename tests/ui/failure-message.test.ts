/** A failed action says what failed — the network, the connection to the server, or the server. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/engine/queries.ts';
import { failureMessage } from '../../src/engine/send.ts';

const OFFLINE = 'Нет подключения к сети: статус не изменён.';

afterEach(() => vi.unstubAllGlobals());

describe('failureMessage', () => {
  it("answers the server's detail for a refusal", () => {
    expect(failureMessage(new ApiError({ ok: false, message: 'Задача отменена', status: 409, network: false }), OFFLINE)).toBe('Задача отменена');
  });

  it('says the server is unavailable when the engine knows it is down, keeping what was not done', () => {
    vi.stubGlobal('navigator', { onLine: true });
    const error = new ApiError({ ok: false, message: 'x', status: null, network: true, unreachable: true });
    expect(failureMessage(error, OFFLINE)).toBe('Сервер недоступен: статус не изменён.');
  });

  it('says there is no answer from the server when the device is online, and no network when it is not', () => {
    const error = new ApiError({ ok: false, message: 'x', status: null, network: true });
    vi.stubGlobal('navigator', { onLine: true });
    expect(failureMessage(error, OFFLINE)).toBe('Нет связи с сервером: статус не изменён.');
    vi.stubGlobal('navigator', { onLine: false });
    expect(failureMessage(error, OFFLINE)).toBe(OFFLINE);
  });
});
