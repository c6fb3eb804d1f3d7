/**
 * Announcements: who reads what (own company, all companies), the unread count, posting and deleting rules,
 * drivers' responses (only where asked, one each, editable while pending) and the staff's decision.
 */
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeWorld, type World } from '../fixtures/accounts.ts';
import type { Announcement, AnnouncementList, PendingResponse } from '../../contract/announcements.ts';

describe.each(backends)('announcements ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let w: World;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    w = await makeWorld(s);
  });

  const list = async (token: string) => (await call<AnnouncementList>(s, 'GET', '/api/announcements/', { token })).body;
  const post = (body: unknown, token = w.tokens.manager) => call<Announcement>(s, 'POST', '/api/announcements/', { token, body });

  it('a company’s announcement reaches its people only; one for all companies reaches everyone; unread is counted', async () => {
    const own = (await post({ title: 'Техосмотр в пятницу', body: 'С 8:00 до 12:00 на базе.' })).body;
    expect(own).toMatchObject({ company_id: w.companyA, requires_response: false, is_read: true, author_name: expect.any(String) });
    const everyone = await post({ title: 'Новые правила', body: 'Читайте внимательно.', company_id: null }, w.tokens.super);
    expect(everyone.status).toBe(201);
    expect(everyone.body.company_name).toBe('Все компании');

    const driver = await list(w.tokens.driver);
    expect(driver.items.map((a) => a.id)).toEqual(expect.arrayContaining([own.id, everyone.body.id]));
    expect(driver.unread).toBe(driver.items.filter((a) => !a.is_read).length);
    const before = driver.unread;
    const other = await list(w.tokens.driverB);
    expect(other.items.map((a) => a.id)).not.toContain(own.id);
    expect(other.items.map((a) => a.id)).toContain(everyone.body.id);
    expect((await call(s, 'POST', `/api/announcements/${own.id}/read`, { token: w.tokens.driverB })).status).toBe(404);

    expect((await call(s, 'POST', `/api/announcements/${own.id}/read`, { token: w.tokens.driver })).status).toBe(204);
    expect((await call(s, 'POST', `/api/announcements/${own.id}/read`, { token: w.tokens.driver })).status).toBe(204);
    const after = await list(w.tokens.driver);
    expect(after.unread).toBe(before - 1);
    expect(after.items.find((a) => a.id === own.id)?.is_read).toBe(true);
  });

  it('posting: Russian checks naming the field; staff post to their own company only; deleting is scoped', async () => {
    const empty = await post({ title: '  ', body: 'x' });
    expect([empty.status, (empty.body as unknown as { detail: string }).detail]).toEqual([400, 'title: укажите заголовок']);
    expect((await post({ title: 'x', body: 'y'.repeat(5001) })).status).toBe(400);
    expect((await post({ title: 'x', body: 'y', requires_response: 'да' })).status).toBe(400);
    expect((await post({ title: 'x', body: 'y', company_id: w.companyB })).status).toBe(403);
    expect((await post({ title: 'x', body: 'y', company_id: null })).status).toBe(403);
    expect((await post({ title: 'x', body: 'y' }, w.tokens.driver)).status).toBe(403);

    const mine = (await post({ title: 'Удалить меня', body: 'Текст' })).body;
    expect((await call(s, 'DELETE', `/api/announcements/${mine.id}`, { token: w.tokens.managerB })).status).toBe(404);
    expect((await call(s, 'DELETE', `/api/announcements/${mine.id}`, { token: w.tokens.driver })).status).toBe(403);
    expect((await call(s, 'DELETE', `/api/announcements/${mine.id}`, { token: w.tokens.admin })).status).toBe(204);
    const global = (await post({ title: 'Всем', body: 'Текст', company_id: null }, w.tokens.super)).body;
    expect((await call(s, 'DELETE', `/api/announcements/${global.id}`, { token: w.tokens.admin })).status).toBe(403);
    expect((await call(s, 'DELETE', `/api/announcements/${global.id}`, { token: w.tokens.super })).status).toBe(204);
  });

  it('a driver responds where asked, once, editable until staff of their company confirm or decline it', async () => {
    const plain = (await post({ title: 'Просто новость', body: 'Текст' })).body;
    expect((await call(s, 'POST', `/api/announcements/${plain.id}/responses`, { token: w.tokens.driver, body: {} })).status).toBe(409);
    const ask = (await post({ title: 'Подтвердите выход в субботу', body: 'Ответьте до пятницы', requires_response: true })).body;
    expect((await call(s, 'POST', `/api/announcements/${ask.id}/responses`, { token: w.tokens.manager, body: {} })).status).toBe(403);
    expect((await call(s, 'POST', `/api/announcements/${ask.id}/responses`, { token: w.tokens.driverB, body: {} })).status).toBe(404);
    const first = await call(s, 'POST', `/api/announcements/${ask.id}/responses`, { token: w.tokens.driver, body: { text: 'Буду' } });
    expect(first.status).toBe(201);
    const changed = await call(s, 'POST', `/api/announcements/${ask.id}/responses`, { token: w.tokens.driver, body: { text: 'Буду к 9:00' } });
    expect([changed.status, changed.body.id, changed.body.text]).toEqual([200, first.body.id, 'Буду к 9:00']);

    const pendingA = (await call<PendingResponse[]>(s, 'GET', '/api/announcements/responses/pending', { token: w.tokens.manager })).body;
    expect(pendingA.find((r) => r.id === first.body.id)).toMatchObject({ announcement_title: 'Подтвердите выход в субботу', text: 'Буду к 9:00' });
    const pendingB = (await call<PendingResponse[]>(s, 'GET', '/api/announcements/responses/pending', { token: w.tokens.managerB })).body;
    expect(pendingB.map((r) => r.id)).not.toContain(first.body.id);
    expect((await call(s, 'POST', `/api/announcements/responses/${first.body.id}/confirm`, { token: w.tokens.managerB })).status).toBe(404);
    expect((await call(s, 'POST', `/api/announcements/responses/${first.body.id}/confirm?approve=perhaps`, { token: w.tokens.manager })).status).toBe(400);

    const staffView = (await list(w.tokens.manager)).items.find((a) => a.id === ask.id);
    expect(staffView?.responses).toEqual({ pending: 1, approved: 0, declined: 0 });
    const confirmed = await call(s, 'POST', `/api/announcements/responses/${first.body.id}/confirm`, { token: w.tokens.manager });
    expect(confirmed.body).toMatchObject({ status: 'approved' });
    expect((await call(s, 'POST', `/api/announcements/responses/${first.body.id}/confirm?approve=false`, { token: w.tokens.manager })).status).toBe(409);
    expect((await list(w.tokens.driver)).items.find((a) => a.id === ask.id)?.my_response).toMatchObject({ status: 'approved', text: 'Буду к 9:00' });
    expect((await call(s, 'POST', `/api/announcements/${ask.id}/responses`, { token: w.tokens.driver, body: { text: 'Не смогу' } })).status).toBe(409);

    // approve=false declines.
    const another = (await post({ title: 'Ещё вопрос', body: 'Ответьте', requires_response: true })).body;
    const r = (await call(s, 'POST', `/api/announcements/${another.id}/responses`, { token: w.tokens.driver, body: {} })).body;
    expect((await call(s, 'POST', `/api/announcements/responses/${r.id}/confirm?approve=false`, { token: w.tokens.admin })).body).toMatchObject({ status: 'declined' });
  });
});
