import { describe, expect, it, vi } from 'vitest';
import { focusOrOpen, notificationUrl, readPush, type PushPayload } from '../../sw/push.ts';

function payload(text: string): PushPayload {
  return { text: () => text, json: () => JSON.parse(text) as unknown };
}

describe('readPush', () => {
  it('reads body and url from a JSON payload', () => {
    expect(readPush(payload('{"body":"Новая задача на завтра","url":"/available-tasks"}'))).toEqual({
      body: 'Новая задача на завтра',
      url: '/available-tasks',
    });
  });

  it('falls back to message, then title', () => {
    expect(readPush(payload('{"message":"Отчёт принят"}')).body).toBe('Отчёт принят');
    expect(readPush(payload('{"title":"Объявление"}')).body).toBe('Объявление');
  });

  it('takes plain text as the body', () => {
    expect(readPush(payload('Задача отменена'))).toEqual({ body: 'Задача отменена', url: '/' });
  });

  it('never leads outside the app', () => {
    expect(readPush(payload('{"body":"x","url":"https://evil.test/"}')).url).toBe('/');
    expect(readPush(payload('{"body":"x","url":"//evil.test/"}')).url).toBe('/');
  });

  it('has a body even when the payload has none', () => {
    expect(readPush(null).body).toBe('Новое уведомление');
    expect(readPush(payload('{}')).body).toBe('Новое уведомление');
  });

  it('finds the url stored on the notification', () => {
    expect(notificationUrl({ url: '/current-tasks' })).toBe('/current-tasks');
    expect(notificationUrl(null)).toBe('/');
  });
});

describe('focusOrOpen', () => {
  const win = (url: string) => ({ url, focus: vi.fn(async () => undefined) });

  it('focuses the window that already shows the target', async () => {
    const windows = [win('https://r.test/profile'), win('https://r.test/current-tasks')];
    const open = vi.fn(async () => undefined);
    await focusOrOpen('https://r.test/current-tasks', windows, open);
    expect(windows[1]!.focus).toHaveBeenCalled();
    expect(windows[0]!.focus).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });

  it('focuses any app window rather than opening a second one', async () => {
    const windows = [win('https://r.test/profile')];
    const open = vi.fn(async () => undefined);
    await focusOrOpen('https://r.test/current-tasks', windows, open);
    expect(windows[0]!.focus).toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });

  it('opens the app when no window is open', async () => {
    const open = vi.fn(async () => undefined);
    await focusOrOpen('https://r.test/', [], open);
    expect(open).toHaveBeenCalledWith('https://r.test/');
  });
});
