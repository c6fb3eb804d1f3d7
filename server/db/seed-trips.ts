/**
 * The demo's trips of today, stamped through the API as a phone would (PUT /trips/{uid}/steps/{step}): Алексей
 * Соколов has two trips done and a third on the road, Дмитрий Морозов has just arrived at the quarry. So `npm start`
 * shows the board's «в пути» / «на погрузке», the trips' days, waits and cycles, and the customer's live view with
 * something in them. Only `npm start` runs it (server/main.ts, after a fresh seed); the tests' demo stays as
 * seedDemo leaves it. Before 07:00 local time there is no morning to put trips in, and nothing is stamped.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from './connect.ts';
import { DEMO_PASSWORD } from './seed.ts';

type StepBody = Record<string, unknown>;

async function signIn(app: FastifyInstance, email: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login/', payload: { username: email, password: DEMO_PASSWORD, device_id: `demo-seed-${email}` } });
  if (res.statusCode !== 200) throw new Error(`demo trips: sign-in of ${email}: ${res.statusCode} ${res.body}`);
  return (res.json() as { access_token: string }).access_token;
}

async function send(app: FastifyInstance, token: string, method: 'PUT', url: string, payload: StepBody = {}): Promise<void> {
  const res = await app.inject({ method, url: `/api${url}`, payload, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode >= 300) throw new Error(`demo trips: ${method} ${url}: ${res.statusCode} ${res.body}`);
}

/** The driver's part of the task whose cargo this is, today's. */
async function associationOf(db: Db, email: string, cargo: string): Promise<{ association: number; task: number } | null> {
  const row = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'td.driver_id')
    .select(['td.id as association', 't.id as task'])
    .where('u.email', '=', email)
    .where('t.cargo', '=', cargo)
    .executeTakeFirst();
  return row ?? null;
}

/** Stamps the demo's trips of today; answers how many steps were stamped (0 before 07:00). */
export async function seedDemoTrips(app: FastifyInstance, db: Db, now = new Date()): Promise<number> {
  if (now.getHours() < 7) return 0;
  // The morning so far, from 06:00 (or the last 4½ hours), shared out among the steps below.
  const start = Math.max(new Date(now.getFullYear(), now.getMonth(), now.getDate(), 6).getTime(), now.getTime() - 270 * 60_000);
  const span = now.getTime() - start;
  const at = (fraction: number) => new Date(start + span * fraction).toISOString();
  let stamped = 0;

  // Алексей Соколов, sand from «Песчаный» (accepted in seedDemo): two trips done, the third on the road.
  const sand = await associationOf(db, 'sokolov@demo.local', 'Песок карьерный');
  if (sand) {
    const token = await signIn(app, 'sokolov@demo.local');
    const trips: { t: readonly number[]; loaded: number; unloaded?: number; ticket: string }[] = [
      { t: [0, 0.08, 0.2, 0.25], loaded: 24.6, unloaded: 24.4, ticket: 'П-10421' },
      { t: [0.36, 0.47, 0.6, 0.66], loaded: 25.1, unloaded: 25.1, ticket: 'П-10433' },
      { t: [0.78, 0.9], loaded: 24.8, ticket: 'П-10447' },
    ];
    for (const trip of trips) {
      const uid = randomUUID();
      const base = { association_id: sand.association, source: 'tap' };
      const steps: [string, StepBody][] = [
        ['loading_arrived', {}],
        ['loading_departed', { loading_quantity: trip.loaded, ticket_number: trip.ticket }],
        ['unloading_arrived', {}],
        ['unloading_departed', { unloading_quantity: trip.unloaded }],
      ];
      for (const [i, fraction] of trip.t.entries()) {
        const [step, data] = steps[i]!;
        await send(app, token, 'PUT', `/trips/${uid}/steps/${step}`, { ...base, ...data, at: at(fraction) });
        stamped += 1;
      }
    }
  }

  // Дмитрий Морозов takes today's open gravel task and has just arrived at «Лесной».
  const gravel = await db.kysely.selectFrom('tasks').select('id').where('cargo', '=', 'Щебень гранитный 5–20').where('status', '=', 'open').orderBy('date', 'desc').executeTakeFirst();
  if (gravel) {
    const token = await signIn(app, 'morozov@demo.local');
    await send(app, token, 'PUT', `/tasks/${gravel.id}/accept/`);
    const part = await associationOf(db, 'morozov@demo.local', 'Щебень гранитный 5–20');
    if (part) {
      await send(app, token, 'PUT', `/trips/${randomUUID()}/steps/loading_arrived`, { association_id: part.association, source: 'tap', at: at(0.95) });
      stamped += 1;
    }
  }
  return stamped;
}
