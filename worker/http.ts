/**
 * The engine's HTTP client (docs/product.md §7): axios with base /api/, a 10 s time-out and the
 * bearer token read from IndexedDB for every request (another tab's engine may have rotated it). A 401
 * starts one shared refresh (the caller's `refreshAccess` is single-flight) and the request is repeated
 * once. Failures leave this file as `ApiFailure` values, never as thrown errors.
 *
 * axios itself loads on the first request (a dynamic import: its own chunk), not with the engine: a cold
 * /login sends nothing until the user signs in, and the engine starts with every tab.
 */
import type { AxiosAdapter, AxiosError, AxiosInstance, AxiosProgressEvent, AxiosRequestConfig, AxiosResponse } from 'axios';
import type { ApiFailure, Params, Result } from './api.ts';
import { SERVER_UNREACHABLE, serverUnreachable } from './unreachable.ts';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The refresh and logout calls: their 401 must never start a refresh. */
    skipAuthRefresh?: boolean;
    /** Set on the one repeat after a refresh, so a second 401 is final. */
    authRetried?: boolean;
    /** Public calls (login, register, refresh): no bearer header, a stale token must not travel. */
    withoutToken?: boolean;
    /** The access token this request was sent with (the refresh compares it with the stored one). */
    sentWithToken?: string | null;
  }
}

export const API_TIMEOUT_MS = 10_000;

/** axios.isAxiosError without loading axios: its errors carry the flag. */
export function isAxiosError(error: unknown): error is AxiosError {
  return error !== null && typeof error === 'object' && (error as { isAxiosError?: unknown }).isAxiosError === true;
}

/** docs/product.md §8: the one test of what counts as a network error. */
export function isNetworkError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return true;
  const e = error as { response?: unknown; code?: unknown; message?: unknown };
  if (!e.response) return true;
  if (e.code === 'ERR_NETWORK' || e.code === 'ECONNABORTED') return true;
  const message = typeof e.message === 'string' ? e.message.toLowerCase() : '';
  return message.includes('network error') || message.includes('timeout') || message.includes('failed to fetch');
}

/** The server's `{"detail": "..."}`, when it sent one. */
export function detailOf(error: unknown): string | null {
  if (!isAxiosError(error)) return null;
  const data: unknown = error.response?.data;
  if (data && typeof data === 'object' && 'detail' in data) {
    const detail = (data as { detail: unknown }).detail;
    if (typeof detail === 'string' && detail.trim() !== '') return detail;
  }
  return null;
}

export function statusOf(error: unknown): number | null {
  return isAxiosError(error) ? (error.response?.status ?? null) : null;
}

/** An error as the UI sees it: the server's detail, else `fallback`. */
export function toFailure(error: unknown, fallback: string): ApiFailure {
  const detail = detailOf(error);
  const status = statusOf(error);
  const network = isNetworkError(error);
  const unreachable = !network && serverUnreachable(status, detail !== null);
  // The message stays the catalogue's fallback (docs/product.md §8 names them); the flag tells the outbox.
  return { ok: false, message: detail ?? fallback, status, network, ...(unreachable ? { unreachable } : {}) };
}

/** The fallback for calls the catalogue does not name (Russian: the user reads it). */
export function genericFallback(error: unknown): string {
  if (isNetworkError(error)) return 'Нет связи с сервером';
  const status = statusOf(error);
  if (serverUnreachable(status, detailOf(error) !== null)) return SERVER_UNREACHABLE;
  return status ? `Ошибка сервера (код ${status})` : 'Ошибка запроса';
}

export function failure(message: string, network = false, status: number | null = null): ApiFailure {
  return { ok: false, message, status, network };
}

/** Paths from the UI are relative to /api/; a leading '//' must never become another host. */
export function apiPath(path: string): string {
  return path.replace(/^\/+/, '');
}

export interface HttpDeps {
  /** Absolute '/api/' URL of the worker's origin. */
  baseURL: string;
  /** Tests pass an adapter double; the browser uses axios' own (XHR in workers: upload progress works). */
  adapter?: AxiosAdapter;
  /** The stored access token (IndexedDB). */
  accessToken(): Promise<string | null>;
  /** Single-flight refresh: the new access token, or null when the refresh failed. */
  refreshAccess(failedToken: string | null): Promise<string | null>;
}

