/** A driver's card with the fleet (issue 31): the vehicle picked from the fleet and the licence, sent only when changed. */
import { describe, expect, it } from 'vitest';
import { accountBody, accountServerError, EMPTY_ACCOUNT } from '../../src/parts/accounts/account-form.ts';

const driver = { ...EMPTY_ACCOUNT, name: 'Иван', email: 'ivan@example.ru', phone: '+7 900 123-45-67', password: '' };

describe('driver card with the fleet', () => {
  it('an edit sends the chosen vehicle and the licence, and nothing else', () => {
    const edited = accountBody({ ...driver, vehicle_id: '12', license_number: '77 12 345678', license_issued: '2020-05-14' }, { fleet: true }, driver);
    expect(edited).toEqual({ ok: true, body: { vehicle_id: 12, license_number: '77 12 345678', license_issued: '2020-05-14' } });
  });

  it('taking the vehicle away sends null', () => {
    const loaded = { ...driver, vehicle_id: '12' };
    expect(accountBody({ ...loaded, vehicle_id: '' }, { fleet: true }, loaded)).toEqual({ ok: true, body: { vehicle_id: null } });
  });

  it('the server refusals stand under the licence and the vehicle', () => {
    expect(accountServerError('Водительское удостоверение: ожидается серия и номер, например 77 12 345678')).toEqual({
      field: 'license_number',
      message: 'ожидается серия и номер, например 77 12 345678',
    });
    expect(accountServerError('Машина: не найдена в парке компании').field).toBe('vehicle_id');
  });
});
