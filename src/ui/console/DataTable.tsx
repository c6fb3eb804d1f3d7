/**
 * The console's table (headless @tanstack/react-table): columns as data, sorting owned by the screen (so it
 * can live in the URL), sticky header, sortable headers (aria-sort, keyboard), an optional checkbox column,
 * rows that open with a click or Enter and move with the arrow keys, skeleton rows while loading, an empty
 * node, and cards instead of the table under 600 px (no horizontal scroll on phones).
 */
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useMediaQuery } from '../use-media-query.ts';
import './console.css';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned, tabular digits. */
    numeric?: boolean;
    /** A class for the header and the cells ('console-col-date' to fix a width). */
    className?: string;
  }
}

export const PHONE_QUERY = '(max-width: 599px)';

export interface DataTableProps<T> {
  /** The table's accessible name (usually the page title). */
  label: string;
  data: readonly T[];
  // react-table's ColumnDef is invariant in its value type; a table mixes columns of many value types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  getRowId: (row: T) => string;
  /** Sorting lives with the screen (in the URL); without it the headers are not sortable. */
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  /** True (default) when the server sorts; false sorts `data` here. */
  manualSorting?: boolean;
  /** Passing a selection adds the checkbox column (and a checkbox on each card). */
  selection?: RowSelectionState;
  onSelectionChange?: (selection: RowSelectionState) => void;
  /** Names a row for the checkbox's label ('Выбрать «Щебень, 23.11.2026»'). */
  rowLabel?: (row: T) => string;
  onOpen?: (row: T) => void;
  loading?: boolean;
  skeletonRows?: number;
  /** Shown instead of the rows when there are none (a sentence and the action that fills the list). */
  empty?: ReactNode;
  /** A phone's card for one row; without it phones get the table. */
  card?: (row: T) => ReactNode;
}

/** Clicks on controls inside a row (links, buttons, checkboxes) do their own thing, not open the row. */
function fromControl(target: EventTarget): boolean {
  return target instanceof Element && target.closest('a, button, input, select, textarea, label, summary, details, [role="menu"]') !== null;
}

