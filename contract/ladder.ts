/**
 * Shared by the server (checks, wages) and the UI (the ladder and the example on /companies/manage).
 * A company's progressive rates form a ladder: bands [min, max) sorted by min, the first from 0, each ending
 * where the next begins (no gap, no overlap), only the top one open (max null). A ladder whose top band is
 * closed is allowed (it is built one band at a time); a volume above its top is paid at the top band's rate.
 * Every change is checked against the whole ladder as it would be after it; a refusal names the band.
 */

export interface LadderBand {
  id?: number;
  min_quantity: number;
  max_quantity: number | null;
  rate: number;
}

const number = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 3 });
const q = (n: number) => `${number.format(n)} т`;

/** «500–1 000 т» or «от 1 000 т». */
export function bandLabel(band: LadderBand): string {
  return band.max_quantity === null
    ? `от ${q(band.min_quantity)}`
    : `${number.format(band.min_quantity)}–${q(band.max_quantity)}`;
}

export const byMin = (a: LadderBand, b: LadderBand): number => a.min_quantity - b.min_quantity || (a.id ?? 0) - (b.id ?? 0);

/** Why the ladder is not valid, in Russian naming the band; null when it is. */
export function ladderProblem(bands: readonly LadderBand[]): string | null {
  const sorted = [...bands].sort(byMin);
  for (const band of sorted) {
    if (band.max_quantity !== null && band.max_quantity <= band.min_quantity) {
      return `Полоса ${bandLabel(band)}: верхняя граница должна быть больше нижней`;
    }
  }
  const first = sorted[0];
  if (first && first.min_quantity !== 0) {
    return `Лестница ставок начинается с 0 т, а первая полоса — ${bandLabel(first)}`;
  }
  for (let i = 1; i < sorted.length; i++) {
    const lower = sorted[i - 1] as LadderBand;
    const upper = sorted[i] as LadderBand;
    if (lower.max_quantity === null) {
      return `Полоса ${bandLabel(lower)} открыта сверху, а выше есть полоса ${bandLabel(upper)}: открытой может быть только верхняя`;
    }
    if (lower.max_quantity > upper.min_quantity) {
      return `Полоса ${bandLabel(lower)} пересекается с полосой ${bandLabel(upper)}`;
    }
    if (lower.max_quantity < upper.min_quantity) {
      return `Между ${number.format(lower.max_quantity)} и ${q(upper.min_quantity)} нет полосы`;
    }
  }
  return null;
}

/**
 * The ladder after editing band `id`: a moved boundary moves the neighbour that shared it, so "make the
 * first band end at 150 т" is one edit, not two that each break the ladder.
 */
export function withEdit(
  bands: readonly LadderBand[],
  id: number,
  change: { min_quantity?: number | undefined; max_quantity?: number | null | undefined; rate?: number | undefined },
): LadderBand[] {
  const sorted = [...bands].sort(byMin).map((b) => ({ ...b }));
  const index = sorted.findIndex((b) => b.id === id);
  const band = sorted[index];
  if (!band) return sorted;
  const below = sorted[index - 1];
  const above = sorted[index + 1];
  if (change.min_quantity !== undefined && change.min_quantity !== band.min_quantity) {
    if (below && below.max_quantity === band.min_quantity) below.max_quantity = change.min_quantity;
    band.min_quantity = change.min_quantity;
  }
  if (change.max_quantity !== undefined && change.max_quantity !== band.max_quantity) {
    if (above && band.max_quantity !== null && above.min_quantity === band.max_quantity && change.max_quantity !== null) {
      above.min_quantity = change.max_quantity;
    }
    band.max_quantity = change.max_quantity;
  }
  if (change.rate !== undefined) band.rate = change.rate;
  return sorted;
}

/**
 * The rate for a volume: the band holding it; above a closed top band, the top band's rate; null without
 * bands. Bands are assumed valid (the ladder rule); with legacy overlaps the highest band wins.
 */
export function ladderRate(bands: readonly LadderBand[], total: number): number | null {
  const sorted = [...bands].sort(byMin);
  const hit = sorted.filter((b) => b.min_quantity <= total && (b.max_quantity === null || total < b.max_quantity)).at(-1);
  if (hit) return hit.rate;
  const top = sorted.at(-1);
  return top && top.max_quantity !== null && total >= top.max_quantity ? top.rate : null;
}
