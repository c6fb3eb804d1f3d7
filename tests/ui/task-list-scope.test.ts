import { describe, expect, it } from 'vitest';
import { exportFilters, LIST_DEFAULTS, listParams, scopeText } from '../../src/screens/tasks-manage/task-list.ts';

describe('the task list narrowed to a register card («Задачи (N)»)', () => {
  it('asks for the card by id, names it, and exports the same filter', () => {
    const state = { ...LIST_DEFAULTS, status: 'all', counterparty: '12', of: 'ООО «Гранит»' };
    expect(listParams(state)).toMatchObject({ counterparty_id: 12 });
    expect(listParams(state)).not.toHaveProperty('search');
    expect(scopeText(state)).toBe('Задачи контрагента «ООО «Гранит»»');
    expect(exportFilters(listParams(state))).toMatchObject({ counterparty_id: 12 });
    const place = { ...LIST_DEFAULTS, place: '7' };
    expect(listParams(place)).toMatchObject({ place_id: 7 });
    expect(scopeText(place)).toBe('Задачи места №7');
  });

  it('ignores an id the URL garbled, and says nothing when not narrowed', () => {
    const garbled = { ...LIST_DEFAULTS, counterparty: '12abc', of: 'x' };
    expect(listParams(garbled)).not.toHaveProperty('counterparty_id');
    expect(scopeText(garbled)).toBeNull();
    expect(scopeText(LIST_DEFAULTS)).toBeNull();
  });
});
