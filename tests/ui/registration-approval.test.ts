import { describe, expect, it } from 'vitest';
import { canApprove } from '../../src/screens/registration-requests/approval.ts';

describe('who may approve a registration request', () => {
  it('a manager approves drivers only', () => {
    expect(canApprove('manager', 'driver')).toBe(true);
    expect(canApprove('manager', 'manager')).toBe(false);
    expect(canApprove('manager', 'admin')).toBe(false);
  });

  it('an admin and a super-admin approve every role', () => {
    for (const approver of ['admin', 'super-admin'] as const) {
      expect(canApprove(approver, 'driver')).toBe(true);
      expect(canApprove(approver, 'manager')).toBe(true);
    }
  });

  it('nobody else, and not before the user is known', () => {
    expect(canApprove('driver', 'driver')).toBe(false);
    expect(canApprove(null, 'driver')).toBe(false);
    expect(canApprove(undefined, 'driver')).toBe(false);
  });
});
