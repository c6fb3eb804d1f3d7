/**
 * The built-in read-only grid: only the rows in sight are in the DOM, pages of 200 are fetched as they come into view.
 * A click on a column's header sorts by it (again: the other way; the server sorts, so every page agrees); the
 * totals row stays pinned below the rows; a link leads back to the console.
 */
import { useRef, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TableRows } from '../../../contract/exports.ts';
import { getOnce, useGet } from '../../engine/api.ts';
import { Loading } from '../../ui/states.tsx';

const PAGE = 200;
const ROW_HEIGHT = 34;

type Sort = { column: number; desc: boolean } | null;
const sortParams = (sort: Sort): { sort?: number; desc?: '0' | '1' } => (sort ? { sort: sort.column, desc: sort.desc ? '1' : '0' } : {});

async function fetchPage(fileId: number, token: string, page: number, sort: Sort): Promise<TableRows> {
  return (await getOnce('GET /table/rows', { file_id: fileId, token, offset: page * PAGE, limit: PAGE, ...sortParams(sort) })).data;
}

export function SheetGrid({ fileId, token }: { fileId: number; token: string }) {
  const [sort, setSort] = useState<Sort>(null);
  const first = useGet('GET /table/rows', { file_id: fileId, token, offset: 0, limit: PAGE, ...sortParams(sort) }, { retry: false, placeholderData: (previous) => previous });
  const scroller = useRef<HTMLDivElement>(null);
  const total = first.data?.data.total ?? 0;
  // No React Compiler here: the rule guards its memoizing, which this app does not use.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  const items = virtualizer.getVirtualItems();
  const pages = [...new Set(items.map((item) => Math.floor(item.index / PAGE)))].filter((page) => page > 0);
  const loaded = useQueries({
    queries: pages.map((page) => ({
      queryKey: ['/table/rows', { file_id: fileId, token, page, ...sortParams(sort) }],
      queryFn: () => fetchPage(fileId, token, page, sort),
      staleTime: Infinity,
    })),
  });

  if (first.isPending) return <main className="sheet-page"><Loading text="Загрузка строк..." /></main>;
  if (first.isError) {
    const error = first.error;
    return (
      <main className="sheet-page sheet-message">
        <h1>Таблица</h1>
        <p role="alert">{error.network ? 'Нет связи с сервером: таблица не загрузилась.' : error.message}</p>
      </main>
    );
  }
  const sheet = first.data.data;
  const rowAt = (index: number): (string | number | null)[] | null => {
    const page = Math.floor(index / PAGE);
    const source = page === 0 ? sheet : loaded[pages.indexOf(page)]?.data;
    return source?.rows[index - page * PAGE] ?? null;
  };
  // One width per column for every row (each row is its own grid): from the header and the first page.
  const widths = sheet.columns.map((column, c) => {
    // Header text is bold: about a fifth wider per letter than the cells.
    const longest = Math.max(Math.ceil(column.length * 1.2), ...sheet.rows.map((row) => String(row[c] ?? '').length));
    return Math.min(360, Math.max(72, longest * 8 + 24));
  });
  const template = `56px ${widths.map((w) => `${w}px`).join(' ')}`;

  return (
    <main className="sheet-page">
      <header className="sheet-head">
        <a className="sheet-back" href="/tasks/manage">
          ← К задачам
        </a>
        <h1>{sheet.title}</h1>
        <span className="sheet-meta">
          Лист «{sheet.sheet}» · строк: {sheet.total} · только просмотр{sort ? ` · по столбцу «${sheet.columns[sort.column]}»${sort.desc ? ', по убыванию' : ''}` : ''}
        </span>
      </header>
      <div ref={scroller} className="sheet-scroll" role="table" aria-label={`${sheet.title}, лист ${sheet.sheet}`} aria-rowcount={sheet.total + 1}>
        <div className="sheet-row sheet-header" role="row" style={{ gridTemplateColumns: template }}>
          <span role="columnheader" className="sheet-num">
            #
          </span>
          {sheet.columns.map((column, i) => (
            <span key={i} role="columnheader" aria-sort={sort?.column === i ? (sort.desc ? 'descending' : 'ascending') : undefined}>
              <button
                type="button"
                className="sheet-sort"
                title="Сортировать по этому столбцу"
                onClick={() => setSort(sort?.column === i ? (sort.desc ? null : { column: i, desc: true }) : { column: i, desc: false })}
              >
                {column}
                {sort?.column === i ? (sort.desc ? ' ▼' : ' ▲') : ''}
              </button>
            </span>
          ))}
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                className="sheet-row"
                style={{ gridTemplateColumns: template, position: 'absolute', top: 0, left: 0, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                <span role="rowheader" className="sheet-num">
                  {item.index + 1}
                </span>
                {row
                  ? sheet.columns.map((_, c) => (
                      <span key={c} role="cell" className={typeof row[c] === 'number' ? 'num' : undefined}>
                        {row[c] === null || row[c] === undefined ? '' : typeof row[c] === 'number' ? (row[c] as number).toLocaleString('ru-RU') : row[c]}
                      </span>
                    ))
                  : sheet.columns.map((_, c) => <span key={c} role="cell" className="sheet-pending" />)}
              </div>
            );
          })}
        </div>
        {sheet.footer && (
          <div className="sheet-row sheet-footer" role="row" aria-rowindex={sheet.total + 2} style={{ gridTemplateColumns: template }}>
            <span role="rowheader" className="sheet-num">
              Σ
            </span>
            {sheet.columns.map((_, c) => {
              const value = sheet.footer?.[c] ?? null;
              return (
                <span key={c} role="cell" className={typeof value === 'number' ? 'num' : undefined}>
                  {value === null ? '' : typeof value === 'number' ? value.toLocaleString('ru-RU') : value}
                </span>
              );
            })}
          </div>
        )}
      </div>
    </main>
  );
}
