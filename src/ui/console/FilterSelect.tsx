/** One filter of a FilterBar: a labelled select whose value lives in the URL; `allLabel` adds the "no filter" choice (value ''). */
import { Options } from '../Options.tsx';

export interface FilterOption {
  value: string | number;
  label: string;
}

export function FilterSelect({
  label,
  value,
  onChange,
  options,
  allLabel,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly FilterOption[];
  allLabel?: string;
}) {
  return (
    <label>
      {label}
      <select aria-label={label} value={value} onChange={(event) => onChange(event.target.value)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        <Options options={options} />
      </select>
    </label>
  );
}

/** Companies as filter options (a super-admin's company filter). */
export function companyOptions(companies: readonly { id: number; name: string }[]): FilterOption[] {
  return companies.map((company) => ({ value: company.id, label: company.name }));
}
