/** How the papers write times, quantities, money and parties (Russian, the company's zone). */
import type { Position } from '../../contract/trips.ts';
import { formatNumber } from '../../contract/words.ts';
import type { PdfParty } from './facts.ts';

export const DEFAULT_ZONE = 'Europe/Moscow';

const stamps = new Map<string, Intl.DateTimeFormat>();

function parts(iso: string, zone: string): Record<string, string> | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  let format = stamps.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('ru-RU', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    stamps.set(zone, format);
  }
  return Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
}

/** «28.11.2026 10:42» in the zone; null for no time. */
export function dateTime(iso: string | null | undefined, zone = DEFAULT_ZONE): string | null {
  const p = iso ? parts(iso, zone) : null;
  return p ? `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}` : null;
}

/** «28.11.2026» from a task's YYYY-MM-DD (or an ISO time, in the zone). */
export function date(value: string | null | undefined, zone = DEFAULT_ZONE): string | null {
  if (!value) return null;
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (plain) return `${plain[3]}.${plain[2]}.${plain[1]}`;
  const p = parts(value, zone);
  return p ? `${p.day}.${p.month}.${p.year}` : null;
}

/** «45 мин», «1 ч 05 мин». */
export function minutes(value: number | null | undefined): string | null {
  if (value == null) return null;
  const whole = Math.max(0, Math.round(value));
  if (whole < 60) return `${whole} мин`;
  return `${Math.floor(whole / 60)} ч ${String(whole % 60).padStart(2, '0')} мин`;
}

/** «24,5 т». */
export function quantity(value: number | null | undefined, unit: string | null | undefined): string | null {
  if (value == null) return null;
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

let roubles: Intl.NumberFormat | undefined;
/** «150 382,00 руб.». */
export function money(value: number | null | undefined): string | null {
  if (value == null) return null;
  roubles ??= new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${roubles.format(value)} руб.`;
}

/** «55.75580, 37.61730 (±15 м)»: as a map link takes it. */
export function position(value: Position | null | undefined): string | null {
  if (!value) return null;
  return `${value.lat.toFixed(5)}, ${value.lon.toFixed(5)} (±${Math.round(value.accuracy)} м)`;
}

/** The party's name as a paper names it: its full name when known. */
export const partyName = (party: PdfParty | null | undefined): string | null => party?.full_name ?? party?.name ?? null;

/** «ООО «Карьер», ИНН 7707083893, КПП 770701001, ОГРН …, адрес, тел. …» — what is known of it. */
export function partyLine(party: PdfParty | null | undefined): string | null {
  if (!party) return null;
  return [
    partyName(party),
    party.inn && `ИНН ${party.inn}`,
    party.kpp && `КПП ${party.kpp}`,
    party.ogrn && `${party.inn?.length === 12 ? 'ОГРНИП' : 'ОГРН'} ${party.ogrn}`,
    party.address,
    party.phone && `тел. ${party.phone}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Words joined with a separator, the missing ones left out; null when none is left. */
export function joined(values: (string | null | undefined)[], separator = ', '): string | null {
  const present = values.filter((v): v is string => v != null && v.trim() !== '');
  return present.length > 0 ? present.join(separator) : null;
}
