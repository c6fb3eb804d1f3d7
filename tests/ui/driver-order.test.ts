import { describe, expect, it } from 'vitest';
import { moveItem, sameOrder } from '../../src/screens/driver-order/order.ts';

describe('reordering a day', () => {
  it('moves one item and keeps the rest in order', () => {
    expect(moveItem([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveItem([1, 2, 3], 1, 1)).toEqual([1, 2, 3]);
    expect(moveItem([1, 2, 3], 0, 5)).toEqual([1, 2, 3]);
  });

  it('tells an unchanged order from a changed one', () => {
    expect(sameOrder([1, 2], [1, 2])).toBe(true);
    expect(sameOrder([2, 1], [1, 2])).toBe(false);
    expect(sameOrder([1], [1, 2])).toBe(false);
  });
});
