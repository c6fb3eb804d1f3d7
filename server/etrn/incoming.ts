/**
 * A title another party made: the shipper's Т1 or the consignee's Т3 (docs/documents.md «Received titles»). Its
 * kind is read from `Документ/@КНД`, it is checked against that title's official schema, and the facts we compare
 * and link by are taken out of it; `compareIncoming` lists every fact that is not ours. No database here.
 */
import type { IncomingDifference } from '../../contract/calls/papers.ts';
import { plateCharacters } from '../../contract/plates.ts';
import type { PartyFacts, WaybillFacts } from './facts.ts';
import { all, find, parseXml, schemaProblem, type XmlNode } from './read.ts';
import { formatDecimal } from './titles.ts';

export type IncomingKind = 't1' | 't3';

/** What a received title says, as far as linking and comparing need. Masses in tonnes. */
export interface IncomingFacts {
  title: IncomingKind;
  fileId: string;
  /** The file's header: YYYY-MM-DD and hh:mm:ss. */
  date: string;
  time: string;
  /** Т1: the waybill's number and date (YYYY-MM-DD). */
  number: string | null;
  waybillDate: string | null;
  /** Т3 carries the УИД ТрН. */
  uid: string | null;
  shipper: IncomingParty | null;
  consignee: IncomingParty | null;
  carrier: IncomingParty | null;
  cargo: string | null;
  massT: number | null;
  plate: string | null;
  trailerPlate: string | null;
  driver: string | null;
  loading: string | null;
  unloading: string | null;
  /** The day the loading (Т1) or the receipt (Т3) happened, YYYY-MM-DD: the trip's day when linking by vehicle. */
  day: string | null;
}

export interface IncomingParty {
  name: string | null;
  inn: string | null;
}

/** The file cannot be taken: the detail says why, in Russian. */
export class IncomingRefused extends Error {}

/** Each title by its КНД: what it is, and the same «of» (for «схема … для …»). */
const KINDS: Record<string, { title: IncomingKind | null; what: string; of: string }> = {
  '1110339': { title: 't1', what: 'титул грузоотправителя (Т1)', of: 'титула грузоотправителя (Т1)' },
  '1110340': { title: null, what: 'титул перевозчика о приёме груза (Т2)', of: '' },
  '1110341': { title: 't3', what: 'титул грузополучателя (Т3)', of: 'титула грузополучателя (Т3)' },
  '1110342': { title: null, what: 'титул перевозчика о выдаче груза (Т4)', of: '' },
};

/** DD.MM.YYYY (or the date part of DD.MM.YYYYThh:mm:ss±hh:mm) → YYYY-MM-DD. */
const isoDate = (text: string | undefined): string | null => {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})/.exec(text ?? '');
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
};

const fio = (node: XmlNode | null): string | null => {
  if (!node) return null;
  const words = [node.attrs['Фамилия'], node.attrs['Имя'], node.attrs['Отчество']].filter((w): w is string => !!w && w.trim() !== '');
  return words.length ? words.join(' ') : null;
};

/** A participant (УчастникТрНТип): its name or ФИО and ИНН, whichever kind of participant it is. */
function party(node: XmlNode | null): IncomingParty | null {
  const who = find(node, 'ИдСв', '*');
  if (!who) return null;
  return { name: who.attrs['НаимОрг'] ?? fio(find(who, 'ФИО')), inn: who.attrs['ИННЮЛ'] ?? who.attrs['ИННФЛ'] ?? null };
}

/** An address (АдресПользТип / АдресТип) as text: the free text, or the structured parts joined. */
function address(node: XmlNode | null): string | null {
  if (!node) return null;
  const free = find(node, 'АдресИнф') ?? find(node, 'АдрИнф');
  if (free?.attrs['АдрТекст']) return free.attrs['АдрТекст'];
  const rf = find(node, 'АдресРФ') ?? find(node, 'АдрРФ');
  if (rf) return Object.entries(rf.attrs).filter(([k]) => k !== 'КодРегион').map(([, v]) => v).join(', ') || null;
  return node.attrs['АдрКоммент'] ?? null;
}

const kg = (text: string | undefined): number | null => (text !== undefined && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) / 1000 : null);

