/**
 * A console list as its controller has it (list-controller.ts): the error with a retry when nothing could be
 * loaded, else the table (skeleton rows while loading, the empty text, cards on a phone) with the controller's
 * sort and selection, and the pager under it. `ListCacheNote` goes in the page's header.
 */
import type { GetKey } from '../../../contract/calls/index.ts';
import { CacheNote } from '../CacheNote.tsx';
import { QueryError } from '../states.tsx';
import { DataTable, type DataTableProps } from './DataTable.tsx';
import type { ListController } from './list-controller.ts';
import { Pager } from './Pager.tsx';

type FrameProps<T> = Omit<DataTableProps<T>, 'data' | 'sort' | 'onSort' | 'selected' | 'onSelectedChange' | 'loading'> & {
  // The controller's rows are this table's rows; its call and state types do not matter here.
  list: Pick<ListController<GetKey>, 'query' | 'total' | 'page' | 'paged' | 'setPage' | 'sort' | 'onSort' | 'selected' | 'setSelected' | 'everything'> & {
    rows: readonly T[];
  };
  /** A checkbox column, the selection kept by the controller. */
  selectable?: boolean;
  /** The pager's range even on a single page. */
  pagerAlways?: boolean;
};

export function ListFrame<T>({ list, selectable, pagerAlways, ...table }: FrameProps<T>) {
  const { query, everything } = list;
  if (query.isError && !query.data) return <QueryError query={query} />;
  return (
    <>
      <DataTable
        {...table}
        data={list.rows}
        sort={list.sort}
        onSort={list.onSort}
        {...(selectable ? { selected: list.selected, onSelectedChange: list.setSelected } : {})}
        loading={query.isPending}
      />
      {/* «1–0 из 0» says nothing: an empty list that always shows its range shows none. */}
      {list.paged && (list.total > 0 || !pagerAlways) && (
        <Pager page={list.page} total={list.total} onPage={list.setPage} extra={everything && <LoadAllButton everything={everything} />} always={pagerAlways} />
      )}
      {everything?.shown && (
        <div className="pager">
          <span>
            Загружены все {everything.noun} по фильтру: {list.total}
          </span>
          <button type="button" className="button button-small" onClick={everything.back}>
            Вернуться к страницам
          </button>
        </div>
      )}
    </>
  );
}

/** «данные от …» while the list shows what the engine had cached. */
export function ListCacheNote({ list }: { list: Pick<ListController<GetKey>, 'query'> }) {
  const data = list.query.data;
  return data ? <CacheNote fromCache={data.fromCache} storedAt={data.storedAt} /> : null;
}

/** «Загрузить всё по фильтру», counting while it loads. */
function LoadAllButton({ everything }: { everything: NonNullable<ListController['everything']> }) {
  const { loading } = everything;
  return (
    <button type="button" className="button button-small button-quiet" disabled={loading !== null} onClick={() => void everything.showAll()}>
      {loading ? `Загружено ${loading.loaded}${loading.total !== null ? ` из ${loading.total}` : ''}…` : 'Загрузить всё по фильтру'}
    </button>
  );
}
