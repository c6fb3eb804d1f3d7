/**
 * The paper transport waybill (issue 33 §1): the form of Правила перевозок грузов автомобильным транспортом,
 * приложение 4, sections 1–12, on A4 from the trip's facts. Every box keeps its caption; a fact we do not hold
 * leaves its box empty so the paper can be completed by hand (the form's «при наличии» / «при необходимости»
 * sections included). `renderWaybills` puts many in one PDF (a task's or a day's trips), each from a new page with
 * its own sheet count. Pure: facts in, PDF bytes out.
 */
import { BODY_TYPE_LABELS, OWNERSHIP_LABELS } from '../../contract/registers.ts';
import { formatNumber } from '../../contract/words.ts';
import { PdfDoc } from './document.ts';
import type { PdfParty, WaybillFacts } from './facts.ts';
import { date, dateTime, DEFAULT_ZONE, joined, money, partyName, quantity } from './format.ts';
import { signatureForPdf } from './images.ts';

/** The sections' titles as the form prints them. */
export const WAYBILL_SECTIONS = [
  '1. Грузоотправитель',
  '2. Грузополучатель',
  '3. Груз',
  '4. Сопроводительные документы на груз (при наличии)',
  '5. Указания грузоотправителя (при необходимости)',
  '6. Перевозчик',
  '7. Транспортное средство',
  '8. Прием груза',
  '9. Переадресовка (при наличии)',
  '10. Выдача груза',
  '11. Отметки грузоотправителей, грузополучателей, перевозчиков (при необходимости)',
  '12. Стоимость перевозки груза (установленная плата) и порядок расчета провозной платы (при необходимости)',
] as const;

const section = (n: number): string => WAYBILL_SECTIONS[n - 1] ?? String(n);

export async function renderWaybill(facts: WaybillFacts): Promise<Buffer> {
  return renderWaybills([facts]);
}

/** One PDF of many waybills (a task's or a day's), each from a new page. */
export async function renderWaybills(list: WaybillFacts[]): Promise<Buffer> {
  const signatures = await Promise.all(list.map((facts) => signatureForPdf(facts.signature)));
  const title = list.length === 1 ? `Транспортная накладная № ${list[0]?.number ?? ''}`.trim() : `Транспортные накладные (${list.length})`;
  const pdf = new PdfDoc({ title });
  for (const [i, facts] of list.entries()) {
    // A day's batch is seconds of layout: the event loop serves other calls between two waybills.
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    pdf.startGroup(`ТН № ${facts.number ?? '—'}`);
    drawWaybill(pdf, facts, signatures[i] ?? null);
  }
  if (list.length === 0) pdf.text('Нет рейсов для транспортных накладных.');
  return pdf.end();
}

/** A party's two rows of boxes with the form's captions: name, ИНН, КПП, ОГРН(ИП); address and phone. */
export function partyRows(pdf: PdfDoc, party: PdfParty | null, whose: string): void {
  pdf.boxes([
    { caption: `Наименование (ФИО) ${whose}`, value: partyName(party), share: 4, bold: true },
    { caption: 'ИНН', value: party?.inn, share: 1.4 },
    { caption: 'КПП', value: party?.kpp, share: 1.2 },
    { caption: party?.inn?.length === 12 ? 'ОГРНИП' : 'ОГРН (ОГРНИП)', value: party?.ogrn, share: 1.6 },
  ]);
  pdf.boxes([
    { caption: 'Адрес места нахождения (жительства)', value: party?.address, share: 3 },
    { caption: 'Номер телефона', value: party?.phone },
  ]);
}

const HANDOVER = {
  loading: { section: 8, address: 'Адрес места погрузки', planned: 'Заявленные дата и время подачи под погрузку' },
  unloading: { section: 10, address: 'Адрес места выгрузки', planned: 'Заявленные дата и время подачи под выгрузку' },
} as const;

