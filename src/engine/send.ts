/** What a failed action tells the user, from the engine's answer. */
import { ApiError } from './queries.ts';

const NO_NETWORK = 'Нет подключения к сети';

/**
 * What a failed action tells the driver: the server's detail, or `offline` when the connection failed —
 * said as it is: «Сервер недоступен…» when the engine knows the server is down, «Нет связи с
 * сервером…» when the device is online but the request got no answer, «Нет подключения к сети…» without a network.
 */
export function failureMessage(error: unknown, offline = `${NO_NETWORK}. Попробуйте позже.`): string {
  if (error instanceof ApiError) {
    if (!error.network) return error.message;
    if (!offline.startsWith(NO_NETWORK)) return offline;
    if (error.unreachable) return `Сервер недоступен${offline.slice(NO_NETWORK.length)}`;
    if (typeof navigator !== 'undefined' && navigator.onLine) return `Нет связи с сервером${offline.slice(NO_NETWORK.length)}`;
    return offline;
  }
  return error instanceof Error && error.message ? error.message : 'Что-то пошло не так.';
}
