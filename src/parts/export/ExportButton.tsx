/**
 * «Выгрузить в Excel» for the task list's filters: starts an export job, shows its progress,
 * keeps the job id across reloads, downloads the file when it is ready, and opens it in /table.
 */
import { useEffect, useRef, useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import type { ExportRequest } from '../../../contract/exports.ts';
import { downloadOnce, sendOnce, useGet } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { saveDownload } from '../../ui/download.ts';
import './export.css';

const JOB_KEY = 'reis-export-job';

function storedJob(): number | null {
  const id = Number(localStorage.getItem(JOB_KEY));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function ExportButton({ filters }: { filters: ExportRequest }) {
  const [jobId, setJobId] = useState<number | null>(storedJob);
  const [starting, setStarting] = useState(false);
  const server = useNeedsServer();
  const watched = useRef<number | null>(null);
  // No job: not asked (the id is then never read).
  const job = useGet(jobId ? 'GET /tasks/completed/export/:id' : null, { id: jobId ?? 0 }, {
    refetchInterval: (query) => (query.state.data?.data.status === 'done' || query.state.data?.data.status === 'failed' ? false : 1000),
  });
  const current = job.data?.data;

  function forget(): void {
    localStorage.removeItem(JOB_KEY);
    setJobId(null);
  }

  async function start(): Promise<void> {
    setStarting(true);
    try {
      const created = await sendOnce('POST /tasks/completed/export', { body: filters });
      localStorage.setItem(JOB_KEY, String(created.id));
      // Started here: it downloads by itself once done, even if it is done before the first poll answers.
      watched.current = created.id;
      setJobId(created.id);
    } catch (error) {
      showToast('error', `Выгрузка не запущена: ${(error as Error).message}`);
    } finally {
      setStarting(false);
    }
  }

  async function download(id: number): Promise<void> {
    try {
      const file = await downloadOnce('GET /tasks/completed/export/:id/download', { id });
      if (!file) {
        showToast('info', 'Файл ещё не готов');
        return;
      }
      saveDownload(file.blob, file.filename);
    } catch (error) {
      showToast('error', `Файл не скачан: ${(error as Error).message}`);
    }
  }

  async function openTable(id: number): Promise<void> {
    // The tab opens first (a popup must come from the click), then learns its address.
    const tab = window.open('', '_blank');
    try {
      const link = await sendOnce('POST /tasks/completed/export/:id/table-link', { params: { id } });
      if (tab) tab.location.href = link.url;
      else window.location.assign(link.url);
    } catch (error) {
      tab?.close();
      showToast('error', `Таблица не открыта: ${(error as Error).message}`);
    }
  }

  // A job this tab watched while it ran downloads once by itself when it is done (not a done job found on reload).
  const status = current?.status;
  const currentId = current?.id;
  useEffect(() => {
    if (currentId === undefined) return;
    if (status === 'queued' || status === 'running') watched.current = currentId;
    else if (status === 'done' && watched.current === currentId) {
      watched.current = null;
      void download(currentId);
    }
  }, [status, currentId]);

  const busy = current && (current.status === 'queued' || current.status === 'running');
  const share = current?.rows_total ? Math.min(1, current.rows_written / current.rows_total) : 0;

  return (
    <div className="export" aria-live="polite">
      {!busy && (
        <button type="button" className="button" disabled={starting || server.offline} title={server.reason ?? 'Все задачи по текущему фильтру, по строке на водителя'} onClick={() => void start()}>
          {starting ? 'Запускаем…' : 'Выгрузить в Excel'}
        </button>
      )}
      {busy && (
        <div className="export-progress">
          <span>
            Выгрузка: {current.rows_written}
            {current.rows_total !== null ? ` из ${current.rows_total}` : ''} строк
          </span>
          <progress max={1} value={share} aria-label="Ход выгрузки" />
        </div>
      )}
      {current?.status === 'done' && (
        <div className="export-done">
          <button type="button" className="button button-small button-quiet" onClick={() => void download(current.id)}>
            Скачать {current.filename}
          </button>
          <button type="button" className="button button-small button-quiet" disabled={server.offline} onClick={() => void openTable(current.id)}>
            Открыть в таблице
          </button>
          <button type="button" className="button button-small button-quiet" aria-label="Скрыть выгрузку" onClick={forget}>
            ×
          </button>
        </div>
      )}
      {current?.status === 'failed' && (
        <div className="export-failed" role="alert">
          <span>{current.error ?? 'Выгрузка не удалась'}</span>
          <button type="button" className="button button-small" disabled={server.offline} onClick={() => void start()}>
            Повторить
          </button>
        </div>
      )}
      {job.isError && jobId !== null && (
        <div className="export-failed">
          <span>{job.error.status === 404 ? 'Выгрузка больше не хранится' : job.error.message}</span>
          <button type="button" className="button button-small button-quiet" onClick={forget}>
            Скрыть
          </button>
        </div>
      )}
    </div>
  );
}
