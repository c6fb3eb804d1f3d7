/** Client-side search as users expect it: case and ё/е do not matter, every word must appear somewhere. */
function fold(text: string): string {
  return text.toLocaleLowerCase('ru').replace(/ё/g, 'е');
}

export function spellingsMatch(haystack: string, query: string): boolean {
  const hay = fold(haystack);
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.includes(word));
}
