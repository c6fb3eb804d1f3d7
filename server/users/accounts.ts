/**
 * Creating accounts, shared by registration approval, staff-created drivers, the demo seed and the
 * create-admin command, so a user and their first vehicle are always made the same way.
 */
import type { Kysely } from 'kysely';
import type { Role } from '../../contract/roles.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/connect.ts';
import { conflict } from '../errors.ts';
import { hashPassword } from '../auth/passwords.ts';

export interface NewVehicle {
  vehicle_number: string;
  vehicle_brand?: string | null | undefined;
  vehicle_capacity?: number | null | undefined;
}

export interface NewAccount {
  email: string;
  password_hash: string;
  name: string;
  phone?: string | undefined;
  role: Role;
  company_id: number | null;
  /** A driver's first vehicle; it becomes the current one. */
  vehicle?: NewVehicle | null | undefined;
}

export const EMAIL_TAKEN = 'Пользователь с таким e-mail уже зарегистрирован';

export async function emailIsTaken(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** Inserts the user (and vehicle); 409 when the e-mail is taken. Run it inside a transaction when it is part of more. */
export async function createAccount(db: Kysely<Database>, account: NewAccount): Promise<number> {
  const email = account.email.toLowerCase();
  if (await emailIsTaken(db, email)) throw conflict(EMAIL_TAKEN);
  const now = nowIso();
  const { id } = await db
    .insertInto('users')
    .values({
      email,
      password_hash: account.password_hash,
      name: account.name,
      phone: account.phone ?? '',
      role: account.role,
      company_id: account.company_id,
      is_active: 1,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (account.vehicle?.vehicle_number) {
    await addVehicle(db, id, account.vehicle, true);
  }
  return id;
}

/** Adds a vehicle; when it is to be current, the user's other vehicles stop being current. */
export async function addVehicle(db: Kysely<Database>, userId: number, vehicle: NewVehicle, current: boolean): Promise<number> {
  if (current) await db.updateTable('transports').set({ is_current: 0 }).where('user_id', '=', userId).execute();
  const { id } = await db
    .insertInto('transports')
    .values({
      user_id: userId,
      vehicle_number: vehicle.vehicle_number,
      vehicle_brand: vehicle.vehicle_brand ?? '',
      vehicle_capacity: vehicle.vehicle_capacity ?? null,
      is_current: current ? 1 : 0,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An account staff create directly (active at once): the password hashed, user and vehicle in one transaction. */
export async function createActiveAccount(
  db: Kysely<Database>,
  account: Omit<NewAccount, 'password_hash'> & { password: string },
): Promise<number> {
  const { password, ...rest } = account;
  const passwordHash = await hashPassword(password);
  return db.transaction().execute((trx) => createAccount(trx, { ...rest, password_hash: passwordHash }));
}
