/**
 * Saves a corrected report in place (PUT /reports/{id}), never by deleting and re-creating it: a report that
 * is deleted before its replacement arrives can be lost, and its association would flip back to current.
 * Photos marked for removal go first, one DELETE each, so the server's per-report photo cap counts them
 * gone; then one multipart PUT carries the changed fields and the added photos.
 */
import type { FormFields } from '../../engine/types.ts';
import { sendFormOnce, sendOnce } from '../../engine/api.ts';

export interface ReportEdit {
  reportId: number;
  fields: FormFields;
  addedPhotos: Blob[];
  removedPhotoIds: number[];
}

export function hasChanges(edit: ReportEdit): boolean {
  return Object.keys(edit.fields).length > 0 || edit.addedPhotos.length > 0 || edit.removedPhotoIds.length > 0;
}

/**
 * `alreadyRemoved` remembers the photos deleted by an earlier try whose PUT failed, so a retry does not
 * ask for them again (the server would answer 404). Throws an ApiError on the first failure.
 */
export async function saveReportEdit(edit: ReportEdit, alreadyRemoved: Set<number>): Promise<void> {
  for (const photoId of edit.removedPhotoIds) {
    if (alreadyRemoved.has(photoId)) continue;
    await sendOnce('DELETE /reports/:id/photo', { params: { id: edit.reportId }, query: { photo_id: photoId } });
    alreadyRemoved.add(photoId);
  }
  if (Object.keys(edit.fields).length === 0 && edit.addedPhotos.length === 0) return;
  await sendFormOnce('PUT /reports/:id', { params: { id: edit.reportId }, fields: edit.fields, files: edit.addedPhotos });
}
