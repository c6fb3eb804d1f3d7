/**
 * /table: a full-screen, read-only view of one export file, opened with a short-lived
 * signed link (?file_id&token). With an OnlyOffice Docs server configured it opens there; otherwise (the
 * default) in the built-in grid: sticky header, row numbers, rows virtualized and fetched page by page.
 */
import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { useGet } from '../../engine/api.ts';
import { Loading } from '../../ui/states.tsx';
import { SheetGrid } from './SheetGrid.tsx';
import { OnlyOfficeView } from './OnlyOfficeView.tsx';
import './table.css';

export function TableScreen() {
  const search = new URLSearchParams(useSearch());
  const fileId = search.get('file_id') ?? '';
  const token = search.get('token') ?? '';
  const complete = /^\d+$/.test(fileId) && token.length > 10;
  const config = useGet(complete ? 'GET /onlyoffice/config' : null, { file_id: Number(fileId), token }, { retry: false });

  useEffect(() => {
    document.title = 'Таблица — Рейс';
  }, []);

  if (!complete) return <TableMessage text="Ссылка на таблицу неполная. Откройте таблицу из консоли: «Управление задачами» → «Открыть в таблице»." />;
  if (config.isPending) return <main className="sheet-page"><Loading text="Открываем таблицу..." /></main>;
  if (config.isError) {
    const text = config.error.network ? 'Нет связи с сервером: таблица не загрузилась.' : config.error.message;
    return <TableMessage text={text} />;
  }
  const answer = config.data.data;
  if (answer.server_url) return <OnlyOfficeView answer={answer} />;
  return <SheetGrid fileId={Number(fileId)} token={token} />;
}

function TableMessage({ text }: { text: string }) {
  return (
    <main className="sheet-page sheet-message">
      <h1>Таблица</h1>
      <p role="alert">{text}</p>
    </main>
  );
}
