/** The export button in the task list's toolbar, with the list's own filters. */
import type { ExportRequest } from '../../../contract/exports.ts';
import type { Params } from '../../../worker/api.ts';
import { ExportButton } from '../export/ExportButton.tsx';

export function exportFilters(params: Params): ExportRequest {
  const filters: ExportRequest = {};
  if (typeof params.search === 'string') filters.search = params.search;
  if (typeof params.status === 'string') filters.status = params.status as ExportRequest['status'];
  if (typeof params.ordering === 'string') filters.ordering = params.ordering as ExportRequest['ordering'];
  if (typeof params.date_from === 'string') filters.date_from = params.date_from;
  if (typeof params.date_to === 'string') filters.date_to = params.date_to;
  if (typeof params.company_id === 'number') filters.company_id = params.company_id;
  return filters;
}

export function ExportSlot({ params }: { params: Params }) {
  return <ExportButton filters={exportFilters(params)} />;
}
