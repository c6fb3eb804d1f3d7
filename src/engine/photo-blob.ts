/**
 * Report photos are served to authorised callers only, and the tab holds no token, so an <img src>
 * cannot fetch them: the engine downloads the bytes and the tab shows them through an object URL.
 */
import type { ReportPhoto } from '../../contract/entities.ts';
import { getEngine } from './engine.ts';
import { unwrap } from './queries.ts';

import { apiPathOf } from '../ui/format.ts';

export function photoBlobQuery(photo: Pick<ReportPhoto, 'id' | 'url'>) {
  return {
    queryKey: ['report-photo', photo.id] as const,
    queryFn: async (): Promise<Blob> => {
      const file = unwrap(await getEngine().download(apiPathOf(photo.url)));
      if (!file) throw new Error('Фото не найдено');
      return file.blob;
    },
    // A stored photo never changes; removing it gives the next one a new id.
    staleTime: Infinity,
    retry: false,
  };
}
