import { describe, expect, it } from 'vitest';
import { checkRegistration, emptyRegistrationForm, sentMessage } from '../../src/screens/register/registration-form.ts';

const driver = { ...emptyRegistrationForm, email: 'new@test.local', password: 'long-password-1', name: 'Пётр', phone: '+7 900 000-00-00', company_id: '1', role: 'driver' as const };

describe('registration form: the vehicle capacity', () => {
  it('reads «22,5» and «22.5» as 22.5 t', () => {
    for (const typed of ['22,5', '22.5']) {
      const result = checkRegistration({ ...driver, vehicle_capacity: typed });
      expect(result.ok && result.payload.vehicle_capacity).toBe(22.5);
    }
  });

  it('refuses 225 t with a Russian message that hints at the comma', () => {
    const result = checkRegistration({ ...driver, vehicle_capacity: '225' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.vehicle_capacity).toMatch(/не больше 60 т/);
  });
});

describe('sentMessage: the applicant is told who will confirm', () => {
  it('names the company’s staff who may approve the role, or the system administrator where the company has none', () => {
    expect(sentMessage('company', 'driver')).toContain('менеджером или администратором компании');
    expect(sentMessage('company', 'manager')).toContain('администратором компании');
    expect(sentMessage('company', 'manager')).not.toContain('менеджером');
    expect(sentMessage('super-admin', 'driver')).toContain('администратор системы');
  });
});
