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
