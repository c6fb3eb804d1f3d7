/** The newest toast always shows: the oldest open ones make room for it (src/ui/toasts.ts). */
import { describe, expect, it } from 'vitest';
import { makeRoom } from '../../src/ui/toasts.ts';

describe('makeRoom', () => {
  it('dismisses nothing while fewer than the limit are open', () => {
    const raised = [1, 2];
    expect(makeRoom(raised, () => true, 3)).toEqual([]);
    expect(raised).toEqual([1, 2]);
  });

  it('dismisses the oldest open one when the limit is reached, and keeps the rest in order', () => {
    const raised = [1, 2, 3];
    expect(makeRoom(raised, () => true, 3)).toEqual([1]);
    expect(raised).toEqual([2, 3]);
  });

  it('forgets the closed ones first: no open toast is dismissed for a closed one', () => {
    const raised = [1, 2, 3, 4];
    const open = new Set([2, 4]);
    expect(makeRoom(raised, (id) => open.has(id), 3)).toEqual([]);
    expect(raised).toEqual([2, 4]);
  });

  it('makes room for one after a burst: several oldest at once', () => {
    const raised = [1, 2, 3, 4, 5];
    expect(makeRoom(raised, () => true, 3)).toEqual([1, 2, 3]);
    expect(raised).toEqual([4, 5]);
  });
});
