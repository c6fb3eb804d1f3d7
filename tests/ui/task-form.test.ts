import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../contract/entities.ts';
import { wireAssociation, wireTask } from '../fixtures/wire.ts';
import { buildBody, createBody, loadTaskChecks, editBody, emptyValues, firstErrorField, nextValues, serverFieldError, valuesFromTask } from '../../src/screens/task-form/task-form.ts';

const task: Task = wireTask({
  id: 8,
  date: '2026-11-25',
  cargo: 'Грунт',
  loading_place: 'Полигон',
  unloading_place: 'Парк',
  planned_quantity: 45.5,
  status: 'in_progress',
  rate: 350,
  driver_associations: [
    wireAssociation({ id: 1, task_id: 8, driver_id: 3, driver_name: 'Иван', quantity: 12, transport_rate: 350, order_index: 1 }),
    wireAssociation({ id: 2, task_id: 8, driver_id: 4, driver_name: 'Пётр', status: 'cancelled', order_index: 1 }),
  ],
});

// The contract's rules load beside the form; the screens wait for them before a send, as these tests do.
beforeAll(() => loadTaskChecks());

describe('the task form conversions', () => {
  it('reads decimals with a comma, and names each wrong field in Russian', () => {
    const values = { ...emptyValues('2026-11-25'), cargo: 'Щебень', loading_place: 'A', unloading_place: 'B', planned_quantity: '22,5', rate: 'abc' };
    const result = buildBody(values, false);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toEqual({ rate: 'Введите число' });
    const fixed = buildBody({ ...values, rate: '410,5' }, false);
    expect(fixed.ok && fixed.body).toMatchObject({ planned_quantity: 22.5, rate: 410.5, comment: null, driver_ids: [] });
  });

  it('sends each driver’s share, and refuses shares that add up to more than the plan', () => {
    const row = (id: number, share: string) => ({ driver_id: id, planned_quantity: share, quantity: '', transport_rate: '', loading_quantity: '', unloading_quantity: '', status: 'accepted' as const });
    const base = { ...emptyValues('2026-11-25'), cargo: 'Щебень', loading_place: 'А', unloading_place: 'Б', planned_quantity: '150' };
    const ok = buildBody({ ...base, drivers: [row(3, '75'), row(4, '')] }, false);
    expect(ok.ok && ok.body.drivers.map((d) => d.planned_quantity)).toEqual([75, null]);
    const over = buildBody({ ...base, drivers: [row(3, '100'), row(4, '60,5')] }, false);
    expect(over.ok ? null : over.errors['drivers.3.planned_quantity']).toBe('Доли вместе (160,5) больше плана (150)');
  });

  it('requires a company from a super-admin, the places, and seats for every assigned driver', () => {
    const values = { ...emptyValues('2026-11-25'), planned_quantity: '10', max_drivers: '1' };
    values.drivers = [3, 4].map((id) => ({ driver_id: id, planned_quantity: '', quantity: '', transport_rate: '', loading_quantity: '', unloading_quantity: '', status: 'accepted' as const }));
    const result = buildBody(values, true);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({ company_id: 'Выберите компанию', cargo: 'Укажите груз', loading_place: 'Укажите место погрузки' });
    expect(result.errors.max_drivers).toMatch(/больше, чем мест/);
    expect(firstErrorField(result.errors)).toBe('company_id');
  });

  it('an edit sends only the task fields that changed, and the drivers only when they changed', () => {
    const loaded = valuesFromTask(task);
    expect(loaded.drivers.map((d) => d.driver_id)).toEqual([3]);
    expect(loaded.planned_quantity).toBe('45,5');
    const base = buildBody(loaded, false);
    const edited = buildBody({ ...loaded, comment: 'Въезд со склада' }, false);
    if (!base.ok || !edited.ok) throw new Error('both valid');
    expect(editBody(base.body, edited.body)).toEqual({ comment: 'Въезд со склада' });
    const withDriver = buildBody({ ...loaded, drivers: [{ ...loaded.drivers[0]!, quantity: '17,5' }] }, false);
    if (!withDriver.ok) throw new Error('valid');
    expect(editBody(base.body, withDriver.body)).toMatchObject({ driver_ids: [3], drivers: [{ id: 3, quantity: 17.5, transport_rate: 350 }] });
  });

  it('«Создать ещё одну» keeps the date and places; server details land under their field', () => {
    const next = nextValues({ ...valuesFromTask(task), comment: 'x' });
    expect(next).toMatchObject({ date: '2026-11-25', loading_place: 'Полигон', unloading_place: 'Парк', cargo: '', comment: '', drivers: [] });
    expect(serverFieldError('cargo: укажите груз')).toEqual({ field: 'cargo', message: 'укажите груз' });
    expect(serverFieldError('driver_ids: водитель не найден в компании задания')).toEqual({ field: null, message: 'driver_ids: водитель не найден в компании задания' });
    expect(serverFieldError('Задачу изменили')).toEqual({ field: null, message: 'Задачу изменили' });
  });
});

describe('register links (issue 31)', () => {
  const filled = {
    ...emptyValues('2026-11-25'),
    cargo: 'Щебень',
    loading_place: 'Карьер Гранит',
    unloading_place: 'Склад',
    planned_quantity: '40',
    parties: { customer: { id: 7, name: 'ООО Гранит' } },
    loading: { id: 3, name: 'Карьер Гранит' },
  };

  it('a new task sends the picked links only: the shipper and consignee left out default on the server', () => {
    const built = buildBody(filled, false);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    const body = createBody(built.body);
    expect(body).toMatchObject({ customer_id: 7, loading_place_id: 3, loading_place: 'Карьер Гранит', unloading_place: 'Склад' });
    expect(body).not.toHaveProperty('shipper_id');
    expect(body).not.toHaveProperty('consignee_id');
    expect(body).not.toHaveProperty('unloading_place_id');
  });

  it('an edit sends a cleared counterparty as null, and a place typed instead of picked as its text only', () => {
    const base = buildBody(filled, false);
    const edited = buildBody({ ...filled, parties: { customer: null }, loading: null, loading_place: 'Карьер Северный' }, false);
    expect(base.ok && edited.ok).toBe(true);
    if (!base.ok || !edited.ok) return;
    const changes = editBody(base.body, edited.body);
    expect(changes).toEqual({ customer_id: null, loading_place: 'Карьер Северный' });
  });

  it('a refused link stands under its picker', () => {
    expect(serverFieldError('customer_id: «ООО Гранит» не отмечен как заказчик')).toEqual({ field: 'customer_id', message: '«ООО Гранит» не отмечен как заказчик' });
    expect(serverFieldError('loading_place_id: место «Карьер» в архиве')).toEqual({ field: 'loading_place', message: 'место «Карьер» в архиве' });
  });

  it('«Создать ещё одну» keeps the counterparties and the places', () => {
    expect(nextValues(filled)).toMatchObject({ parties: filled.parties, loading: filled.loading, cargo: '' });
  });
});
