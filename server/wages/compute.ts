/**
 * Earnings from completed associations: quantity × the association's transport_rate, or, where it has
 * none, the task company's progressive rate for the band that the period's total quantity falls in.
 */
import type { Db } from '../db/connect.ts';
import type { CompanyWages, DriverWages, WageItem } from '../../contract/driver.ts';

export interface Period {
  start_date?: string | undefined;
  end_date?: string | undefined;
}

interface Band {
  company_id: number;
  min_quantity: number;
  max_quantity: number | null;
  rate: number;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The band whose [min, max) holds `total`; the highest such band if bands overlap. */
export function bandRate(bands: readonly Band[], companyId: number, total: number): number | null {
  const hits = bands
    .filter((b) => b.company_id === companyId && b.min_quantity <= total && (b.max_quantity === null || total < b.max_quantity))
    .sort((a, b) => b.min_quantity - a.min_quantity);
  return hits[0]?.rate ?? null;
}

export async function driverWages(db: Db, driverId: number, period: Period, companyId?: number): Promise<DriverWages> {
  const rows = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['td.id as association_id', 't.id as task_id', 't.date', 't.cargo', 't.company_id', 'td.quantity', 'td.transport_rate'])
    .where('td.driver_id', '=', driverId)
    .where('td.status', '=', 'completed')
    .$if(period.start_date !== undefined, (qb) => qb.where('t.date', '>=', period.start_date as string))
    .$if(period.end_date !== undefined, (qb) => qb.where('t.date', '<=', period.end_date as string))
    .$if(companyId !== undefined, (qb) => qb.where('t.company_id', '=', companyId as number))
    .orderBy('t.date')
    .orderBy('td.id')
    .execute();
  const totalQuantity = rows.reduce((sum, r) => sum + (r.quantity ?? 0), 0);
  const needBands = [...new Set(rows.filter((r) => r.transport_rate === null).map((r) => r.company_id))];
  const bands: Band[] = needBands.length
    ? await db.kysely
        .selectFrom('progressive_rates')
        .select(['company_id', 'min_quantity', 'max_quantity', 'rate'])
        .where('company_id', 'in', needBands)
        .execute()
    : [];
  const items: WageItem[] = rows.map((r) => {
    const quantity = r.quantity ?? 0;
    const progressive = r.transport_rate === null ? bandRate(bands, r.company_id, totalQuantity) : null;
    const rate = r.transport_rate ?? progressive;
    return {
      association_id: r.association_id,
      task_id: r.task_id,
      date: r.date,
      cargo: r.cargo,
      quantity,
      rate,
      rate_source: r.transport_rate !== null ? 'transport_rate' : progressive !== null ? 'progressive' : null,
      amount: rate === null ? 0 : round2(quantity * rate),
    };
  });
  return {
    driver_id: driverId,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: round2(totalQuantity),
    total_amount: round2(items.reduce((sum, i) => sum + i.amount, 0)),
    items,
  };
}

/** Every driver who completed a task of the company in the period, with their earnings on its tasks. */
export async function companyWages(db: Db, companyId: number, period: Period): Promise<CompanyWages> {
  const drivers = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'td.driver_id')
    .select(['u.id', 'u.name'])
    .distinct()
    .where('t.company_id', '=', companyId)
    .where('td.status', '=', 'completed')
    .$if(period.start_date !== undefined, (qb) => qb.where('t.date', '>=', period.start_date as string))
    .$if(period.end_date !== undefined, (qb) => qb.where('t.date', '<=', period.end_date as string))
    .orderBy('u.name')
    .orderBy('u.id')
    .execute();
  const perDriver = [];
  for (const d of drivers) {
    const w = await driverWages(db, d.id, period, companyId);
    perDriver.push({ driver_id: d.id, driver_name: d.name, total_quantity: w.total_quantity, total_amount: w.total_amount });
  }
  return {
    company_id: companyId,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: round2(perDriver.reduce((s, d) => s + d.total_quantity, 0)),
    total_amount: round2(perDriver.reduce((s, d) => s + d.total_amount, 0)),
    drivers: perDriver,
  };
}