function t1Facts(file: XmlNode, doc: XmlNode): IncomingFacts {
  const content = find(doc, 'СодИнфГО');
  const loading = find(content, 'СвПогруз');
  const cargo = all(find(content, 'СвГруз'), 'ОпГруз');
  const masses = cargo.map((c) => kg(find(c, 'ПлМасГруз')?.attrs['МасБрутЗнач']));
  const declared = masses.every((m) => m !== null) && masses.length > 0 ? masses.reduce((a: number, b) => a + (b ?? 0), 0) : null;
  const vehicle = find(content, 'СвТС');
  return {
    title: 't1',
    fileId: file.attrs['ИдФайл'] ?? '',
    date: isoDate(doc.attrs['ДатИнфГО']) ?? '',
    time: doc.attrs['ВрИнфГО'] ?? '',
    number: content?.attrs['НомерТрН'] ?? null,
    waybillDate: isoDate(content?.attrs['ДатаТрН']),
    uid: null,
    shipper: party(find(content, 'СвГО', 'РекИдентГО')),
    consignee: party(find(content, 'СвГП', 'РекИдентГП')),
    carrier: party(find(content, 'СвПер')),
    cargo: cargo.map((c) => c.attrs['НаимГруз']).filter(Boolean).join('; ') || null,
    // The mass shipped at loading, else the cargo's declared gross mass.
    massT: kg(loading?.attrs['МасБрутОтгр']) ?? declared,
    plate: find(vehicle, 'ТС')?.attrs['РегНомер'] ?? null,
    trailerPlate: find(vehicle, 'Прицеп')?.attrs['РегНомер'] ?? null,
    driver: fio(find(find(content, 'СвВодит'), 'ФИО')),
    loading: address(find(loading, 'ФАдресПогр')),
    unloading: address(find(content, 'СвГП', 'АдресДостГр')),
    day: isoDate(loading?.attrs['ФДатВрПриб']) ?? isoDate(content?.attrs['ДатаТрН']),
  };
}

function t3Facts(file: XmlNode, doc: XmlNode): IncomingFacts {
  const content = find(doc, 'СодИнфГП');
  const receipt = find(content, 'ПриемГрузГП');
  const lines = all(receipt, 'СвПринПоНаим');
  return {
    title: 't3',
    fileId: file.attrs['ИдФайл'] ?? '',
    date: isoDate(doc.attrs['ДатИнфГП']) ?? '',
    time: doc.attrs['ВрИнфГП'] ?? '',
    number: null,
    waybillDate: null,
    uid: content?.attrs['УИД_ТрН'] ?? null,
    shipper: null,
    consignee: null,
    carrier: null,
    cargo: lines.map((l) => l.attrs['НаимГруз']).filter(Boolean).join('; ') || null,
    massT: kg(receipt?.attrs['МасБрутЗначПрием']),
    plate: null,
    trailerPlate: null,
    driver: null,
    loading: null,
    unloading: address(find(receipt, 'АдрВыгруз')),
    day: isoDate(receipt?.attrs['ФДатВрПриб']),
  };
}

/**
 * The file's title and facts: 400-worthy refusals (IncomingRefused) for a file that is not XML, not a Т1 or Т3
 * (a carrier's own title, another document) or not valid against its title's schema — naming xmllint's first
 * complaint with its line.
 */
export async function readIncoming(bytes: Buffer): Promise<IncomingFacts> {
  if (bytes.length === 0) throw new IncomingRefused('Файл пуст');
  const parsed = await parseXml(bytes);
  if (!parsed.ok) throw new IncomingRefused(`Файл не является XML: ${parsed.problem}`);
  const file = parsed.root;
  const doc = find(file, 'Документ');
  const knd = doc?.attrs['КНД'];
  const kind = knd ? KINDS[knd] : undefined;
  if (file.name !== 'Файл' || !doc || !kind) {
    throw new IncomingRefused(`Это не титул ЭТрН грузоотправителя (Т1) или грузополучателя (Т3): ${knd ? `код документа по КНД ${knd}` : 'нет элемента Файл/Документ с кодом КНД'}`);
  }
  if (!kind.title) throw new IncomingRefused(`Это ${kind.what} — его готовит перевозчик; загружают титул грузоотправителя (Т1) или грузополучателя (Т3)`);
  const problem = await schemaProblem(kind.title, bytes);
  if (problem) throw new IncomingRefused(`Файл не соответствует схеме ФНС (формат 5.01) для ${kind.of}: ${problem}`);
  return kind.title === 't1' ? t1Facts(file, doc) : t3Facts(file, doc);
}

