/**
 * A task's text field that suggests the company's earlier values as one types (GET /tasks/suggestions: most used
 * first, case- and ё-insensitive), through the browser's own datalist: arrows and Enter pick one, and nothing is
 * forced — a new value is typed as before.
 */
import { useDeferredValue, useId, type ComponentProps } from 'react';
import type { SUGGESTION_FIELDS } from '../../../contract/calls/tasks.ts';
import { useGet } from '../../engine/api.ts';
import { Field } from '../../ui/Field.tsx';

type Props = ComponentProps<typeof Field> & { field: (typeof SUGGESTION_FIELDS)[number]; value: string; companyId: number | null };

export function SuggestField({ field, value, companyId, ...props }: Props) {
  const listId = useId();
  const q = useDeferredValue(value.trim());
  const suggestions = useGet('GET /tasks/suggestions', { field, q, ...(companyId !== null ? { company_id: companyId } : {}) }, { staleTime: 60_000 }).data?.data ?? [];
  const shown = suggestions.filter((s) => s !== value);
  return (
    <>
      <Field {...props} value={value} list={listId} autoComplete="off" />
      <datalist id={listId}>
        {shown.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
    </>
  );
}
