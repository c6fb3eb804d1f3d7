/** Finds a stored photo for a caller allowed to see it: the owner driver or staff of the task's company. */
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import type { AuthUser } from '../auth/guard.ts';
import { notFound } from '../errors.ts';
import { assertSeesAssociation } from './load.ts';

export async function photoFor(ctx: AppContext, user: AuthUser, photoId: number) {
  const photo = await ctx.db.kysely
    .selectFrom('report_photos as p')
    .innerJoin('reports as r', 'r.id', 'p.report_id')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['p.id', 'p.storage_key', 'p.mime', 'td.driver_id', 't.company_id'])
    .where('p.id', '=', photoId)
    .executeTakeFirst();
  if (!photo) throw notFound('Фото не найдено');
  assertSeesAssociation(user, photo, 'Фото не найдено');
  // The size from disk, not the row: a file lost from storage is a 404, not a broken stream.
  const size = await ctx.storage.size(photo.storage_key);
  if (size === null) throw notFound('Файл фото не найден');
  return { ...photo, size };
}

/** Sends a stored image: never sniffed, never run as a page, cached privately, named when saved. */
export function sendImage(ctx: AppContext, reply: FastifyReply, file: { storage_key: string; mime: string; size: number; filename: string }) {
  return reply
    .type(file.mime)
    .header('content-length', file.size)
    .header('cache-control', 'private, max-age=86400, immutable')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('content-disposition', `inline; filename="${file.filename}"`)
    .send(ctx.storage.read(file.storage_key));
}
