/** «Скачать xlsx»: a breakdown as a workbook, fetched through the engine (it holds the token) and saved. */
import { useState } from 'react';
import { toast } from 'react-toastify';
import type { Params, Result } from '../../../worker/api.ts';
import { getEngine } from '../../engine/engine.ts';
import { unwrap } from '../../engine/queries.ts';
import { saveDownload } from '../download.ts';

export function XlsxButton({ path, params, disabled, title, label = 'Скачать xlsx' }: { path: string; params: Params; disabled?: boolean; title?: string | undefined; label?: string }) {
  const [busy, setBusy] = useState(false);

  async function download(): Promise<void> {
    setBusy(true);
    try {
      const file = unwrap((await getEngine().download(path, { ...params, format: 'xlsx' })) as Result<{ blob: Blob; filename: string } | null>);
      if (file) saveDownload(file.blob, file.filename);
    } catch (error) {
      toast.error(`Файл не скачан: ${(error as Error).message}`);
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
