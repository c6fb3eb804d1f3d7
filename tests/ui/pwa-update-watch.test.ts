import { describe, expect, it, vi } from 'vitest';
import { applyUpdate, watchForUpdate, type ContainerLike, type RegistrationLike, type WorkerLike } from '../../src/app/pwa/update-watch.ts';

class FakeWorker extends EventTarget implements WorkerLike {
  state = 'installing';
  readonly messages: unknown[] = [];
  postMessage(message: unknown): void {
    this.messages.push(message);
  }
  moveTo(state: string): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget implements RegistrationLike {
  active: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  installing: FakeWorker | null = null;

  /** The browser's install steps, as far as a page can see them. */
  install(worker: FakeWorker): void {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    this.installing = null;
    this.waiting = worker;
    worker.moveTo('installed');
    if (!this.active) this.activate();
  }

  activate(): void {
    const worker = this.waiting;
    this.waiting = null;
    this.active = worker;
    worker?.moveTo('activated');
  }
}

class FakeContainer extends EventTarget implements ContainerLike {
  controller: unknown;
  constructor(controller: unknown) {
    super();
    this.controller = controller;
  }
  claimBy(worker: unknown): void {
    this.controller = worker;
    this.dispatchEvent(new Event('controllerchange'));
  }
}

describe('watchForUpdate', () => {
  it('stays quiet on the first install, even when the new worker claims the page', () => {
    const registration = new FakeRegistration();
    const container = new FakeContainer(null);
    const onReady = vi.fn();
    watchForUpdate(registration, container, onReady);

    const first = new FakeWorker();
    registration.install(first);
    container.claimBy(first);

    expect(onReady).not.toHaveBeenCalled();
  });

  it('reports a new version once it waits', () => {
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    const container = new FakeContainer(registration.active);
    const onReady = vi.fn();
    watchForUpdate(registration, container, onReady);
    expect(onReady).not.toHaveBeenCalled();

    registration.install(new FakeWorker());

    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('reports a version that was already waiting when the page loaded', () => {
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    registration.waiting = new FakeWorker();
    const onReady = vi.fn();
    watchForUpdate(registration, new FakeContainer(registration.active), onReady);
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('reports a version that another tab let take over this page', () => {
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    const container = new FakeContainer(registration.active);
    const onReady = vi.fn();
    watchForUpdate(registration, container, onReady);

    container.claimBy(new FakeWorker());

    expect(onReady).toHaveBeenCalledTimes(1);
  });
});

describe('applyUpdate', () => {
  it('asks the waiting worker to skip waiting and reloads once it controls the page', () => {
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    const next = new FakeWorker();
    registration.waiting = next;
    const container = new FakeContainer(registration.active);
    const reload = vi.fn();

    applyUpdate(registration, container, reload);
    expect(next.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(reload).not.toHaveBeenCalled();

    container.claimBy(next);
    container.claimBy(next);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads at once when nothing waits any more (another tab already switched)', () => {
    const reload = vi.fn();
    applyUpdate(new FakeRegistration(), new FakeContainer({}), reload);
    expect(reload).toHaveBeenCalledTimes(1);
    applyUpdate(null, new FakeContainer({}), reload);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
