/** A select's options from `{value, label}` pairs (the status lists of ui/statuses.ts, a filter's choices). */
export function Options({ options }: { options: readonly { value: string | number; label: string }[] }) {
  return (
    <>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </>
  );
}

/** Options for things with an id and a name (companies, drivers): the id is the value, the name the label. */
export function NamedOptions({ items }: { items: readonly { id: number; name: string }[] }) {
  return <Options options={items.map((item) => ({ value: item.id, label: item.name }))} />;
}
