/**
 * The import graph of our own code (contract/, server/, src/, worker/, sw/): no circles, type imports
 * included (a type-only circle still ties the files' meaning together and breaks the bundle split the moment
 * someone turns one of its imports into a value import). The layer rules are lint's (eslint.config.js).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['contract', 'server', 'src', 'worker', 'sw'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import and re-export (`import … from`, `export … from`, `import()`), resolved to a file. */
export function importsOf(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)]
    .map((m) => m[1] ?? m[2] ?? '')
    .filter((s) => s.startsWith('.'));
  return specifiers.map((s) => resolve(dirname(file), s.replace(/\?.*$/, '')));
}

/** Tarjan's strongly connected components with more than one file, or a file importing itself. */
export function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the import graph', () => {
  it('finds a circle where there is one, and none in a chain', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
    expect(importsOf('/r/x/a.ts', "import type { A } from './b.ts';\nexport { c } from '../c.ts';\nconst d = import('./d.tsx');\nimport 'x';")).toEqual([
      '/r/x/b.ts',
      '/r/c.ts',
      '/r/x/d.tsx',
    ]);
  });

  it('has no circles in our code, type imports included', () => {
    const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));
    const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
    const named = circles(graph).map((c) => c.map((file) => relative(ROOT, file)));
    expect(named).toEqual([]);
  });
});
