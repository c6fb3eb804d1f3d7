/** PLACEHOLDER (owned by the PWA engineer, replaced at merge): will register the service worker. */
export function registerServiceWorker(): void {
  // Intentionally empty until the PWA branch lands.
}
