/**
 * The cargo's facts a waybill names beside its name (issue 33, migration 051): its state (`СостГруз`), the way it
 * is packed (`СпУпак`) and the kind of package (`ВидТар`, a two-character ОКВГУМ code). A task holds them; a task
 * that names none is bulk cargo, the app's usual one — «Сыпучий», «Навалом», VY. And the driver's licence as the
 * papers print it. Pure: the screens, the server and the PDFs read it.
 */
import { z } from 'zod';
import { text } from './fields.ts';

/** What a task carries when it names none of the three: bulk cargo (sand, gravel, soil). */
export const BULK_CARGO = { state: 'Сыпучий', packaging: 'Навалом', packageCode: 'VY' } as const;

export interface CargoPacking {
  state: string | null;
  packaging: string | null;
  packageCode: string | null;
}

/** A task's cargo facts: as stored, or bulk when it names none (a partial one stays partial: the papers list the gap). */
export function cargoPacking(task: { cargo_state: string | null; cargo_packaging: string | null; cargo_package_code: string | null }): CargoPacking {
  if (task.cargo_state === null && task.cargo_packaging === null && task.cargo_package_code === null) return { ...BULK_CARGO };
  return { state: task.cargo_state, packaging: task.cargo_packaging, packageCode: task.cargo_package_code };
}

/** A driver's licence as a person reads it: «77 12 345678»; null without a number. */
export function licenceText(series: string | null, number: string | null): string | null {
  if (!number) return null;
  return series ? `${series} ${number}` : number;
}

const cargoText = (label: string) =>
  text(`${label}: ожидается текст`)
    .max(300, `${label}: не длиннее 300 символов`)
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional();

/** The task's fields (POST /tasks/, PUT /tasks/{id}/): absent leaves, empty text or null clears (all three clear: bulk). */
export const taskCargoFields = {
  cargo_state: cargoText('Состояние груза'),
  cargo_packaging: cargoText('Способ упаковки'),
  cargo_package_code: z
    .string({ message: 'Вид тары: ожидается код ОКВГУМ из двух знаков, например VY' })
    .transform((s, ctx) => {
      const code = s.trim().toUpperCase();
      if (code === '') return null;
      if (!/^[A-Z0-9]{2}$/.test(code)) {
        ctx.addIssue({ code: 'custom', message: 'Вид тары: ожидается код ОКВГУМ из двух латинских букв или цифр, например VY' });
        return z.NEVER;
      }
      return code;
    })
    .nullable()
    .optional(),
};
