/** Under the task's customer price: where it comes from («по прайсу: …» / «вручную»), and the list's price one click away. */
import { useGet } from '../../engine/api.ts';
import { quantityText } from '../../ui/decimal.ts';
import { priceHint } from './price-hint.ts';
import type { TaskFormValues } from './task-form.ts';

export function PriceHint({ values, onChange, disabled }: { values: TaskFormValues; onChange: (patch: Partial<TaskFormValues>) => void; disabled: boolean }) {
  const customerId = values.parties?.customer?.id ?? null;
  const list = useGet(customerId === null ? null : 'GET /price-lists/', { counterparty_id: customerId ?? 0 }, { staleTime: 30_000 });
  const state = priceHint(values, customerId === null ? null : (list.data?.data.lines ?? null));
  if (state.kind === 'none') return null;
  const useList = state.kind === 'list' ? (state.filled ? null : state.line) : state.kind === 'manual' ? state.line : null;
  return (
    <p className={`task-price-source task-price-${state.kind}`} data-price-source={state.kind} aria-live="polite">
      <span>{state.kind === 'list' && !state.filled ? `${state.text} — подставится при сохранении` : state.text}</span>
      {useList && (
        <button type="button" className="button button-small button-quiet" disabled={disabled} onClick={() => onChange({ rate: quantityText(useList.price) })}>
          {state.kind === 'manual' ? 'Вернуть цену из прайса' : 'Подставить'}
        </button>
      )}
    </p>
  );
}
