/**
 * The papers (server/pdf/, docs/pdf.md) read back as a person's PDF reader would: rendered, then turned to text by
 * Debian's `pdftotext` (poppler-utils; .ci/run installs it) and their images listed by `pdfimages`. The parties,
 * ИНН, plate, times and quantities must be there in Cyrillic; a missing fact leaves its box empty without failing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Acceptance, Timeline, TripFacts } from '../../contract/trips.ts';
import { PdfDoc } from '../../server/pdf/document.ts';
import type { PdfParty, PodFacts, WaybillFacts } from '../../server/pdf/facts.ts';
import { renderPod } from '../../server/pdf/pod.ts';
import { renderWaybill, renderWaybills, WAYBILL_SECTIONS } from '../../server/pdf/waybill.ts';

let dir: string;
let count = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reis-pdf-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function save(pdf: Buffer): string {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const file = join(dir, `${++count}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

/** The PDF's text, its white space made single (a box may wrap a value over two lines). */
function textOf(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', save(pdf), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** The pictures drawn (an alpha channel's mask is not one). */
function imagesOf(pdf: Buffer): number {
  const list = execFileSync('pdfimages', ['-list', save(pdf)], { encoding: 'utf8' }).split('\n').slice(2);
  return list.filter((line) => line.trim().split(/\s+/)[2] === 'image').length;
}

/** The text as laid out on the page: its lines, blank ones dropped, spaces inside a line made single. */
function linesOf(pdf: Buffer): string[] {
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', save(pdf), '-'], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '');
}

/** The line above a row of captions: what is written in that row's boxes (or the section's title when none is). */
function above(lines: string[], caption: string): string | undefined {
  const at = lines.findIndex((line) => line.includes(caption));
  expect(at, caption).toBeGreaterThan(0);
  return lines[at - 1];
}

/** A missing fact is left out, never written as what the code held for it. */
function expectNoPlaceholders(text: string): void {
  for (const junk of ['null', 'undefined', 'NaN', 'Invalid']) expect(text).not.toContain(junk);
}

