/**
 * The customer's papers as PDF (issue 34 §2; docs/statements.md), drawn with the one helper (server/pdf/document.ts):
 * the statement of trips, the act («Акт оказанных услуг») and the invoice («Счёт на оплату»). Pure: the statement
 * or the frozen act in, bytes out.
 */
import { amountInWords, type Invoice, type InvoiceParty, type Statement, type StatementTrip } from '../../contract/statements.ts';
import { formatNumber } from '../../contract/words.ts';
import { PdfDoc, type Column } from '../pdf/document.ts';
import { waybillNumberOf } from '../../contract/waybill.ts';
import { date, minutes, money, partyLine } from '../pdf/format.ts';

const num = (n: number | null | undefined): string => (n == null ? '' : formatNumber(n));
const rub = (n: number): string => money(n) ?? '';
const period = (from: string, to: string) => `${date(from) ?? from} – ${date(to) ?? to}`;
/** A trip on the paper: its waybill's number (the ТН the customer holds, «ТН № 14-5») and the weighbridge ticket. */
export const tripName = (t: Pick<StatementTrip, 'ticket_number' | 'report_id' | 'task_id'>): string =>
  [`ТН № ${waybillNumberOf(t.task_id, t.report_id)}`, t.ticket_number ? `талон ${t.ticket_number}` : null].filter(Boolean).join(', ');

const TRIP_COLUMNS: Column[] = [
  { header: 'Дата', share: 1.1 },
  { header: 'ТН / талон', share: 1.3 },
  { header: 'Машина', share: 1.1 },
  { header: 'Водитель', share: 1.5 },
  { header: 'Груз', share: 1.3 },
  { header: 'Маршрут', share: 1.9 },
  { header: 'Погр.', share: 0.8, align: 'right' },
  { header: 'Выгр.', share: 0.8, align: 'right' },
  { header: 'Кол-во', share: 0.9, align: 'right' },
  { header: 'Получатель', share: 1.4 },
  { header: 'Простой', share: 1.2 },
  { header: 'Сумма, руб.', share: 1.3, align: 'right' },
];

function tripRow(t: StatementTrip): string[] {
  return [
    date(t.date) ?? t.date,
    tripName(t),
    t.vehicle ?? '',
    t.driver,
    t.cargo,
    `${t.loading_place} → ${t.unloading_place}`,
    num(t.loaded),
    num(t.unloaded),
    `${num(t.quantity)} ${t.unit}`,
    [t.receiver, t.signed ? 'подписал' : t.refused ? 'отказался' : 'нет подписи'].filter(Boolean).join(', '),
    waitingText(t),
    t.price === null ? 'нет цены' : rub(t.amount).replace(' руб.', ''),
  ];
}

/** The trip's waiting, and what of it is billed: «1 ч 35 мин, к оплате 35 мин: 291,67». */
function waitingText(t: StatementTrip): string {
  const billed = t.waiting && t.waiting.billed_min > 0 ? `к оплате ${minutes(t.waiting.billed_min)}: ${rub(t.waiting.amount).replace(' руб.', '')}` : null;
  return [minutes(t.waiting_min), billed].filter(Boolean).join(', ');
}

export async function renderStatementPdf(statement: Statement, seller: InvoiceParty): Promise<Buffer> {
  const pdf = new PdfDoc({ title: `Реестр рейсов — ${statement.counterparty.name}, ${period(statement.from, statement.to)}` });
  pdf.title('Реестр рейсов', `за период ${period(statement.from, statement.to)}`);
  pdf.text(`Исполнитель: ${partyLine(seller) ?? seller.name}`);
  pdf.text(`Заказчик: ${statement.counterparty.name}${statement.counterparty.inn ? `, ИНН ${statement.counterparty.inn}` : ''}`);
  pdf.space(6);
  pdf.section(`Принятые рейсы: ${statement.total.trips}`);
  if (statement.trips.length > 0) pdf.table(TRIP_COLUMNS, statement.trips.map(tripRow));
  else pdf.text('Принятых рейсов за период нет.');
  pdf.space(6);
  pdf.section('Итоги по дням');
  pdf.table(
    [{ header: 'Дата', share: 2 }, { header: 'Рейсов', align: 'right' }, { header: 'Количество', align: 'right', share: 1.5 }, { header: 'Сумма, руб.', align: 'right', share: 2 }],
    statement.by_day.map((g) => [date(g.key) ?? g.key, String(g.trips), num(g.quantity), rub(g.amount)]),
  );
  pdf.space(6);
  pdf.section('Итоги по грузам');
  pdf.table(
    [{ header: 'Груз, единица', share: 2 }, { header: 'Рейсов', align: 'right' }, { header: 'Количество', align: 'right', share: 1.5 }, { header: 'Сумма, руб.', align: 'right', share: 2 }],
    statement.by_cargo.map((g) => [g.key, String(g.trips), num(g.quantity), rub(g.amount)]),
  );
  pdf.space(6);
  const { total } = statement;
  if (total.waiting > 0) pdf.text(`Перевозка: ${rub(total.carriage)}; простой сверх нормы: ${num(total.waiting_hours)} ч, ${rub(total.waiting)}`);
  pdf.text(`Итого: рейсов ${total.trips}, количество ${num(total.quantity)}, сумма ${rub(total.amount)}`, { bold: true });
  pdf.text(amountInWords(statement.total.amount));
  if (statement.unpriced > 0) pdf.text(`Рейсов без цены: ${statement.unpriced} (посчитаны по 0 руб.)`, { color: '#a00000' });
  if (statement.under_review.length > 0) {
    pdf.space(8);
    pdf.section(`На проверке (не входят в итог): ${statement.under_review.length}`);
    pdf.table(TRIP_COLUMNS, statement.under_review.map(tripRow));
  }
  return pdf.end();
}

