/** «Скачать xlsx»: a breakdown as a workbook, fetched through the engine (it holds the token) and saved. */
import { useState } from 'react';
import { showToast } from '../toasts.ts';
import { saveDownload } from '../download.ts';

/** `download`: the file, e.g. `() => downloadOnce('GET /wages/company/:id', { id, format: 'xlsx' })`; null: nothing to save. */
export function XlsxButton({
  download: fetchFile,
  disabled,
  title,
  label = 'Скачать xlsx',
}: {
  download: () => Promise<{ blob: Blob; filename: string } | null>;
  disabled?: boolean;
  title?: string | undefined;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);

  async function download(): Promise<void> {
    setBusy(true);
    try {
      const file = await fetchFile();
      if (file) saveDownload(file.blob, file.filename);
    } catch (error) {
      showToast('error', `Файл не скачан: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className="button" disabled={disabled || busy} title={title} aria-busy={busy || undefined} onClick={() => void download()}>
      {busy ? 'Готовим файл…' : label}
    </button>
  );
}
