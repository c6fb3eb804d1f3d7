/** The printed form of the results: one table per benchmark, then the goals at a glance. */
import type { Figure, SectionResult } from './support.ts';

export type SectionRecord = SectionResult & { id: string; title: string; seconds: number; error?: string };

const HEADERS = ['figure', 'unit', 'ours', 'baseline', 'ours ÷ base', 'goal', 'note'];

function number(value: number | null): string {
  if (value === null || Number.isNaN(value)) return '—';
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

function ratio(value: number | null): string {
  if (value === null) return '—';
  return `${value < 0.01 && value > 0 ? value.toExponential(1) : Math.round(value * 100) / 100}×`;
}

function goal(f: Figure): string {
  if (!f.goal) return '';
  return `${f.goal} ${f.met ? '✓' : '✗'}`;
}

function row(f: Figure): string[] {
  return [f.metric, f.unit, number(f.ours), number(f.baseline), ratio(f.ratio), goal(f), f.note ?? ''];
}

function table(rows: string[][]): string {
  const widths = HEADERS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i >= 2 && i <= 4 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(rows[0] ?? []), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function printSection(s: SectionRecord): void {
  const out: string[] = [`\n== ${s.title}  (${s.seconds} s)`];
  if (s.error) out.push(`FAILED: ${s.error}`);
  else if (s.skipped) out.push(`skipped: ${s.skipped}`);
  else {
    out.push(`ours:     ${s.ours}`, `baseline: ${s.baseline}`, '', table([HEADERS, ...s.figures.map(row)]));
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

export function printSummary(sections: SectionRecord[]): void {
  const out = ['\n== Goals'];
  for (const s of sections) {
    if (s.error) out.push(`✗ ${s.id}: did not finish`);
    else if (s.skipped) out.push(`- ${s.id}: skipped`);
    for (const f of s.figures.filter((f) => f.goal)) {
      out.push(`${f.met ? '✓' : '✗'} ${s.id}: ${f.metric} — ours ${number(f.ours)} ${f.unit} (goal ${f.goal})`);
    }
  }
  const total = sections.reduce((sum, s) => sum + s.seconds, 0);
  out.push(`\n${sections.length} benchmark(s) in ${Math.round(total)} s`);
  process.stdout.write(`${out.join('\n')}\n`);
}
