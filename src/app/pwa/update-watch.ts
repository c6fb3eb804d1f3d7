/**
 * Noticing a new version and switching to it, on plain structural types so it runs against doubles.
 * A version is "ready" when a new service worker waits, or when another tab already let it take over
 * this page (this tab still runs the old code, whose lazy chunks the new precache no longer holds).
 */

export interface WorkerLike {
  state: string;
  postMessage(message: unknown): void;
  addEventListener(type: 'statechange', listener: () => void): void;
}

export interface RegistrationLike {
  active: unknown;
  waiting: WorkerLike | null;
  installing: WorkerLike | null;
  addEventListener(type: 'updatefound', listener: () => void): void;
}

export interface ContainerLike {
  controller: unknown;
  addEventListener(type: 'controllerchange', listener: () => void): void;
}

export function watchForUpdate(registration: RegistrationLike, container: ContainerLike, onReady: () => void): void {
  // On a first install the worker passes through 'installed' with nothing active: that is no update.
  const check = () => {
    if (registration.waiting && registration.active) onReady();
  };
  // Likewise a page with no controller is on its first install: the worker that claims it is no update.
  let controlled = container.controller !== null;
  check();
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') check();
    });
  });
  container.addEventListener('controllerchange', () => {
    if (controlled) onReady();
    controlled = true;
  });
}

/** Lets the waiting worker take over and reloads once it controls the page; reloads at once if none waits. */
export function applyUpdate(registration: RegistrationLike | null, container: ContainerLike, reload: () => void): void {
  const waiting = registration?.waiting;
  if (!waiting) {
    reload();
    return;
  }
  let reloaded = false;
  container.addEventListener('controllerchange', () => {
    if (reloaded) return;
    reloaded = true;
    reload();
  });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}