function pagesOf(pdf: Buffer): number {
  const info = execFileSync('pdfinfo', [save(pdf)], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

const CARRIER: PdfParty = {
  name: 'ООО «Быстрый Самосвал»',
  full_name: 'Общество с ограниченной ответственностью «Быстрый Самосвал»',
  legal_form: 'ul',
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  address: 'г. Москва, ул. Вавилова, д. 19',
  phone: '+7 495 500-55-50',
};
const SHIPPER: PdfParty = { name: 'АО «Гранитный карьер»', legal_form: 'ul', inn: '5024002119', kpp: '502401001', address: 'Московская обл., пос. Карьерный' };
const CONSIGNEE: PdfParty = { name: 'ИП Сидорова Мария Павловна', legal_form: 'ip', inn: '500100732259', address: 'г. Химки, Ленинградское ш., 1' };

// 28.11.2026 in Moscow (UTC+3): 10:42, 11:05, 12:17, 12:58.
const TIMELINE: Timeline = {
  loading_arrived: { at: '2026-11-28T07:42:00Z', received_at: '2026-11-28T07:42:03Z', position: { lat: 55.91234, lon: 37.40211, accuracy: 12 }, source: 'auto', distance_m: 40 },
  loading_departed: { at: '2026-11-28T08:05:00Z', received_at: '2026-11-28T08:05:02Z', position: null, source: 'tap', distance_m: null },
  unloading_arrived: { at: '2026-11-28T09:17:00Z', received_at: '2026-11-28T09:40:00Z', position: { lat: 55.8897, lon: 37.4452, accuracy: 30 }, source: 'corrected', distance_m: 95 },
  unloading_departed: { at: '2026-11-28T09:58:00Z', received_at: '2026-11-28T09:58:01Z', position: null, source: 'tap', distance_m: null },
};
const SIGNED: Acceptance = {
  kind: 'signed',
  receiver_name: 'Петров Пётр Ильич',
  receiver_position: 'Прораб участка',
  signature_url: '/api/reports/41/signature',
  refused_reason: null,
  at: '2026-11-28T09:57:00Z',
  position: null,
  scope: 'trip',
};
const TRIP: TripFacts = {
  trip_uid: '3f6c1d2e-8a4b-4c5d-9e0f-112233445566',
  timeline: TIMELINE,
  waits: { loading_min: 23, unloading_min: 41, travel_min: 72, cycle_min: 150 },
  acceptance: SIGNED,
  after_the_fact: false,
};
const EMPTY_TIMELINE: Timeline = { loading_arrived: null, loading_departed: null, unloading_arrived: null, unloading_departed: null };
const NO_ACCEPTANCE: Acceptance = { kind: 'none', receiver_name: null, receiver_position: null, signature_url: null, refused_reason: null, at: null, position: null, scope: null };

let photoJpeg: Buffer;
let photoWebp: Buffer;
let signaturePng: Buffer;
beforeAll(async () => {
  const paper = { create: { width: 640, height: 480, channels: 3 as const, background: { r: 230, g: 225, b: 200 } } };
  photoJpeg = await sharp(paper).jpeg().toBuffer();
  photoWebp = await sharp(paper).webp().toBuffer();
  // A stroke on a transparent pad, as the phone's signature pad saves it.
  const stroke = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="150"><path d="M10 120 C 80 10, 160 140, 390 30" stroke="#123" stroke-width="4" fill="none"/></svg>');
  signaturePng = await sharp(stroke).png().toBuffer();
});

function podFacts(overrides: Partial<PodFacts> = {}): PodFacts {
  return {
    company: CARRIER,
    report_id: 41,
    task: { id: 7, date: '2026-11-28', cargo: 'Щебень гранитный 20–40', loading_place: 'Карьер «Северный»', unloading_place: 'Стройка ЖК «Сосны»', unit: 'т', customer: SHIPPER },
    driver: { name: 'Иванов Иван Иванович' },
    vehicle: { plate: 'А123ВС 77', make: 'КАМАЗ', model: '65115', body_type: 'dump_truck', trailer_plate: null },
    trip: TRIP,
    ticket_number: 'В-58213',
    loading_quantity: 24.5,
    unloading_quantity: 24.1,
    photos: [{ data: photoJpeg, caption: 'Талон взвешивания' }, { data: photoWebp, caption: 'Груз на выгрузке' }],
    signature: signaturePng,
    generated_at: '2026-11-28T10:30:00Z',
    ...overrides,
  };
}

describe('the document helper', () => {
  it('leaves a box with no value empty: only its caption is printed', async () => {
    const pdf = new PdfDoc({ title: 'Проба' });
    pdf.boxes([
      { caption: 'ИНН', value: null },
      { caption: 'КПП', value: '   ' },
      { caption: 'Госномер', value: undefined },
    ]);
    expect(textOf(await pdf.end()).trim()).toBe('ИНН КПП Госномер страница 1 из 1');
  });

  it('wraps a value wider than its box, even one unbroken word, keeping every letter', async () => {
    const pdf = new PdfDoc({ title: 'Проба' });
    pdf.boxes([{ caption: 'Причина отказа', value: 'Я'.repeat(400), share: 3 }, { caption: 'Получатель', value: 'Пётр Ильич' }]);
    const file = await pdf.end();
    expect(textOf(file).match(/Я/g)).toHaveLength(400);
    expect(pagesOf(file)).toBe(1);
  });

  it('breaks a long table across pages, numbering them', async () => {
    const pdf = new PdfDoc({ title: 'Проба' });
    pdf.table(
      [{ header: 'Рейс' }, { header: 'Водитель', share: 3 }],
      Array.from({ length: 120 }, (_, i) => [String(i + 1), `Водитель ${i + 1}`]),
    );
    const file = await pdf.end();
    const pages = pagesOf(file);
    expect(pages).toBeGreaterThan(1);
    const text = textOf(file);
    expect(text).toContain('Водитель 120');
    expect(text).toContain(`страница ${pages} из ${pages}`);
  });
});

describe('renderPod: the proof of delivery of a trip', () => {
  it('holds the carrier, the task, the four times, waits, ticket, quantities and the signed acceptance, in Cyrillic', async () => {
    const pdf = await renderPod(podFacts());
    const text = textOf(pdf);
    for (const fact of [
      'Подтверждение доставки груза',
      'Общество с ограниченной ответственностью «Быстрый Самосвал»',
      '7707083893',
      '773601001',
      'АО «Гранитный карьер»',
      'Щебень гранитный 20–40',
      'Карьер «Северный»',
      'Стройка ЖК «Сосны»',
      'Иванов Иван Иванович',
      'А123ВС 77',
      'Прибыл на погрузку',
      'Выехал с выгрузки',
      '10:42',
      '11:05',
      '12:17',
      '12:58',
      'автоматически по геозоне',
      '55.91234, 37.40211 (±12 м)',
      '23 мин',
      '1 ч 12 мин',
      '41 мин',
      'В-58213',
      '24,5 т',
      '24,1 т',
      '-0,4 т',
      'Петров Пётр Ильич',
      'Прораб участка',
      'Талон взвешивания',
      'Груз на выгрузке',
    ]) {
      expect(text, fact).toContain(fact);
    }
    expect(text).not.toContain('задним числом');
    const lines = linesOf(pdf);
    expect(above(lines, 'Талон взвешивания №')).toBe('В-58213 24,5 т 24,1 т -0,4 т');
    // Two photos (one of them WebP, re-encoded) and the signature.
    expect(imagesOf(pdf)).toBe(3);
  });

  it('says the receiver refused, with the reason, and a trip entered after the fact', async () => {
    const refused: Acceptance = { ...NO_ACCEPTANCE, kind: 'refused', receiver_name: 'Охранник', refused_reason: 'Нет доверенности на приёмку', at: '2026-11-28T09:57:00Z' };
    const pdf = await renderPod(podFacts({ trip: { ...TRIP, acceptance: refused, after_the_fact: true }, signature: null }));
    const text = textOf(pdf);
    expect(text).toContain('Получатель отказался подписать');
    expect(text).toContain('Нет доверенности на приёмку');
    expect(text).toContain('Рейс внесён задним числом');
    expect(imagesOf(pdf)).toBe(2);
  });

  it('renders with every optional fact missing, leaving boxes empty, and an unreadable photo left out', async () => {
    const pdf = await renderPod(
      podFacts({
        company: { name: 'ООО «Без реквизитов»' },
        task: { id: 8, date: '2026-11-28', cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Объект', unit: 'м³' },
        vehicle: null,
        trip: { trip_uid: null, timeline: EMPTY_TIMELINE, waits: { loading_min: null, unloading_min: null, travel_min: null, cycle_min: null }, acceptance: NO_ACCEPTANCE, after_the_fact: false },
        ticket_number: null,
        loading_quantity: null,
        unloading_quantity: null,
        photos: [{ data: Buffer.from('not a picture at all') }],
        signature: null,
      }),
    );
    const text = textOf(pdf);
    expect(text).toContain('ООО «Без реквизитов»');
    expect(text).toContain('Фото 1 (файл не читается)');
    // The captions are there with nothing written in their boxes: the line above them is the section's title.
    const lines = linesOf(pdf);
    expect(above(lines, 'Талон взвешивания №')).toBe('Количество');
    expect(above(lines, 'Получатель (ФИО)')).toBe('Приёмка груза получателем');
    expect(above(lines, 'Госномер')).toBe('Иванов Иван Иванович');
    expectNoPlaceholders(text);
    expect(imagesOf(pdf)).toBe(0);
  });
});

function waybillFacts(overrides: Partial<WaybillFacts> = {}): WaybillFacts {
  return {
    number: '2026-0041',
    date: '2026-11-28',
    order: { number: 'З-17', date: '2026-11-27' },
    shipper: SHIPPER,
    consignee: CONSIGNEE,
    cargo: { name: 'Щебень гранитный 20–40', packaging: 'навалом', quantity: 25, unit: 'т' },
    documents: ['Паспорт качества № 118'],
    carrier: CARRIER,
    driver: { name: 'Иванов Иван Иванович', inn: '771234567897', licence: '77 12 345678 от 01.02.2020' },
    vehicle: { plate: 'А123ВС 77', make: 'КАМАЗ', model: '65115', body_type: 'dump_truck', ownership: 'leasing', ownership_document: 'Договор лизинга № Л-5 от 10.01.2025', capacity_t: 25, volume_m3: 16, trailer_plate: null },
    loading: { address: 'Московская обл., пос. Карьерный, карьер «Северный»', quantity: 24.5 },
    unloading: { address: 'г. Химки, ЖК «Сосны», корпус 3', quantity: 24.1 },
    timeline: TIMELINE,
    ticket_number: 'В-58213',
    acceptance: SIGNED,
    signature: signaturePng,
    price: { amount_without_vat: 18_500, vat_rate: '20 %', vat: 3_700, amount_with_vat: 22_200, calculation: '740 руб. за тонну' },
    ...overrides,
  };
}

describe('renderWaybill: the paper transport waybill', () => {
  it('has the form’s twelve sections and the trip’s parties, ИНН, vehicle, times and quantities', async () => {
    const pdf = await renderWaybill(waybillFacts());
    const text = textOf(pdf);
    expect(text).toContain('ТРАНСПОРТНАЯ НАКЛАДНАЯ');
    for (const title of WAYBILL_SECTIONS) expect(text, title).toContain(title);
    for (const fact of [
      '2026-0041',
      'АО «Гранитный карьер»',
      '5024002119',
      'ИП Сидорова Мария Павловна',
      '500100732259',
      'Общество с ограниченной ответственностью «Быстрый Самосвал»',
      '7707083893',
      'Иванов Иван Иванович',
      '771234567897',
      'Самосвал КАМАЗ 65115',
      'А123ВС 77',
      'Лизинг',
      'Договор лизинга № Л-5 от 10.01.2025',
      'Щебень гранитный 20–40',
      'Паспорт качества № 118; Талон взвешивания № В-58213',
      '28.11.2026 10:42',
      '28.11.2026 11:05',
      '28.11.2026 12:17',
      '28.11.2026 12:58',
      '24,5 т',
      '24,1 т',
      'Прораб участка, Петров Пётр Ильич',
      '22 200,00 руб.',
    ]) {
      expect(text.replace(/\u00a0|\u202f/g, ' '), fact).toContain(fact);
    }
    expect(above(linesOf(pdf), 'Регистрационный номер')).toBe('Самосвал КАМАЗ 65115 25 т 16 м³ А123ВС 77');
    expect(imagesOf(pdf)).toBe(1);
  });

  it('prints the form with empty boxes when the facts are missing', async () => {
    const pdf = await renderWaybill({
      number: null,
      date: null,
      shipper: null,
      consignee: { name: 'ООО «Получатель»' },
      cargo: { name: null },
      carrier: null,
      driver: null,
      vehicle: null,
      loading: { address: null },
      unloading: { address: null },
    });
    const text = textOf(pdf);
    for (const title of WAYBILL_SECTIONS) expect(text, title).toContain(title);
    expect(text).toContain('ООО «Получатель»');
    // No vehicle, no shipper: their boxes are empty, the line above their captions is the section's title.
    const lines = linesOf(pdf);
    expect(above(lines, 'Регистрационный номер')).toBe('7. Транспортное средство');
    expect(above(lines, 'Наименование (ФИО) грузоотправителя')).toBe('1. Грузоотправитель');
    expect(above(lines, 'Наименование (ФИО) грузополучателя')).toBe('ООО «Получатель»');
    expectNoPlaceholders(text);
    expect(imagesOf(pdf)).toBe(0);
  });

  it('writes a refusal to sign into the delivery section', async () => {
    const refused: Acceptance = { ...NO_ACCEPTANCE, kind: 'refused', receiver_name: 'Охранник', refused_reason: 'Нет доверенности' };
    const text = textOf(await renderWaybill(waybillFacts({ acceptance: refused, signature: null })));
    expect(text).toContain('Охранник, отказ от подписи: Нет доверенности');
  });

  it('puts a batch of three in one PDF, each waybill from its own page with its own sheet count', async () => {
    const numbers = ['2026-0041', '2026-0042', '2026-0043'];
    const pdf = await renderWaybills(numbers.map((number) => waybillFacts({ number })));
    const text = textOf(pdf);
    expect(text.match(/ТРАНСПОРТНАЯ НАКЛАДНАЯ/g)).toHaveLength(3);
    for (const number of numbers) expect(text).toContain(`ТН № ${number} · лист 1 из`);
    const pages = pagesOf(pdf);
    expect(pages % 3).toBe(0);
    expect(text).toContain(`страница ${pages} из ${pages}`);
  });
});
