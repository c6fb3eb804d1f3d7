/** The staff console's shared pieces; screens import from here. */
export { DataTable, PHONE_QUERY, type DataTableProps } from './DataTable.tsx';
export { FilterBar, isTypingTarget } from './FilterBar.tsx';
export { BulkBar, BulkResults, type BulkReport } from './BulkResults.tsx';
export { runBulk, bulkSummary, type BulkItem, type BulkOutcome } from './bulk.ts';
export { useUrlState, parseUrlState, writeUrlState, orderingToSorting, sortingToOrdering, type UrlDefaults } from './url-state.ts';
