import { describe, expect, it } from 'vitest';
import type { UserWire } from '../../contract/entities.ts';
import { accountBody, accountServerError, EMPTY_ACCOUNT, valuesOf } from '../../src/parts/accounts/account-form.ts';
import { filterDrivers, DRIVER_DEFAULTS } from '../../src/screens/drivers-manage/driver-list.ts';
import { nextOrdering } from '../../src/ui/console/list-controller.ts';
import { spellingsMatch } from '../../src/ui/search-text.ts';

const driver: UserWire = {
  id: 7,
  email: 'ivan@demo.local',
  name: 'Иван Петров',
  phone: '+7 912 345-67-89',
  company_id: 1,
  company_name: 'ООО «СеверТранс»',
  role: { name: 'driver' },
  is_active: true,
  current_transport: { id: 3, vehicle_number: 'А123ВС 77', vehicle_brand: 'КАМАЗ', vehicle_capacity: 15, is_current: true },
  vehicle_id: null,
  vehicle: null,
  license_series: null,
  license_number: null,
  license_issued: null, inn: null,
};

describe('the account form', () => {
  it('creates with every field checked in Russian, a comma capacity read as 22.5', () => {
    const bad = accountBody({ ...EMPTY_ACCOUNT, email: 'ivan', phone: '12', password: 'short' }, { vehicle: true }, null);
    expect(bad).toEqual({
      ok: false,
      errors: {
        name: 'Укажите имя',
        email: 'Укажите e-mail вида name@example.ru',
        phone: 'Укажите телефон: цифры, пробелы, скобки, дефисы (от 5 знаков)',
        password: 'Пароль не короче 8 символов',
      },
    });
    const good = accountBody(
      { ...EMPTY_ACCOUNT, name: ' Пётр ', email: 'Petr@Demo.local', phone: '+7 900 111-22-33', password: 'password-1', vehicle_number: 'В001ВВ 77', vehicle_capacity: '22,5' },
      { vehicle: true },
      null,
    );
    expect(good).toEqual({
      ok: true,
      body: { name: 'Пётр', email: 'petr@demo.local', phone: '+7 900 111-22-33', password: 'password-1', vehicle_number: 'В001ВВ 77', vehicle_brand: null, vehicle_capacity: 22.5 },
    });
  });

  it('refuses a 225 т truck (a lost comma) and a capacity without a number plate', () => {
    const base = { ...EMPTY_ACCOUNT, name: 'Пётр', email: 'p@demo.local', phone: '+7 900 111-22-33', password: 'password-1' };
    const heavy = accountBody({ ...base, vehicle_number: 'В001ВВ 77', vehicle_capacity: '225' }, { vehicle: true }, null);
    expect(heavy.ok ? null : heavy.errors.vehicle_capacity).toMatch(/проверьте запятую/);
    const plateless = accountBody({ ...base, vehicle_capacity: '20' }, { vehicle: true }, null);
    expect(plateless.ok ? null : plateless.errors.vehicle_number).toMatch(/госномер/);
  });

  it('an edit sends only what changed; an empty password keeps the old one; a vehicle edit carries its number', () => {
    const loaded = valuesOf(driver);
    expect(accountBody(loaded, { vehicle: true }, loaded)).toEqual({ ok: true, body: {} });
    expect(accountBody({ ...loaded, phone: '+7 912 000-00-00' }, { vehicle: true }, loaded)).toEqual({ ok: true, body: { phone: '+7 912 000-00-00' } });
    expect(accountBody({ ...loaded, vehicle_capacity: '15,5' }, { vehicle: true }, loaded)).toEqual({
      ok: true,
      body: { vehicle_capacity: 15.5, vehicle_number: 'А123ВС 77' },
    });
    expect(accountBody({ ...loaded, password: 'new-password-1' }, { vehicle: true }, loaded)).toEqual({ ok: true, body: { password: 'new-password-1' } });
  });

  it('a super-admin role drops the company; other roles need one', () => {
    const loaded = valuesOf({ ...driver, role: { name: 'manager' }, current_transport: null });
    const shape = { roles: ['driver', 'manager', 'admin', 'super-admin'] as const, company: true };
    expect(accountBody({ ...loaded, role: 'super-admin' }, shape, loaded)).toEqual({ ok: true, body: { role: 'super-admin', company_id: null } });
    const noCompany = accountBody({ ...loaded, company_id: '' }, shape, loaded);
    expect(noCompany.ok ? null : noCompany.errors.company_id).toBe('Выберите компанию');
  });

  it("puts the server's refusal under the field it names", () => {
    expect(accountServerError('company_id: компания не найдена')).toEqual({ field: 'company_id', message: 'компания не найдена' });
    expect(accountServerError('Пользователь с таким e-mail уже зарегистрирован').field).toBe('email');
    expect(accountServerError('Это последний активный суперадминистратор')).toEqual({ field: null, message: 'Это последний активный суперадминистратор' });
  });
});

describe('the drivers list', () => {
  const item = (id: number, name: string, extra: Partial<{ today: number; active: boolean; capacity: number | null; plate: string }> = {}) => ({
    ...driver,
    id,
    name,
    is_active: extra.active ?? true,
    today_task_count: extra.today ?? 0,
    has_history: false,
    current_transport: extra.plate ? { id, vehicle_number: extra.plate, vehicle_brand: 'МАЗ', vehicle_capacity: extra.capacity ?? null, is_current: true } : null,
  });
  const drivers = [item(1, 'Юрий', { today: 1 }), item(2, 'Алексей', { today: 3, plate: 'Е789КХ 750' }), item(3, 'Борис', { active: false })];

  it('searches name and number plate whatever the case, and filters by activity', () => {
    expect(filterDrivers(drivers, { ...DRIVER_DEFAULTS, search: 'е789кх' }).map((d) => d.id)).toEqual([2]);
    expect(filterDrivers(drivers, DRIVER_DEFAULTS).map((d) => d.id)).toEqual([2, 1]);
    expect(filterDrivers(drivers, { ...DRIVER_DEFAULTS, status: 'inactive' }).map((d) => d.id)).toEqual([3]);
    expect(filterDrivers(drivers, { ...DRIVER_DEFAULTS, status: 'all', sort: '-today' }).map((d) => d.id)).toEqual([2, 1, 3]);
  });

  it('a header click flips the same column and starts the busiest first for today', () => {
    expect(nextOrdering('name', 'name', ['today'])).toBe('-name');
    expect(nextOrdering('-name', 'name', ['today'])).toBe('name');
    expect(nextOrdering('name', 'today', ['today'])).toBe('-today');
  });

  it('ё and е are the same letter to a searcher', () => {
    expect(spellingsMatch('Пётр Семёнов', 'петр семенов')).toBe(true);
    expect(spellingsMatch('Пётр Семёнов', 'петр иванов')).toBe(false);
  });
});
