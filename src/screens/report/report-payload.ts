/** Builds the outbox's NewReport from what the driver typed (SPEC.md section 5: totals only with flag 1). */
import type { NewReport } from '../../../worker/api.ts';
import { parseQuantity, quantityText as text } from '../current-tasks/quantity.ts';

export interface ReportDraft {
  quantity: string;
  totalLoading: string;
  totalUnloading: string;
  loadingIsBuyer: boolean;
  unloadingIsBuyer: boolean;
}

export type ReportDraftErrors = Partial<Record<'quantity' | 'totalLoading' | 'totalUnloading' | 'form', string>>;

export type ReportBuild = { ok: true; report: NewReport } | { ok: false; errors: ReportDraftErrors };

export const emptyDraft: ReportDraft = {
  quantity: '',
  totalLoading: '',
  totalUnloading: '',
  loadingIsBuyer: false,
  unloadingIsBuyer: false,
};

export function buildReport(associationId: number, draft: ReportDraft, photos: Blob[]): ReportBuild {
  const errors: ReportDraftErrors = {};
  const quantity = parseQuantity(draft.quantity);
  if (!quantity.ok) errors.quantity = quantity.error;
  // A total whose flag is off is never sent, so whatever its field holds cannot make the form invalid.
  const loading = draft.loadingIsBuyer ? parseQuantity(draft.totalLoading) : null;
  if (loading && !loading.ok) errors.totalLoading = loading.error;
  const unloading = draft.unloadingIsBuyer ? parseQuantity(draft.totalUnloading) : null;
  if (unloading && !unloading.ok) errors.totalUnloading = unloading.error;
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const quantityValue = quantity.ok ? quantity.value : null;
  if (quantityValue === null && photos.length === 0) {
    return { ok: false, errors: { form: 'Укажите количество или добавьте фото' } };
  }
  return {
    ok: true,
    report: {
      association_id: associationId,
      quantity: quantityValue,
      total_loading_quantity: loading?.ok ? loading.value : null,
      total_unloading_quantity: unloading?.ok ? unloading.value : null,
      loadingIsBuyer: draft.loadingIsBuyer ? 1 : 0,
      unloadingIsBuyer: draft.unloadingIsBuyer ? 1 : 0,
      photos,
    },
  };
}

/** A stored report back as a draft, for correcting it. Older answers may lack the flags: a total implies it. */
export function draftFromReport(report: {
  quantity: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  loading_is_buyer?: number | boolean | null;
  unloading_is_buyer?: number | boolean | null;
}): ReportDraft {
  return {
    quantity: text(report.quantity),
    totalLoading: text(report.total_loading_quantity),
    totalUnloading: text(report.total_unloading_quantity),
    loadingIsBuyer: Boolean(report.loading_is_buyer ?? report.total_loading_quantity !== null),
    unloadingIsBuyer: Boolean(report.unloading_is_buyer ?? report.total_unloading_quantity !== null),
  };
}
