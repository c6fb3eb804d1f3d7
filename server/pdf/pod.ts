/**
 * The proof of delivery of one trip (issue 32): what customers ask carriers for — the carrier, the task, the four
 * stamps of the trip's timeline with how each was made, the waits, the weighbridge ticket, the quantities loaded and
 * unloaded, the receiver's name, position and signature (or the refusal and its reason), the photos. A fact that is
 * missing leaves its box empty. Pure: facts in, PDF bytes out (the route reads the report, its photos and the
 * signature file and hands them over).
 */
import { TRIP_STEP_DONE, TRIP_STEPS, type StampSource } from '../../contract/trips.ts';
import { BODY_TYPE_LABELS } from '../../contract/registers.ts';
import { PdfDoc, type BoxSpec } from './document.ts';
import type { PdfParty, PodFacts } from './facts.ts';
import { date, dateTime, DEFAULT_ZONE, joined, minutes, partyName, position, quantity } from './format.ts';
import { photoForPdf, signatureForPdf } from './images.ts';

const SOURCE_WORDS: Record<StampSource, string> = {
  tap: 'кнопкой водителя',
  auto: 'автоматически по геозоне',
  corrected: 'исправлено водителем',
  form: 'введено после рейса',
};

/** The party's row of boxes: name, ИНН, КПП; then its address and phone. */
export function partyBoxes(pdf: PdfDoc, party: PdfParty | null | undefined, nameCaption: string): void {
  pdf.boxes([
    { caption: nameCaption, value: partyName(party), share: 3, bold: true },
    { caption: 'ИНН', value: party?.inn },
    { caption: 'КПП', value: party?.kpp },
  ]);
  pdf.boxes([
    { caption: 'Адрес', value: party?.address, share: 3 },
    { caption: 'Телефон', value: party?.phone, share: 2 },
  ]);
}