/** 8. Прием груза and 10. Выдача груза alike: the place, the planned and actual times, the cargo's state and mass. */
function handover(pdf: PdfDoc, f: WaybillFacts, kind: 'loading' | 'unloading', zone: string): void {
  const words = HANDOVER[kind];
  const place = f[kind];
  pdf.section(section(words.section), 140);
  pdf.boxes([{ caption: words.address, value: place.address }]);
  pdf.boxes([
    { caption: words.planned, value: dateTime(place.planned_at, zone) },
    { caption: 'Фактические дата и время прибытия', value: dateTime(f.timeline?.[`${kind}_arrived`]?.at, zone), bold: true },
    { caption: 'Фактические дата и время убытия', value: dateTime(f.timeline?.[`${kind}_departed`]?.at, zone), bold: true },
  ]);
  pdf.boxes([
    { caption: 'Фактическое состояние груза, тары, упаковки, маркировки и опломбирования', value: place.state, share: 2 },
    { caption: 'Масса груза', value: quantity(place.quantity, f.cargo.unit), bold: true },
    { caption: 'Количество грузовых мест', value: place.places },
  ]);
}

function drawWaybill(pdf: PdfDoc, f: WaybillFacts, signature: Buffer | null): void {
  const zone = f.time_zone ?? DEFAULT_ZONE;
  const unit = f.cargo.unit ?? null;
  pdf.text('Приложение № 4 к Правилам перевозок грузов автомобильным транспортом', { size: 6.5, align: 'right', color: '#555555' });
  pdf.title('ТРАНСПОРТНАЯ НАКЛАДНАЯ');
  pdf.boxes([
    { caption: 'Дата', value: date(f.date, zone) },
    { caption: 'Номер', value: f.number, bold: true },
    { caption: 'Заказ (заявка): дата', value: date(f.order?.date, zone) },
    { caption: 'Заказ (заявка): номер', value: f.order?.number },
  ]);
  if (f.after_the_fact) pdf.text('Рейс внесён задним числом: время прибытия и убытия введено после рейса.', { size: 7.5, bold: true });
  pdf.space(4);

  pdf.section(section(1));
  partyRows(pdf, f.shipper, 'грузоотправителя');

  pdf.section(section(2));
  partyRows(pdf, f.consignee, 'грузополучателя');
  pdf.boxes([{ caption: 'Адрес места доставки груза', value: f.delivery_address ?? f.unloading.address }]);

  pdf.section(section(3));
  pdf.boxes([{ caption: 'Отгрузочное наименование груза (для опасных грузов — номер ООН)', value: f.cargo.name, bold: true }]);
  pdf.boxes([
    { caption: 'Количество грузовых мест, маркировка, вид тары и способ упаковки', value: f.cargo.packaging, share: 2 },
    { caption: 'Состояние груза', value: f.cargo.state },
    { caption: 'Масса нетто (брутто), кг; объём, м³', value: quantity(f.cargo.quantity, unit) },
  ]);
  pdf.boxes([{ caption: 'Для опасного груза: класс, номер ООН, информация по каждому опасному веществу', value: f.cargo.dangerous }]);

  pdf.section(section(4));
  const documents = [...(f.documents ?? []), ...(f.ticket_number ? [`Талон взвешивания № ${f.ticket_number}`] : [])];
  pdf.boxes([{ caption: 'Перечень прилагаемых к транспортной накладной документов (сертификаты, паспорта качества, талоны и др.)', value: joined(documents, '; ') }]);
  pdf.boxes([{ caption: 'Реквизиты документов, подтверждающих отгрузку товаров', value: f.shipment_documents }]);

  pdf.section(section(5));
  pdf.boxes([
    { caption: 'Параметры транспортного средства, необходимые для перевозки (тип, марка, грузоподъёмность, вместимость)', value: f.instructions?.vehicle },
    { caption: 'Указания для выполнения фитосанитарных, санитарных, карантинных и прочих требований', value: f.instructions?.requirements },
  ]);
  pdf.boxes([{ caption: 'Рекомендации о предельных сроках и температурном режиме перевозки, сведения о запорно-пломбировочных устройствах', value: f.instructions?.terms }]);

  pdf.section(section(6));
  partyRows(pdf, f.carrier, 'перевозчика');
  pdf.boxes([
    { caption: 'Водитель (фамилия, имя, отчество)', value: f.driver?.name, share: 2, bold: true },
    { caption: 'ИНН водителя', value: f.driver?.inn },
    { caption: 'Водительское удостоверение', value: f.driver?.licence },
    { caption: 'Телефон водителя', value: f.driver?.phone },
  ]);

  pdf.section(section(7));
  const v = f.vehicle;
  const capacity = v?.capacity_t != null ? `${formatNumber(v.capacity_t)} т` : null;
  const volume = v?.volume_m3 != null ? `${formatNumber(v.volume_m3)} м³` : null;
  pdf.boxes([
    { caption: 'Тип, марка', value: joined([v?.body_type ? BODY_TYPE_LABELS[v.body_type] : null, v?.make, v?.model], ' '), share: 2 },
    { caption: 'Грузоподъёмность, т', value: capacity },
    { caption: 'Вместимость, м³', value: volume },
    { caption: 'Регистрационный номер', value: v?.plate, bold: true },
  ]);
  const t = v?.trailer;
  pdf.boxes([
    { caption: 'Прицеп: тип, марка', value: joined([t?.type, t?.make], ' '), share: 2 },
    { caption: 'Грузоподъёмность прицепа, т', value: t?.capacity_t != null ? `${formatNumber(t.capacity_t)} т` : null },
    { caption: 'Вместимость прицепа, м³', value: t?.volume_m3 != null ? `${formatNumber(t.volume_m3)} м³` : null },
    { caption: 'Прицеп, номер', value: v?.trailer_plate },
  ]);
  pdf.boxes([
    { caption: 'Тип владения', value: v?.ownership ? OWNERSHIP_LABELS[v.ownership] : null },
    { caption: 'Реквизиты документа — основания владения (кроме собственности)', value: v?.ownership_document, share: 3 },
  ]);
  // The trailer is held on its own (a leased truck may pull its own trailer): its row only when there is one.
  if (v?.trailer_plate) {
    pdf.boxes([
      { caption: 'Тип владения прицепом', value: t?.ownership ? OWNERSHIP_LABELS[t.ownership] : null },
      { caption: 'Реквизиты документа — основания владения прицепом (кроме собственности)', value: t?.ownership_document, share: 3 },
    ]);
  }

  handover(pdf, f, 'loading', zone);
  pdf.boxes([
    { caption: 'Грузоотправитель: должность, подпись, расшифровка подписи', value: f.shipper_signatory, lines: 3 },
    { caption: 'Водитель, принявший груз: подпись, расшифровка подписи', value: f.driver?.name, lines: 3 },
  ]);

  pdf.section(section(9));
  const r = f.readdressing;
  pdf.boxes([
    { caption: 'Дата, форма переадресовки (устно или письменно)', value: joined([date(r?.date, zone), r?.form]) },
    { caption: 'Адрес нового пункта выгрузки, дата и время подачи под выгрузку', value: r?.address, share: 2 },
  ]);
  pdf.boxes([{ caption: 'При изменении получателя груза — реквизиты нового получателя', value: r?.new_consignee }]);

  handover(pdf, f, 'unloading', zone);
  const a = f.acceptance;
  const receiver =
    a?.kind === 'refused'
      ? joined([a.receiver_name, `отказ от подписи: ${a.refused_reason ?? 'причина не указана'}`])
      : a?.kind === 'signed'
        ? joined([a.receiver_position, a.receiver_name, dateTime(a.at, zone)])
        : null;
  pdf.boxes([
    { caption: 'Грузополучатель: должность, подпись, расшифровка подписи', value: receiver, image: a?.kind === 'signed' ? signature : null, imageHeight: 36, lines: 3 },
    { caption: 'Водитель, сдавший груз: подпись, расшифровка подписи', value: f.driver?.name, lines: 3 },
  ]);

  pdf.section(section(11));
  pdf.boxes([{ caption: 'Краткое описание обстоятельств, послуживших основанием для отметки, сведения о коммерческих и иных актах', value: joined(f.remarks ?? [], '; '), lines: 2 }]);
  pdf.boxes([
    { caption: 'Расчёт и размер штрафа', share: 2 },
    { caption: 'Подпись, дата' },
  ]);

  pdf.section(section(12));
  const p = f.price;
  pdf.boxes([
    { caption: 'Стоимость перевозки без налога — всего', value: money(p?.amount_without_vat) },
    { caption: 'Налоговая ставка', value: p?.vat_rate },
    { caption: 'Сумма налога, предъявляемая покупателю', value: money(p?.vat) },
    { caption: 'Стоимость перевозки с налогом — всего', value: money(p?.amount_with_vat), bold: true },
  ]);
  pdf.boxes([
    { caption: 'Порядок (механизм) расчёта (исчислений) платы', value: p?.calculation, share: 3 },
    { caption: 'Подпись, дата', lines: 2 },
  ]);
}
