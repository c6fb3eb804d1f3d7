/**
 * The declared calls once, outside React (an event handler, the shell's push subscription): typed from the route
 * table like the hooks in api.ts, without React Query — so the first chunk can call the server without it.
 */
import type { CachedResult, FormFields, Params, Result } from '../../worker/api.ts';
// Types only: the table's zod schemas stay out of the UI's bundles; a key carries its method and path.
import type { CallAnswer, CallBody, CallKey, CallParams, CallQuery, GetKey, SendKey } from '../../contract/calls/index.ts';
import { fillPath, type WriteMethod } from '../../contract/call.ts';
import { getEngine } from './engine.ts';
import { unwrap } from './queries.ts';

type NoParams = Record<string, never>;
type HasKeys<T> = keyof T extends never ? false : true;

/** What a GET takes: its path parameters and its query in one object (both optional when it has none). */
export type GetInput<K extends GetKey> = CallParams<K> & Partial<CallQuery<K>>;
export type GetArgs<K extends GetKey> = HasKeys<CallParams<K>> extends true ? [input: GetInput<K>] : [input?: Partial<CallQuery<K>>];

/** What a write takes: `params` for the path, `body` and `query` where the call has them. */
export type SendInput<K extends SendKey> = (HasKeys<CallParams<K>> extends true ? { params: CallParams<K> } : { params?: NoParams }) &
  (CallBody<K> extends undefined ? { body?: undefined } : { body: CallBody<K> }) & { query?: Params };

/** 'PUT /companies/:id' → its method and path. */
export function callOf(key: CallKey): { method: string; path: string } {
  const [method = 'GET', path = '/'] = key.split(' ');
  return { method, path };
}

export function splitInput(key: CallKey, input: Record<string, unknown> | undefined): { path: string; query: Params | undefined } {
  const call = callOf(key);
  const names = new Set([...call.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]));
  const path = fillPath(call.path, input);
  const rest = Object.entries(input ?? {})
    .filter(([name, value]) => !names.has(name) && value !== undefined && value !== '')
    // A list travels comma-separated, as the server's schema reads it: ids=1,2,3.
    .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]);
  return { path, query: rest.length > 0 ? (Object.fromEntries(rest) as Params) : undefined };
}

/** A declared GET through the engine's cache, once (outside React, or in an event handler). */
export async function getOnce<K extends GetKey>(key: K, ...[input]: GetArgs<K>): Promise<CachedResult<CallAnswer<K>>> {
  const { path, query } = splitInput(key, input);
  // Comlink's Remote drops method generics; the route table says what this path answers.
  return unwrap((await getEngine().get(path, query)) as Result<CachedResult<CallAnswer<K>>>);
}

/** A file a declared GET answers (an xlsx attachment) through the engine, which holds the token: its bytes and name, or null for a 204. */
export async function downloadOnce<K extends GetKey>(key: K, ...[input]: GetArgs<K>): Promise<{ blob: Blob; filename: string } | null> {
  const { path, query } = splitInput(key, input);
  return unwrap(await getEngine().download(path, query));
}

/** A declared write through the engine, once; the answer, or an ApiError with the message the user reads. */
export async function sendOnce<K extends SendKey>(key: K, input: SendInput<K>): Promise<CallAnswer<K>> {
  const call = callOf(key);
  const path = fillPath(call.path, input.params);
  const result = await getEngine().send(call.method as WriteMethod, path, input.body, input.query);
  return unwrap(result as Result<CallAnswer<K>>);
}

/** A declared call whose body is a multipart form (a report's edit with photos): its text fields and files. */
export interface FormInput<K extends SendKey> {
  params: CallParams<K>;
  fields: FormFields;
  files: Blob[];
  /** The files' form field: `photos` unless said; `file` (a document) is sent as it is, any other compressed as photos. */
  fileField?: string;
}

/**
 * A declared multipart write through the engine, once (the engine compresses the photos); the answer, or an
 * ApiError. The caller refetches what it made stale (`invalidateAfter`).
 */
export async function sendFormOnce<K extends SendKey>(key: K, input: FormInput<K>): Promise<CallAnswer<K>> {
  const call = callOf(key);
  if (call.method !== 'POST' && call.method !== 'PUT') throw new Error(`${key}: a form is posted or put`);
  const result = await getEngine().sendForm(call.method, fillPath(call.path, input.params), input.fields, input.files, input.fileField);
  return unwrap(result as Result<CallAnswer<K>>);
}
