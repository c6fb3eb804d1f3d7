/**
 * The `HttpApi` the tabs call: cached GETs, downloads, and writes. A write without a network, or in offline mode
 * when a quick ask finds the server still down, fails at once with a message that says which, rather than waiting
 * out the 10 s time-out; one that met a dead connection while online makes the session check the server; one that
 * succeeded goes into the write log, so every tab refetches what it touched.
 */
import type { ApiFailure, FormFields, HttpApi, Result } from './api.ts';
import type { AuthState } from './auth-store.ts';
import type { GetCache } from './cache.ts';
import type { Http } from './http.ts';
import type { Clock, NetworkStatus } from './ports.ts';
import type { Recovery } from './recovery.ts';
import { buildFieldsForm } from './report-form.ts';
import type { Snapshots } from './snapshots.ts';

/** In offline mode a write first asks the server (it may be back); beyond this it fails at once instead. */
const WRITE_WAKE_MS = 1_500;
export const NO_NETWORK_WRITE = 'Нет подключения к сети: действие не выполнено.';
export const SERVER_DOWN_WRITE = 'Сервер недоступен: действие не выполнено. Повторите, когда связь с сервером восстановится.';

export interface HttpApiDeps {
  clock: Clock;
  network: NetworkStatus;
  state: AuthState;
  http: Http;
  cache: Pick<GetCache, 'get'>;
  /** The session's check after a write met a dead connection (worker/session.ts). */
  afterNetworkFailure<T>(result: Result<T>): Result<T>;
  recovery: Pick<Recovery, 'wake'>;
  /** The outbox's photo compression: sendForm's files are compressed as queued photos are. */
  compress(photo: Blob): Promise<Blob>;
  snapshots: Pick<Snapshots, 'write'>;
}

export function createHttpApi(deps: HttpApiDeps): HttpApi {
  const { clock, network, state, http } = deps;

  /**
   * Before a write: without a network, or with the server known to be unreachable (offline mode), it fails at
   * once with a message that says which. In offline mode it first asks the server for a moment: if it is back,
   * offline mode ends and the write goes.
   */
  async function refusedBeforeWrite(): Promise<ApiFailure | null> {
    if (!network.online()) return { ok: false, message: NO_NETWORK_WRITE, status: null, network: true };
    const { offlineMode, isAuthenticated, user } = state.get();
    // Offline mode for a signed-in session is what the recovery probes; anything else goes to the wire as before.
    if (!offlineMode || (!isAuthenticated && user === null)) return null;
    let timer: unknown = null;
    const back = await Promise.race([
      deps.recovery.wake(),
      new Promise<boolean>((resolve) => (timer = clock.setTimeout(() => resolve(false), WRITE_WAKE_MS))),
    ]);
    clock.clearTimeout(timer);
    return back ? null : { ok: false, message: SERVER_DOWN_WRITE, status: null, network: true, unreachable: true };
  }

  async function write<T>(method: string, path: string, run: () => Promise<Result<T>>): Promise<Result<T>> {
    const refused = await refusedBeforeWrite();
    if (refused) return refused;
    const result = deps.afterNetworkFailure(await run());
    if (result.ok) deps.snapshots.write(path, method);
    return result;
  }

  async function sendForm<T>(method: 'POST' | 'PUT', path: string, fields: FormFields, files: Blob[], fileField = 'photos') {
    const compressed: Blob[] = [];
    // One at a time, as the outbox does: a decoded 12 MP photo is ~48 MB. A document (the `file` field: a received
    // title's XML) goes as it is.
    for (const file of files) compressed.push(fileField === 'file' ? file : await deps.compress(file));
    return write(method, path, () => http.sendForm<T>(method, path, buildFieldsForm(fields, compressed, fileField)));
  }

  return {
    get: (path, params) => deps.cache.get(path, params),
    send: (method, path, body, params) => write(method, path, () => http.request({ method, url: path, data: body, params })),
    sendForm,
    download: (path, params) => http.download(path, new Date(clock.now()), params),
  };
}
