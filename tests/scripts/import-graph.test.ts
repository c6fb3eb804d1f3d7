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

/**
 * What loading `file` runs: its value imports (`import … from`, `export … from`, bare `import '…'`), not
 * `import type`, not a braces list of types only, not `import()` (a chunk loaded later). Relative ones resolved to
 * files; packages by name.
 */
export function staticImportsOf(file: string, source: string): { files: string[]; packages: string[] } {
  const files: string[] = [];
  const packages: string[] = [];
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) {
    if (m[1] || (m[2] && /^\{\s*(?:type\s+[^,}]+,?\s*)+\}$/.test(m[2].trim()))) continue;
    const spec = m[3] ?? m[4] ?? '';
    if (spec.startsWith('.')) files.push(resolve(dirname(file), spec.replace(/\?.*$/, '')));
    else packages.push(spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/'));
  }
  return { files, packages };
}

/** Every file and package that loading `entry` runs before anything is loaded on demand. */
function staticReach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file) || !/\.(ts|tsx)$/.test(file)) return;
    files.add(file);
    const found = staticImportsOf(file, readFileSync(file, 'utf8'));
    found.packages.forEach((p) => packages.add(p));
    found.files.forEach(visit);
  };
  visit(entry);
  return { files, packages };
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

  it('tells what a file runs on load from what it only names or loads later', () => {
    const source = "import type { A } from './a.ts';\nimport { type B } from './b.ts';\nimport { c, type C } from './c.ts';\nimport '@x/y/z.css';\nconst d = import('./d.ts');\nexport { e } from 'e';";
    expect(staticImportsOf('/r/m.ts', source)).toEqual({ files: ['/r/c.ts'], packages: ['@x/y', 'e'] });
  });

  it('keeps React Query and the hooks module (engine/api.ts) out of what the first screen (/login) loads', () => {
    // /login's scripts stay small (bench initial-js) because the shell reaches the engine through
    // engine/once.ts; one value import of engine/api.ts or React Query from the shell pulls them in again.
    const reach = staticReach(join(ROOT, 'src/main.tsx'));
    expect(reach.files.size).toBeGreaterThan(10);
    expect(reach.files.has(join(ROOT, 'src/engine/once.ts'))).toBe(true);
    expect(reach.files.has(join(ROOT, 'src/engine/api.ts'))).toBe(false);
    expect([...reach.packages]).not.toContain('@tanstack/react-query');
  });
});
