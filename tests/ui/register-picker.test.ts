import { describe, expect, it } from 'vitest';
import { pickerExtras } from '../../src/parts/registers/picker-extras.ts';

describe('the register picker’s list beyond the cards found', () => {
  const base = { text: 'ООО «Гранит»', searched: 'ООО «Гранит»', answered: true, options: [] as { name: string }[], canCreate: true };

  it('offers «Создать» only once the search for exactly the typed text has answered with no card of that name', () => {
    expect(pickerExtras(base)).toEqual({ creating: true, searching: false });
    // The search under way (nothing answered yet, or the answer is still the previous text's): «Ищем…», no «Создать».
    expect(pickerExtras({ ...base, answered: false })).toEqual({ creating: false, searching: true });
    expect(pickerExtras({ ...base, searched: 'ООО «Гран' })).toEqual({ creating: false, searching: true });
    // A card of that very name found (in any case, spaces around ignored): picked, never made twice.
    expect(pickerExtras({ ...base, text: '  ооо «гранит» ', searched: 'ооо «гранит»', options: [{ name: 'ООО «Гранит»' }] })).toEqual({ creating: false, searching: false });
    expect(pickerExtras({ ...base, options: [{ name: 'ООО «Гранит-М»' }] })).toEqual({ creating: true, searching: false });
  });

  it('offers nothing for an empty field, and no «Создать» where creating is not allowed', () => {
    expect(pickerExtras({ ...base, text: '   ', searched: '' })).toEqual({ creating: false, searching: false });
    expect(pickerExtras({ ...base, canCreate: false })).toEqual({ creating: false, searching: false });
  });
});
