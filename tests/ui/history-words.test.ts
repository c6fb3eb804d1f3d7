/** «История изменений» in words (src/ui/console/history-words.ts): names, not numbers; verbs that agree; the app's labels. */
import { describe, expect, it } from 'vitest';
import { changeText, entryTitle } from '../../src/ui/console/history-words.ts';

describe('history wording', () => {
  it('a driver\'s part is named by its driver, never by its number; verbs agree with their noun', () => {
    expect(entryTitle({ entity: 'association', entity_id: 10, action: 'create', driver_name: 'Иван Петров' })).toBe('Водитель назначен на задачу: Иван Петров');
    expect(entryTitle({ entity: 'association', entity_id: 10, action: 'update', driver_name: 'Иван Петров' })).not.toContain('10');
    expect(entryTitle({ entity: 'task', entity_id: 10, action: 'create', driver_name: null })).toBe('Задача №10 создана');
    expect(entryTitle({ entity: 'report', entity_id: 5, action: 'update', driver_name: null })).toBe('Отчёт №5 изменён');
    for (const action of ['create', 'update', 'delete'] as const) {
      for (const entity of ['task', 'association', 'report'] as const) expect(entryTitle({ entity, entity_id: 1, action, driver_name: 'А' })).not.toMatch(/\(а\)/);
    }
  });

  it('the labels and values the screens use: the customer\'s price, the driver by name, statuses, dates, decimal commas', () => {
    expect(changeText('task', 'update', { field: 'rate', from: 450, to: 480.5 })).toBe('цена для заказчика: 450 → 480,5');
    expect(changeText('association', 'update', { field: 'driver_id', from: 'Сергей Смирнов', to: 'Иван Петров' })).toBe('водитель: Сергей Смирнов → Иван Петров');
    expect(changeText('association', 'update', { field: 'status', from: 'accepted', to: 'in_progress' })).toBe('статус: принята → в рейсе');
    expect(changeText('task', 'update', { field: 'status', from: 'open', to: 'in_progress' })).toBe('статус: открыта → в работе');
    expect(changeText('task', 'update', { field: 'date', from: '2026-11-25', to: '2026-11-26' })).toBe('дата: 25.11.2026 → 26.11.2026');
    expect(changeText('association', 'update', { field: 'transport_rate', from: null, to: 480 })).toBe('ставка водителя: — → 480');
  });

  it('photos: how many a report was made with, and what a change added and removed', () => {
    expect(changeText('report', 'create', { field: 'photos', from: null, to: '12,13' })).toBe('фото: 2');
    expect(changeText('report', 'update', { field: 'photos', from: '12', to: '12,14' })).toBe('фото: добавлено 1');
    expect(changeText('report', 'update', { field: 'photos', from: '12,14', to: '14' })).toBe('фото: удалено 1');
    expect(changeText('report', 'update', { field: 'photos', from: '12,13', to: '13,15' })).toBe('фото: удалено 1, добавлено 1');
  });
});
