/** The console's pager: «1–50 из 120» with previous and next, for lists paged on the server. */
import type { ReactNode } from 'react';

export const PAGE_SIZE = 50;

/** Prev / next over pages of PAGE_SIZE with "1–50 из 120"; unless `always`, nothing when everything fits on one page. */
export function Pager({
  page,
  total,
  onPage,
  extra,
  always,
}: {
  page: number;
  total: number;
  onPage: (page: number) => void;
  extra?: ReactNode;
  /** Show «1–27 из 27» even when everything fits on one page. */
  always?: boolean;
}) {
  if (total <= PAGE_SIZE && page === 0 && !always) return extra ? <div className="pager">{extra}</div> : null;
  const from = total === 0 ? 0 : page * PAGE_SIZE + 1;
  const to = Math.min(total, (page + 1) * PAGE_SIZE);
  return (
    <div className="pager">
      <button type="button" className="button button-small" disabled={page === 0} onClick={() => onPage(page - 1)}>
        ← Назад
      </button>
      <span>
        {from}–{to} из {total}
      </span>
      <button type="button" className="button button-small" disabled={to >= total} onClick={() => onPage(page + 1)}>
        Вперёд →
      </button>
      {extra}
    </div>
  );
}