function parties(pdf: PdfDoc, invoice: Invoice, sellerCaption: string, buyerCaption: string): void {
  pdf.boxes([{ caption: sellerCaption, value: partyLine(invoice.seller), share: 1 }]);
  pdf.boxes([{ caption: buyerCaption, value: partyLine(invoice.buyer), share: 1 }]);
  pdf.space(6);
}

function lines(pdf: PdfDoc, invoice: Invoice): void {
  pdf.table(
    [
      { header: '№', share: 0.4, align: 'right' },
      { header: 'Наименование услуги', share: 4 },
      { header: 'Кол-во', share: 1, align: 'right' },
      { header: 'Ед.', share: 0.6 },
      { header: 'Цена, руб.', share: 1.2, align: 'right' },
      { header: 'Сумма, руб.', share: 1.4, align: 'right' },
    ],
    invoice.lines.map((l, i) => [
      String(i + 1),
      l.kind === 'waiting'
        ? `Простой сверх нормы (${minutes(l.free_minutes) ?? '0 мин'} бесплатно на погрузке и на выгрузке), груз «${l.cargo}», маршрут ${l.loading_place} → ${l.unloading_place} (рейсов: ${l.trips})`
        : `Перевозка груза «${l.cargo}» по маршруту ${l.loading_place} → ${l.unloading_place} (рейсов: ${l.trips})`,
      num(l.quantity),
      l.unit,
      rub(l.price).replace(' руб.', ''),
      rub(l.amount).replace(' руб.', ''),
    ]),
  );
  pdf.space(4);
  pdf.text(`Итого: ${rub(invoice.total)}`, { bold: true, align: 'right' });
  pdf.text(invoice.vat_rate === null ? 'Без НДС' : `В том числе НДС ${invoice.vat_rate}%: ${rub(invoice.vat)}`, { align: 'right' });
  pdf.text(`Всего к оплате: ${rub(invoice.total)}`, { bold: true, align: 'right' });
  pdf.space(4);
  pdf.text(`Всего наименований ${invoice.lines.length}, на сумму ${rub(invoice.total)}`);
  pdf.text(amountInWords(invoice.total), { bold: true });
}

function signatures(pdf: PdfDoc, left: string, right: string): void {
  pdf.space(18);
  pdf.boxes([
    { caption: left, value: null, lines: 2 },
    { caption: right, value: null, lines: 2 },
  ]);
}

const numbered = (invoice: Invoice) => `№ ${invoice.number} от ${date(invoice.issued_on) ?? invoice.issued_on}`;

export async function renderAct(invoice: Invoice): Promise<Buffer> {
  const pdf = new PdfDoc({ title: `Акт ${numbered(invoice)}` });
  pdf.title(`Акт оказанных услуг ${numbered(invoice)}`, `за период ${period(invoice.from, invoice.to)}`);
  if (invoice.corrects_id !== null) pdf.text('Исправленный акт: заменяет ранее выставленный акт по этому периоду.', { bold: true });
  if (invoice.state === 'corrected') pdf.text('Заменён исправленным актом.', { bold: true, color: '#a00000' });
  parties(pdf, invoice, 'Исполнитель', 'Заказчик');
  lines(pdf, invoice);
  pdf.space(6);
  pdf.text('Вышеперечисленные услуги выполнены полностью и в срок. Заказчик претензий по объёму, качеству и срокам оказания услуг не имеет.');
  signatures(pdf, 'Исполнитель (подпись, расшифровка)', 'Заказчик (подпись, расшифровка)');
  return pdf.end();
}

export async function renderInvoice(invoice: Invoice): Promise<Buffer> {
  const pdf = new PdfDoc({ title: `Счёт ${numbered(invoice)}` });
  pdf.title(`Счёт на оплату ${numbered(invoice)}`, `за перевозки ${period(invoice.from, invoice.to)}`);
  parties(pdf, invoice, 'Поставщик (исполнитель)', 'Покупатель (заказчик)');
  lines(pdf, invoice);
  pdf.space(6);
  pdf.text(`Основание: акт оказанных услуг ${numbered(invoice)}.`);
  signatures(pdf, 'Руководитель', 'Бухгалтер');
  return pdf.end();
}
