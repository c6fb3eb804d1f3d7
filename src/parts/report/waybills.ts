/**
 * The paper waybills of many trips in one PDF (issue 33 §1; docs/pdf.md «The batch»): a task's trips, or a day's
 * trips of the company. Fetched through the engine (it holds the token) and saved; a refusal (no trip yet) is told.
 */
import { downloadOnce } from '../../engine/once.ts';
import { failureMessage } from '../../engine/send.ts';
import { saveDownload } from '../../ui/download.ts';
import { showToast } from '../../ui/toasts.ts';

async function save(fetchFile: () => Promise<{ blob: Blob; filename: string } | null>): Promise<void> {
  try {
    const file = await fetchFile();
    if (file) saveDownload(file.blob, file.filename);
  } catch (error) {
    showToast('error', failureMessage(error));
  }
}

/** Every trip's waybill of the task. */
export const saveTaskWaybills = (taskId: number): Promise<void> => save(() => downloadOnce('GET /tasks/:id/waybills.pdf', { id: taskId }));

/** Every trip's waybill of the company's tasks of `date` (YYYY-MM-DD). */
export const saveDayWaybills = (date: string, companyId?: number): Promise<void> =>
  save(() => downloadOnce('GET /reports/waybills.pdf', { date, ...(companyId !== undefined ? { company_id: companyId } : {}) }));
