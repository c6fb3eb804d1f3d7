/** Where the export button sits in the task list's toolbar (the export itself: src/screens/export/). */
import type { Params } from '../../../worker/api.ts';

export function ExportSlot(_props: { params: Params }) {
  return null;
}
