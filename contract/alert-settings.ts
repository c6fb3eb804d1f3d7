/** The schema of a user's alert settings (contract/alerts.ts), apart so that zod stays out of what loads first. */
import { z } from 'zod';
import { ALERT_KINDS, type AlertSettings } from './alerts.ts';

export const alertSettingsSchema = z
  .object({
    kinds: z.array(z.enum(ALERT_KINDS, { message: 'неизвестный вид оповещения' })).max(ALERT_KINDS.length),
    sound: z.boolean({ message: 'ожидается да или нет' }),
    notify: z.boolean({ message: 'ожидается да или нет' }),
  })
  .strict();

// The interface and the schema describe the same object.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof alertSettingsSchema>, AlertSettings> = true;
void sameShape;
