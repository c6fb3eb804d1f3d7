/**
 * A per-company console screen (the board, the payroll month, the company's figures): the caller's own company,
 * or for a super-admin the one chosen in the URL — the first by default — with the picker to choose it.
 */
import type { Company, User } from '../../../contract/entities.ts';
import { useGet } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { Empty } from '../states.tsx';
import { companyOptions, FilterSelect } from './FilterSelect.tsx';

export interface CompanyScope {
  superAdmin: boolean;
  companies: readonly Company[];
  /** null: no company to show (none exists yet, or the caller belongs to none). */
  companyId: number | null;
}

/** `chosen`: the URL's company (empty: the default). */
export function useCompanyScope(chosen: string): CompanyScope & { user: User | null } {
  const user = useEngineSnapshot().auth.user;
  const superAdmin = user?.role === 'super-admin';
  const companies = useGet(superAdmin ? 'GET /companies/' : null).data?.data ?? [];
  const companyId = superAdmin ? (chosen ? Number(chosen) : (companies[0]?.id ?? null)) : (user?.company_id ?? null);
  return { user, superAdmin, companies, companyId };
}

/** A super-admin's company choice; nothing for anyone else. */
export function CompanyPicker({ scope, onChange }: { scope: CompanyScope; onChange: (company: string) => void }) {
  if (!scope.superAdmin) return null;
  return (
    <div className="filter-slots">
      <FilterSelect label="Компания" value={scope.companyId === null ? '' : String(scope.companyId)} onChange={onChange} options={companyOptions(scope.companies)} />
    </div>
  );
}

/** What a per-company screen says when there is no company to show. */
export function NoCompany({ scope }: { scope: CompanyScope }) {
  return <Empty>{scope.superAdmin ? 'Компаний пока нет.' : 'Вы не привязаны к компании.'}</Empty>;
}
