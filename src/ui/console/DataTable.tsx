/**
 * The console's table: column definitions as data (@tanstack/react-table, headless),
 * sorting and selection owned by the screen (so they can live in the URL), a sticky header, rows that open
 * with a click or Enter and move with the arrow keys, skeleton rows while loading, and — under 600 px — the
 * same rows as cards, so a phone never scrolls sideways.
 */
import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';
import { useMediaQuery } from '../use-media-query.ts';
import './console.css';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Numbers are right-aligned. */
    align?: 'right';
    /** The header's tooltip / the card's label. */
    label?: string;
  }
}

export interface TableSort {
  id: string;
  desc: boolean;
}

export interface DataTableProps<T> {
  /** What the table lists, for screen readers. */
  label: string;
  // Column value types differ per column; react-table's own examples type the array this way.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  data: readonly T[];
  getRowId: (row: T) => string;
  sort?: TableSort | null;
  /** Called with a sortable column's id when its header is clicked. */
  onSort?: (id: string) => void;
  /** Selection by row id; when given, a checkbox column appears. */
  selected?: ReadonlySet<string>;
  onSelectedChange?: (next: Set<string>) => void;
  onOpen?: (row: T) => void;
  loading?: boolean;
  skeletonRows?: number;
  empty?: ReactNode;
  /** The row as a card, for phones. */
  card: (row: T) => ReactNode;
  rowClassName?: (row: T) => string | undefined;
  /** Narrower cell padding, for a table of many columns that should fit a 1440 px screen beside the menu. */
  dense?: boolean;
}

function moveFocus(event: KeyboardEvent<HTMLElement>, step: 1 | -1): void {
  const rows = Array.from(event.currentTarget.parentElement?.querySelectorAll<HTMLElement>('[data-row]') ?? []);
  const index = rows.indexOf(event.currentTarget);
  rows[index + step]?.focus();
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, columns, data, getRowId, sort, onSort, selected, onSelectedChange, onOpen, loading, empty, card } = props;
  const phone = useMediaQuery('(max-width: 599px)');
  const rows = useMemo(() => [...data], [data]);
  // The app does not use the React Compiler, whose memoizing this rule guards; react-table re-renders as designed.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
  });
  const selectable = selected !== undefined && onSelectedChange !== undefined;
  const ids = rows.map(getRowId);
  const allSelected = selectable && ids.length > 0 && ids.every((id) => selected.has(id));

  function toggle(id: string): void {
    if (!selectable) return;
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  }

  function toggleAll(): void {
    if (!selectable) return;
    const next = new Set(selected);
    for (const id of ids) {
      if (allSelected) next.delete(id);
      else next.add(id);
    }
    onSelectedChange(next);
  }

  function rowKeys(event: KeyboardEvent<HTMLElement>, row: T): void {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' && onOpen) {
      event.preventDefault();
      onOpen(row);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      moveFocus(event, 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      moveFocus(event, -1);
    } else if (event.key === ' ' && selectable) {
      event.preventDefault();
      toggle(getRowId(row));
    }
  }

  const skeletons = Array.from({ length: props.skeletonRows ?? 8 }, (_, i) => i);

  if (phone) {
    if (loading) {
      return (
        <div className="console-cards" aria-busy="true" aria-label={label}>
          {skeletons.slice(0, 4).map((i) => (
            <div key={i} className="card console-card skeleton-card" />
          ))}
        </div>
      );
    }
    if (rows.length === 0) return <div className="console-empty">{empty}</div>;
    return (
      <ul className="console-cards" aria-label={label}>
        {rows.map((row) => {
          const id = getRowId(row);
          return (
            <li
              key={id}
              data-row
              tabIndex={0}
              className={`card console-card${selected?.has(id) ? ' is-selected' : ''}`}
              onKeyDown={(event) => rowKeys(event, row)}
            >
              {selectable && (
                <input
                  type="checkbox"
                  className="console-check console-card-check"
                  aria-label="Выбрать"
                  checked={selected.has(id)}
                  onChange={() => toggle(id)}
                />
              )}
              <div className="console-card-body" onClick={onOpen ? () => onOpen(row) : undefined}>
                {card(row)}
              </div>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="console-table-wrap">
      <table className={props.dense ? 'console-table console-table--dense' : 'console-table'} aria-label={label} aria-busy={loading || undefined}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {selectable && (
                <th className="console-check-cell">
                  <input type="checkbox" className="console-check" aria-label="Выбрать все на странице" checked={allSelected} onChange={toggleAll} />
                </th>
              )}
              {group.headers.map((header) => {
                const sortable = header.column.columnDef.enableSorting === true && onSort !== undefined;
                const active = sort?.id === header.column.id;
                const content = flexRender(header.column.columnDef.header, header.getContext());
                const align = header.column.columnDef.meta?.align;
                return (
                  <th
                    key={header.id}
                    className={align === 'right' ? 'num' : undefined}
                    aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : undefined}
                    title={header.column.columnDef.meta?.label}
                  >
                    {sortable ? (
                      <button type="button" className="sort-button" onClick={() => onSort(header.column.id)}>
                        {content}
                        <span className="sort-mark" aria-hidden="true">
                          {active ? (sort.desc ? '▼' : '▲') : '↕'}
                        </span>
                      </button>
                    ) : (
                      content
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {loading
            ? skeletons.map((i) => (
                <tr key={i} className="skeleton-row">
                  {selectable && <td />}
                  {columns.map((_, c) => (
                    <td key={c}>
                      <span className="skeleton" />
                    </td>
                  ))}
                </tr>
              ))
            : table.getRowModel().rows.map((row) => (
                <tr
                  key={row.id}
                  data-row
                  tabIndex={0}
                  className={[selected?.has(row.id) ? 'is-selected' : '', props.rowClassName?.(row.original) ?? '', onOpen ? 'is-openable' : '']
                    .filter(Boolean)
                    .join(' ') || undefined}
                  onKeyDown={(event) => rowKeys(event, row.original)}
                  onClick={(event) => {
                    // Clicks on the row's own controls (links, buttons, checkboxes) do their own thing.
                    if (onOpen && !(event.target as HTMLElement).closest('a, button, input, select, label')) onOpen(row.original);
                  }}
                >
                  {selectable && (
                    <td className="console-check-cell">
                      <input type="checkbox" className="console-check" aria-label="Выбрать" checked={selected.has(row.id)} onChange={() => toggle(row.id)} />
                    </td>
                  )}
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={cell.column.columnDef.meta?.align === 'right' ? 'num' : undefined}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
      {!loading && rows.length === 0 && <div className="console-empty">{empty}</div>}
    </div>
  );
}
