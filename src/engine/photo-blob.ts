/**
 * Report photos and the receiver's signature are served to authorised callers only, and the tab holds no token, so
 * an <img src> cannot fetch them: the engine downloads the bytes and the tab shows them through an object URL.
 */
import type { ReportPhoto } from '../../contract/entities.ts';
import { getEngine } from './engine.ts';
import { unwrap } from './queries.ts';

import { apiPathOf } from '../ui/format.ts';

/** A stored image's bytes by its URL; `missing` is the error when the server has none. */
function imageBlobQuery(queryKey: readonly unknown[], url: string, missing: string) {
  return {
    queryKey,
    queryFn: async (): Promise<Blob> => {
      const file = unwrap(await getEngine().download(apiPathOf(url)));
      if (!file) throw new Error(missing);
      return file.blob;
    },
    // A stored image never changes; removing it gives the next one a new id.
    staleTime: Infinity,
    retry: false,
  };
}

export function photoBlobQuery(photo: Pick<ReportPhoto, 'id' | 'url'>) {
  return imageBlobQuery(['report-photo', photo.id] as const, photo.url, 'Фото не найдено');
}

/** The receiver's signature (`acceptance.signature_url`, docs/trips.md). */
export function signatureBlobQuery(url: string) {
  return imageBlobQuery(['trip-signature', url] as const, url, 'Подпись не найдена');
}