export interface UploadOptions {
  headers?: Record<string, string>;
  /** 0..1 as the body goes up. */
  onProgress?: (fraction: number) => void;
}

export interface Http {
  /** A call as axios answers it: the response, or a thrown axios error (the refresh wants the raw outcome). */
  raw<T>(config: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  /** Any call; a failure carries the server's detail or `fallback` (default: a Russian generic text). */
  request<T>(config: AxiosRequestConfig, fallback?: string): Promise<Result<T>>;
  getJson<T>(path: string, params?: Params): Promise<Result<T>>;
  /** Multipart POST or PUT (reports) with upload progress, through the same auth and retry rules. */
  sendForm<T>(method: 'POST' | 'PUT', path: string, form: FormData, options?: UploadOptions): Promise<Result<T>>;
  download(path: string, today: Date, params?: Params): Promise<Result<{ blob: Blob; filename: string } | null>>;
}

export function createHttp(deps: HttpDeps): Http {
  let loading: Promise<AxiosInstance> | null = null;

  function client(): Promise<AxiosInstance> {
    loading ??= import('axios').then(
      ({ default: axios }) =>
        configure(
          axios.create({
            baseURL: deps.baseURL,
            timeout: API_TIMEOUT_MS,
            allowAbsoluteUrls: false,
            ...(deps.adapter ? { adapter: deps.adapter } : {}),
          }),
        ),
      (error: unknown) => {
        // Not remembered (offline before the chunk was cached, say): the next call tries again.
        loading = null;
        throw error;
      },
    );
    return loading;
  }

  function configure(instance: AxiosInstance): AxiosInstance {
    instance.interceptors.request.use(async (config) => {
      const token = config.withoutToken ? null : await deps.accessToken();
      config.sentWithToken = token;
      if (token) config.headers.set('Authorization', `Bearer ${token}`);
      else config.headers.delete('Authorization');
      return config;
    });

    instance.interceptors.response.use(undefined, async (error: unknown) => {
      if (!isAxiosError(error) || !error.config) throw error;
      const config = error.config;
      if (error.response?.status !== 401 || config.skipAuthRefresh || config.authRetried) throw error;
      const fresh = await deps.refreshAccess(config.sentWithToken ?? null);
      if (!fresh) throw error;
      config.authRetried = true;
      return instance.request(config);
    });
    return instance;
  }

  async function raw<T>(config: AxiosRequestConfig): Promise<AxiosResponse<T>> {
    return (await client()).request<T>(config);
  }

  async function request<T>(config: AxiosRequestConfig, fallback?: string): Promise<Result<T>> {
    try {
      const response = await raw<T>({ ...config, url: apiPath(config.url ?? '') });
      return { ok: true, data: response.data };
    } catch (error) {
      return toFailure(error, fallback ?? genericFallback(error));
    }
  }

  return {
    raw,
    request,
    getJson: (path, params) => request({ method: 'GET', url: path, params }),
    sendForm: (method, path, form, options = {}) =>
      request({
        method,
        url: path,
        data: form,
        headers: options.headers,
        onUploadProgress: (event: AxiosProgressEvent) => {
          if (options.onProgress && event.total) options.onProgress(Math.min(1, event.loaded / event.total));
        },
      }),
    async download(path, today, params) {
      try {
        const response = await raw<Blob>({ method: 'GET', url: apiPath(path), params, responseType: 'blob' });
        if (response.status === 204) return { ok: true, data: null };
        const disposition = response.headers['content-disposition'];
        const filename = filenameFrom(typeof disposition === 'string' ? disposition : null) ?? datedXlsxName(today);
        return { ok: true, data: { blob: response.data, filename } };
      } catch (error) {
        return toFailure(error, genericFallback(error));
      }
    },
  };
}

/** The file name of a content-disposition header (RFC 6266: filename* wins over filename). */
export function filenameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape: fall through to the plain filename.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(disposition);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name ? name : null;
}

/** docs/product.md §7: without a content-disposition name, a dated xlsx name. */
export function datedXlsxName(today: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `completed-tasks-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}.xlsx`;
}