export async function renderPod(facts: PodFacts): Promise<Buffer> {
  const zone = facts.time_zone ?? DEFAULT_ZONE;
  const { task, trip } = facts;
  const [photos, signature] = await Promise.all([Promise.all(facts.photos.map((p) => photoForPdf(p.data))), signatureForPdf(facts.signature)]);

  const pdf = new PdfDoc({ title: `Подтверждение доставки, рейс № ${facts.report_id}` });
  pdf.title('Подтверждение доставки груза', `Рейс № ${facts.report_id} по задаче № ${task.id} от ${date(task.date) ?? task.date}`);
  if (trip.after_the_fact) {
    pdf.text('Рейс внесён задним числом: время этапов введено вручную после рейса.', { bold: true, color: '#a00000' });
    pdf.space(4);
  }

  pdf.section('Перевозчик');
  partyBoxes(pdf, facts.company, 'Наименование');
  if (task.customer) {
    pdf.section('Заказчик');
    pdf.boxes([
      { caption: 'Наименование', value: partyName(task.customer), share: 3, bold: true },
      { caption: 'ИНН', value: task.customer.inn },
      { caption: 'КПП', value: task.customer.kpp },
    ]);
  }

  pdf.section('Задача');
  pdf.boxes([
    { caption: 'Груз', value: task.cargo, share: 3, bold: true },
    { caption: 'Дата задачи', value: date(task.date) },
  ]);
  pdf.boxes([
    { caption: 'Погрузка', value: joined([task.loading_place, task.loading_address]) },
    { caption: 'Выгрузка', value: joined([task.unloading_place, task.unloading_address]) },
  ]);
  const vehicle = facts.vehicle;
  pdf.boxes([
    { caption: 'Водитель', value: facts.driver.name, share: 2 },
    { caption: 'Госномер', value: vehicle?.plate, bold: true },
    { caption: 'Марка, тип', value: joined([vehicle?.make, vehicle?.model, vehicle?.body_type ? BODY_TYPE_LABELS[vehicle.body_type] : null], ' ') },
    { caption: 'Прицеп', value: vehicle?.trailer_plate },
  ]);

  pdf.section('Хронология рейса', 80);
  pdf.table(
    [{ header: 'Этап', share: 2 }, { header: 'Время', share: 1.4 }, { header: 'Как отмечено', share: 1.6 }, { header: 'Координаты', share: 2.2 }, { header: 'От места', share: 0.9, align: 'right' }],
    TRIP_STEPS.map((step) => {
      const stamp = trip.timeline[step];
      return [
        TRIP_STEP_DONE[step],
        dateTime(stamp?.at, zone),
        stamp ? SOURCE_WORDS[stamp.source] : null,
        position(stamp?.position),
        stamp?.distance_m != null ? `${Math.round(stamp.distance_m)} м` : null,
      ];
    }),
  );
  pdf.boxes([
    { caption: 'Простой на погрузке', value: minutes(trip.waits.loading_min) },
    { caption: 'В пути', value: minutes(trip.waits.travel_min) },
    { caption: 'Простой на выгрузке', value: minutes(trip.waits.unloading_min) },
    { caption: 'Цикл рейса', value: minutes(trip.waits.cycle_min) },
  ]);

  pdf.section('Количество');
  const loaded = facts.loading_quantity;
  const unloaded = facts.unloading_quantity;
  pdf.boxes([
    { caption: 'Талон взвешивания №', value: facts.ticket_number, bold: true },
    { caption: 'Загружено', value: quantity(loaded, task.unit), bold: true },
    { caption: 'Выгружено', value: quantity(unloaded, task.unit), bold: true },
    { caption: 'Расхождение', value: loaded != null && unloaded != null ? quantity(Math.round((unloaded - loaded) * 1000) / 1000, task.unit) : null },
  ]);

  pdf.section('Приёмка груза получателем', 90);
  acceptanceBoxes(pdf, facts, signature, zone);

  if (facts.photos.length > 0) {
    pdf.section('Фотографии', 220);
    pdf.pictures(
      facts.photos.map((p, i) => {
        const caption = p.caption?.trim() || `Фото ${i + 1}`;
        const image = photos[i] ?? null;
        return { image, caption: image ? caption : `${caption} (файл не читается)` };
      }),
    );
  }

  pdf.space(8);
  const made = dateTime(facts.generated_at ?? new Date().toISOString(), zone);
  pdf.text(`Сформировано ${made}. Время этапов — по часам телефона водителя, часовой пояс ${zone}.`, { size: 7, color: '#555555' });
  return pdf.end();
}

function acceptanceBoxes(pdf: PdfDoc, facts: PodFacts, signature: Buffer | null, zone: string): void {
  const acceptance = facts.trip.acceptance;
  const at = dateTime(acceptance.at, zone);
  if (acceptance.kind === 'refused') {
    pdf.text('Получатель отказался подписать', { bold: true });
    pdf.space(3);
    pdf.boxes([
      { caption: 'Получатель (ФИО)', value: acceptance.receiver_name, share: 2 },
      { caption: 'Причина отказа', value: acceptance.refused_reason, share: 3, lines: 2 },
      { caption: 'Время', value: at },
    ]);
    return;
  }
  const signatureBox: BoxSpec = { caption: 'Подпись получателя', image: signature, imageHeight: 60, lines: 5 };
  pdf.boxes([
    { caption: 'Получатель (ФИО)', value: acceptance.receiver_name, share: 2, bold: true },
    { caption: 'Должность', value: acceptance.receiver_position, share: 2 },
    { caption: 'Время подписи', value: at },
  ]);
  pdf.boxes([signatureBox, { caption: 'Место подписи', value: position(acceptance.position), lines: 5 }]);
  if (acceptance.kind === 'signed' && acceptance.scope === 'shift') {
    pdf.text('Одна подпись получателя за рейсы смены.', { size: 7.5, color: '#555555' });
  }
}
