/**
 * PLACEHOLDER (owned by the PWA engineer, replaced at merge): will show 'Доступна новая версия' with a
 * reload button when a new service worker waits.
 */
export function UpdatePrompt() {
  return null;
}
