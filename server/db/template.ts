/**
 * Queries compiled once per shape and run again with new values. Building and compiling a Kysely query costs
 * about as much as SQLite running it (tens of µs each); the reads behind every call (the session check) and the
 * driver's most frequent lists run several per request, so they are compiled once and only their values change.
 *
 * `queryTemplate(build)` calls `build` once per shape with stand-ins for its arguments and remembers the SQL
 * and where each stand-in landed among the parameters. The shape is what the SQL can depend on: each array
 * argument's length, and whether an argument is null or undefined. So `build` must only place its arguments as
 * values (`where('id', '=', id)`, `where('id', 'in', ids)`, `$if(x !== undefined, …)`), never compute with
 * them (no `ids.length ? ids : [-1]`, no `new Set(ids)`, no arithmetic): callers pass the values ready.
 * An argument that does not reach the parameters is caught at its first compile (an error, not a wrong query).
 */
import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** How many shapes of one template are kept per database. */
const SHAPES_KEPT = 200;

type Scalar = string | number;
export type TemplateArg = Scalar | null | undefined | readonly Scalar[];

/** Where an argument's value goes: `item` -1 for a scalar argument, else the index in the array argument. */
class Slot {
  constructor(
    readonly arg: number,
    readonly item: number,
  ) {}
}

interface Compiled<R> {
  query: CompiledQuery<R>;
  parameters: readonly unknown[];
}

function shapeOf(args: readonly TemplateArg[]): string {
  return args.map((a) => (a === null ? 'n' : a === undefined ? 'u' : Array.isArray(a) ? `a${a.length}` : 's')).join(',');
}

function standIns(args: readonly TemplateArg[]): unknown[] {
  return args.map((a, i) => (a === null || a === undefined ? a : Array.isArray(a) ? a.map((_, j) => new Slot(i, j)) : new Slot(i, -1)));
}

export function queryTemplate<A extends TemplateArg[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  const byDb = new WeakMap<Kysely<Database>, Map<string, Compiled<R>>>();

  function compile(db: Kysely<Database>, args: A): Compiled<R> {
    const slots = standIns(args);
    const query = build(db, ...(slots as A)).compile();
    const used = new Set<Slot>();
    for (const p of query.parameters) if (p instanceof Slot) used.add(p);
    const expected = slots.flatMap((s) => (s instanceof Slot ? [s] : Array.isArray(s) ? (s as Slot[]) : []));
    const lost = expected.filter((s) => !used.has(s));
    if (lost.length > 0) throw new Error(`queryTemplate: argument ${lost[0]!.arg} is not placed as a value of the query`);
    return { query, parameters: query.parameters };
  }

  return async (db, ...args) => {
    let shapes = byDb.get(db);
    if (!shapes) byDb.set(db, (shapes = new Map()));
    const shape = shapeOf(args);
    let compiled = shapes.get(shape);
    if (!compiled) {
      // Lists of every length are as many shapes: a bound, so a long-running process does not keep them all.
      if (shapes.size >= SHAPES_KEPT) shapes.clear();
      shapes.set(shape, (compiled = compile(db, args)));
    }
    const parameters = compiled.parameters.map((p) => {
      if (!(p instanceof Slot)) return p;
      const arg = args[p.arg];
      return p.item < 0 ? arg : (arg as readonly Scalar[])[p.item];
    });
    const result = await db.executeQuery<R>({ ...compiled.query, queryId: createQueryId(), parameters });
    return result.rows;
  };
}
