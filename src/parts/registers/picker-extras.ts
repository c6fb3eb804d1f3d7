/** The register picker's list beyond the cards found (RegisterPicker.tsx). */

/**
 * What the list offers besides the cards found: «Создать «…»» once the search for exactly what is typed has answered
 * and found no card of that name — never while it is under way, when a card of that very name may be on its way
 * (a click or Enter then made a second card of it) —, and «Ищем…» meanwhile. Pure.
 */
export function pickerExtras(input: { text: string; searched: string; answered: boolean; options: readonly { name: string }[]; canCreate: boolean }): { creating: boolean; searching: boolean } {
  const typed = input.text.trim();
  if (typed === '') return { creating: false, searching: false };
  const searching = !input.answered || input.searched !== typed;
  const named = input.options.some((o) => o.name.toLowerCase() === typed.toLowerCase());
  return { creating: input.canCreate && !searching && !named, searching };
}