/** Text compared as people mean it: case, spaces, quotes and ё aside. */
export const sameText = (a: string, b: string): boolean => {
  const norm = (s: string) => s.toLowerCase().replaceAll('ё', 'е').replace(/[«»"'„“”]/g, '').replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
};

export const plateKey = (plate: string): string => plateCharacters(plate);

const partyText = (p: { name: string | null; inn: string | null } | null): string | null => {
  if (!p || (!p.name && !p.inn)) return null;
  return [p.name, p.inn ? `ИНН ${p.inn}` : null].filter(Boolean).join(', ');
};

const ourName = (p: PartyFacts | null): string | null => (p ? (p.name ?? (p.person ? [p.person.last, p.person.first, p.person.middle].filter(Boolean).join(' ') : null)) : null);

const tonnes = (t: number) => `${formatDecimal(t, 3).replace('.', ',')} т`;

/**
 * Every fact of the received title that differs from ours, in the order the panel shows them. A fact the file does
 * not give is not compared; one we lack while the file gives it is a difference (ours null). Parties are the same
 * when their ИНН is (names are written in many ways), masses when they agree to the kilogram, plates once
 * normalised, names and places as text without case, quotes and extra spaces.
 */
export function compareIncoming(theirs: IncomingFacts, ours: WaybillFacts): IncomingDifference[] {
  const out: IncomingDifference[] = [];
  const add = (field: string, label: string, t: string | null, o: string | null) => out.push({ field, label, theirs: t, ours: o });

  const parties: [string, string, IncomingParty | null, PartyFacts | null][] = [
    ['shipper', 'Грузоотправитель', theirs.shipper, ours.shipper],
    ['consignee', 'Грузополучатель', theirs.consignee, ours.consignee],
    ['carrier', 'Перевозчик', theirs.carrier, ours.carrier],
  ];
  for (const [field, label, t, o] of parties) {
    if (!t?.inn) continue;
    if (t.inn !== o?.inn) add(field, label, partyText(t), partyText(o ? { name: ourName(o), inn: o.inn } : null));
  }
  if (theirs.cargo && !(ours.cargo.name && sameText(theirs.cargo, ours.cargo.name))) add('cargo', 'Груз', theirs.cargo, ours.cargo.name);
  const ourMass = theirs.title === 't1' ? (ours.massAcceptedT ?? ours.cargo.massT) : (ours.massHandedOverT ?? ours.massAcceptedT);
  if (theirs.massT !== null && (ourMass === null || Math.round(theirs.massT * 1000) !== Math.round(ourMass * 1000))) {
    add('mass', theirs.title === 't1' ? 'Масса груза' : 'Масса принятого груза', tonnes(theirs.massT), ourMass === null ? null : tonnes(ourMass));
  }
  if (theirs.title === 't1') {
    const ourPlate = ours.vehicle?.plate ?? null;
    if (theirs.plate && !(ourPlate && plateKey(theirs.plate) === plateKey(ourPlate))) add('vehicle', 'Машина (госномер)', theirs.plate, ourPlate);
    const ourTrailer = ours.vehicle?.trailer?.plate ?? null;
    if ((theirs.trailerPlate ?? null) !== null || ourTrailer !== null) {
      if (!(theirs.trailerPlate && ourTrailer && plateKey(theirs.trailerPlate) === plateKey(ourTrailer))) add('trailer', 'Прицеп', theirs.trailerPlate, ourTrailer);
    }
    const ourDriver = ours.driver?.name ? [ours.driver.name.last, ours.driver.name.first, ours.driver.name.middle].filter(Boolean).join(' ') : null;
    if (theirs.driver && !(ourDriver && sameText(theirs.driver, ourDriver))) add('driver', 'Водитель', theirs.driver, ourDriver);
    const ourLoading = ours.loading?.address ?? null;
    if (theirs.loading && !(ourLoading && sameText(theirs.loading, ourLoading))) add('loading', 'Место погрузки', theirs.loading, ourLoading);
  }
  const ourUnloading = ours.unloading?.address ?? null;
  if (theirs.unloading && !(ourUnloading && sameText(theirs.unloading, ourUnloading))) add('unloading', 'Место выгрузки', theirs.unloading, ourUnloading);
  return out;
}