function moveFocus(event: KeyboardEvent<HTMLElement>, selector: string): boolean {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return false;
  const list = event.currentTarget.parentElement;
  if (!list) return false;
  const items = Array.from(list.querySelectorAll<HTMLElement>(selector));
  const index = items.indexOf(event.currentTarget);
  const next = items[index + (event.key === 'ArrowDown' ? 1 : -1)];
  if (next) next.focus();
  event.preventDefault();
  return true;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, data, columns, getRowId, sorting, onSortingChange, manualSorting = true, selection, onSelectionChange } = props;
  const { rowLabel, onOpen, loading = false, skeletonRows = 8, empty, card } = props;
  const phone = useMediaQuery(PHONE_QUERY);
  const selectable = selection !== undefined;

  const allColumns = useMemo<ColumnDef<T, unknown>[]>(() => {
    if (!selectable) return columns;
    const select: ColumnDef<T, unknown> = {
      id: '__select',
      enableSorting: false,
      meta: { className: 'console-col-select' },
      header: ({ table }) => (
        <input
          type="checkbox"
          aria-label="Выбрать все на странице"
          checked={table.getIsAllPageRowsSelected()}
          ref={(element) => {
            if (element) element.indeterminate = table.getIsSomePageRowsSelected();
          }}
          onChange={table.getToggleAllPageRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input
          type="checkbox"
          aria-label={`Выбрать ${rowLabel ? `«${rowLabel(row.original)}»` : 'строку'}`}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    };
    return [select, ...columns];
  }, [columns, selectable, rowLabel]);

  const onSorting: OnChangeFn<SortingState> = (updater) => {
    if (!onSortingChange) return;
    onSortingChange(typeof updater === 'function' ? updater(sorting ?? []) : updater);
  };
  const onSelection: OnChangeFn<RowSelectionState> = (updater) => {
    if (!onSelectionChange) return;
    onSelectionChange(typeof updater === 'function' ? updater(selection ?? {}) : updater);
  };

  // react-table's instance changes identity-free each render; nothing here memoizes its functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<T>({
    data: data as T[],
    columns: allColumns,
    getRowId: (row) => getRowId(row),
    state: { sorting: sorting ?? [], rowSelection: selection ?? {} },
    onSortingChange: onSorting,
    onRowSelectionChange: onSelection,
    enableSorting: onSortingChange !== undefined,
    enableMultiSort: false,
    enableSortingRemoval: false,
    enableRowSelection: selectable,
    manualSorting,
    getCoreRowModel: getCoreRowModel(),
    ...(manualSorting ? {} : { getSortedRowModel: getSortedRowModel() }),
  });

  const rows = table.getRowModel().rows;

  function open(row: Row<T>) {
    onOpen?.(row.original);
  }
  function onRowClick(event: MouseEvent<HTMLElement>, row: Row<T>) {
    if (fromControl(event.target)) return;
    open(row);
  }
  function onRowKey(event: KeyboardEvent<HTMLElement>, row: Row<T>, selector: string) {
    if (event.target !== event.currentTarget) return;
    if (moveFocus(event, selector)) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      open(row);
    } else if (event.key === ' ' && selectable) {
      event.preventDefault();
      row.toggleSelected();
    }
  }

  if (phone && card) {
    if (loading) {
      return (
        <ul className="console-cards" aria-label={label} aria-busy="true">
          {Array.from({ length: Math.min(skeletonRows, 4) }, (_, i) => (
            <li key={i} className="console-card console-card--skeleton">
              <span className="skeleton" />
              <span className="skeleton skeleton--short" />
              <span className="skeleton" />
            </li>
          ))}
        </ul>
      );
    }
    if (rows.length === 0) return <div className="console-empty">{empty}</div>;
    return (
      <ul className="console-cards" aria-label={label}>
        {rows.map((row) => (
          <li
            key={row.id}
            className={row.getIsSelected() ? 'console-card is-selected' : 'console-card'}
            tabIndex={onOpen ? 0 : undefined}
            data-row-id={row.id}
            onClick={(event) => onRowClick(event, row)}
            onKeyDown={(event) => onRowKey(event, row, '.console-card')}
          >
            {selectable && (
              <label className="console-card__select">
                <input type="checkbox" checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
                <span className="visually-hidden">Выбрать {rowLabel ? `«${rowLabel(row.original)}»` : 'карточку'}</span>
              </label>
            )}
            {card(row.original)}
          </li>
        ))}
      </ul>
    );
  }

  const columnCount = table.getVisibleLeafColumns().length;
  return (
    <table className="console-table" aria-label={label} aria-busy={loading || undefined}>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const meta = header.column.columnDef.meta;
              const sortable = header.column.getCanSort();
              const sorted = header.column.getIsSorted();
              const className = [meta?.numeric ? 'is-numeric' : '', meta?.className ?? ''].join(' ').trim() || undefined;
              const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
              return (
                <th
                  key={header.id}
                  scope="col"
                  className={className}
                  aria-sort={sortable ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}
                >
                  {sortable ? (
                    <button type="button" className="console-sort" onClick={header.column.getToggleSortingHandler()}>
                      {content}
                      <span className="console-sort__arrow" aria-hidden="true">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
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
          ? Array.from({ length: skeletonRows }, (_, i) => (
              <tr key={i} className="console-row console-row--skeleton">
                {Array.from({ length: columnCount }, (_, j) => (
                  <td key={j}>
                    <span className="skeleton" />
                  </td>
                ))}
              </tr>
            ))
          : rows.map((row) => (
              <tr
                key={row.id}
                className={row.getIsSelected() ? 'console-row is-selected' : 'console-row'}
                tabIndex={onOpen ? 0 : undefined}
                data-row-id={row.id}
                aria-selected={selectable ? row.getIsSelected() : undefined}
                onClick={(event) => onRowClick(event, row)}
                onKeyDown={(event) => onRowKey(event, row, '.console-row')}
              >
                {row.getVisibleCells().map((cell) => {
                  const meta = cell.column.columnDef.meta;
                  const className = [meta?.numeric ? 'is-numeric' : '', meta?.className ?? ''].join(' ').trim() || undefined;
                  return (
                    <td key={cell.id} className={className}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  );
                })}
              </tr>
            ))}
        {!loading && rows.length === 0 && (
          <tr>
            <td colSpan={columnCount} className="console-empty">
              {empty}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
