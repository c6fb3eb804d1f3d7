/**
 * The trip sheet of a vehicle's day (issue 33 §2, docs/trip-sheets.md) on A4: the requisites of the Минтранса order
 * on trip sheets — the number and period, the owner with its requisites, the vehicle, the driver, the pre-trip medical
 * and technical checks and the post-trip medical check (date, time, name), the odometer and the time at departure
 * and at return. A fact not recorded leaves its box empty, to be completed by hand. Pure: facts in, PDF bytes out.
 */
import { BODY_TYPE_LABELS, OWNERSHIP_LABELS, type BodyType, type Ownership } from '../../contract/registers.ts';
import type { CheckMark } from '../../contract/trip-sheets.ts';
import { formatNumber } from '../../contract/words.ts';
import { PdfDoc } from './document.ts';
import type { TripSheetPdfFacts } from './facts.ts';
import { date, dateTime, DEFAULT_ZONE, joined } from './format.ts';
import { partyRows } from './waybill.ts';

/** «10:42» in the zone. */
const clock = (iso: string | null | undefined, zone: string): string | null => dateTime(iso, zone)?.slice(11) ?? null;
const km = (value: number | null): string | null => (value === null ? null : `${formatNumber(value)} км`);

/** A check's row: its date, time, who made it, and the signature box left for the hand. */
function checkRow(pdf: PdfDoc, mark: CheckMark | null, who: string, zone: string): void {
  pdf.boxes([
    { caption: 'Дата', value: date(mark?.at, zone) },
    { caption: 'Время', value: clock(mark?.at, zone), bold: true },
    { caption: who, value: mark?.name, share: 2.5, bold: true },
    { caption: 'Подпись', share: 1.5 },
  ]);
}

export async function renderTripSheet(facts: TripSheetPdfFacts): Promise<Buffer> {
  const zone = facts.time_zone ?? DEFAULT_ZONE;
  const s = facts.sheet;
  const v = s.vehicle;
  const pdf = new PdfDoc({ title: `Путевой лист № ${s.number}` });
  pdf.text('Реквизиты по приказу Минтранса России от 28.09.2022 № 390', { size: 6.5, align: 'right', color: '#555555' });
  pdf.title(`ПУТЕВОЙ ЛИСТ № ${s.number}`);
  pdf.boxes([
    { caption: 'Номер путевого листа', value: `${s.number}/${s.year}`, bold: true },
    { caption: 'Дата выдачи', value: date(s.date, zone) },
    { caption: 'Срок действия: с', value: date(s.date, zone) },
    { caption: 'по', value: date(s.date, zone) },
  ]);
  pdf.space(4);

  pdf.section('Собственник (владелец) транспортного средства');
  partyRows(pdf, facts.company, 'владельца');

  pdf.section('Транспортное средство');
  pdf.boxes([
    { caption: 'Тип', value: v.body_type ? (BODY_TYPE_LABELS[v.body_type as BodyType] ?? v.body_type) : null },
    { caption: 'Марка, модель', value: joined([v.make, v.model], ' '), share: 1.5 },
    { caption: 'Государственный регистрационный номер', value: v.plate, bold: true },
    { caption: 'Прицеп (полуприцеп), номер', value: v.trailer_plate },
    { caption: 'Тип владения', value: v.ownership ? (OWNERSHIP_LABELS[v.ownership as Ownership] ?? v.ownership) : null },
  ]);

  pdf.section('Водитель');
  pdf.boxes([
    { caption: 'Фамилия, имя, отчество', value: s.driver.name, share: 2, bold: true },
    { caption: 'Водительское удостоверение: серия, номер', value: s.driver.license_number },
    { caption: 'Дата выдачи удостоверения', value: date(s.driver.license_issued, zone) },
  ]);

  pdf.section('Предрейсовый медицинский осмотр', 60);
  checkRow(pdf, s.pre_medical, 'Медицинский работник: фамилия, инициалы', zone);

  pdf.section('Предрейсовый контроль технического состояния транспортного средства', 60);
  checkRow(pdf, s.pre_technical, 'Контролёр технического состояния: фамилия, инициалы', zone);

  pdf.section('Выпуск на линию и возвращение', 90);
  pdf.boxes([
    { caption: 'Показание одометра при выезде, км', value: km(s.odometer_start), bold: true },
    { caption: 'Дата выезда', value: date(s.departure_at, zone) },
    { caption: 'Время выезда', value: clock(s.departure_at, zone), bold: true },
  ]);
  pdf.boxes([
    { caption: 'Показание одометра при возвращении, км', value: km(s.odometer_end), bold: true },
    { caption: 'Дата возвращения', value: date(s.return_at, zone) },
    { caption: 'Время возвращения', value: clock(s.return_at, zone), bold: true },
  ]);
  pdf.boxes([{ caption: 'Пробег за день, км', value: km(s.distance_km) }]);

  pdf.section('Послерейсовый медицинский осмотр', 60);
  checkRow(pdf, s.post_medical, 'Медицинский работник: фамилия, инициалы', zone);

  pdf.space(8);
  if (s.missing.length > 0) pdf.text(`Не заполнено: ${s.missing.join('; ')}.`, { size: 7.5 });
  const made = dateTime(facts.generated_at ?? new Date().toISOString(), zone);
  pdf.text(`Сформировано ${made}, часовой пояс ${zone}.`, { size: 7, color: '#555555' });
  return pdf.end();
}
