/**
 * The carrier's titles of the electronic transport waybill as ФНС XML (format 5.01, Приказ ЕД-7-26/1065@): the
 * shipper's Т1 as a draft the shipper signs on its side, the carrier's Т2 (cargo accepted) and Т4 (cargo handed
 * over). Each is a windows-1251 file whose name is its `ИдФайл`; each refuses (EtrnFactsMissing) while
 * missingFacts lists anything. The element tree follows the schemas in ./schemas/ and the example files of the
 * source they come from; tests/server/etrn.test.ts validates every title against them with libxml2's xmllint.
 */
import { randomUUID } from 'node:crypto';
import type { DriverSigned, EtrnTitle, FileRef, Moment, PartyFacts, PersonName, PlaceFacts, SignerFacts, VehicleUnitFacts, WaybillFacts } from './facts.ts';
import { EtrnFactsMissing, missingFacts } from './missing.ts';
import { el, encodeCp1251, serialize, type XmlElement } from './xml.ts';

export interface EtrnFile {
  /** The file's name without an extension: the same text as `Файл/@ИдФайл` (the format's rule). */
  fileName: string;
  /** The document as text, its declaration naming windows-1251. */
  xml: string;
  /** The document's bytes in windows-1251: what is saved, sent and validated. */
  bytes: Buffer;
}

export interface BuildOptions {
  /** When the file is made (its header's date and time, the name's date). Default: now. */
  now?: Date;
  /** The UTC offset the header's date and time are written in, minutes. Default: the server's own. */
  offsetMinutes?: number;
  /** The GUID closing the file name. Default: a random one. */
  guid?: string;
}

/** The ФНС prefix of each title's file name, its КНД code and its «по факту хозяйственной жизни» name. */
export const TITLE_FORMAT: Record<EtrnTitle, { prefix: string; knd: string; name: string }> = {
  t1: { prefix: 'ON_TRNACLGROT', knd: '1110339', name: 'Транспортная накладная, информация грузоотправителя' },
  t2: { prefix: 'ON_TRNACLPPRIN', knd: '1110340', name: 'Транспортная накладная, информация перевозчика о приеме груза' },
  t4: { prefix: 'ON_TRNACLPVYN', knd: '1110342', name: 'Транспортная накладная, информация перевозчика о выдаче груза грузополучателю' },
};

export const FORMAT_VERSION = '5.01';
export const PROGRAM_VERSION = 'Рейс 0.1';
const RUSSIA = '643';
/** ТипВлад: the ФНС codes of how the vehicle is held (2, joint property of spouses, is not a carrier's case). */
const OWNERSHIP_CODE = { own: '1', rent: '3', leasing: '4', free_use: '5' } as const;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD → DD.MM.YYYY. */
export function formatDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}.${m}.${y}`;
}

/** An instant in the place's local time with its offset: DD.MM.YYYYThh:mm:ss±hh:mm (ДатаВремяВЗТип). */
export function formatMoment(moment: Moment): string {
  const local = new Date(Date.parse(moment.at) + moment.offsetMinutes * 60_000);
  const iso = local.toISOString();
  const sign = moment.offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(moment.offsetMinutes);
  return `${formatDate(iso.slice(0, 10))}T${iso.slice(11, 19)}${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** A decimal with at most `digits` after the point, without trailing zeros or an exponent. */
export function formatDecimal(n: number, digits: number): string {
  const fixed = n.toFixed(digits);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** A coordinate as КоордТип wants it: 15–17 characters for the latitude, 15–18 for the longitude. */
export function formatCoordinate(n: number): string {
  const twelve = n.toFixed(12);
  return twelve.replace('-', '').length < 15 ? n.toFixed(13) : twelve;
}

/** Tonnes in Russian words' style: a decimal comma, up to three digits. */
const tonnes = (t: number) => `${formatDecimal(t, 3).replace('.', ',')} т`;

function header(options: BuildOptions): { date: string; time: string; stamp: string; guid: string } {
  const now = options.now ?? new Date();
  const offset = options.offsetMinutes ?? -now.getTimezoneOffset();
  const local = new Date(now.getTime() + offset * 60_000).toISOString();
  return {
    date: formatDate(local.slice(0, 10)),
    time: local.slice(11, 19),
    stamp: local.slice(0, 10).replaceAll('-', ''),
    guid: options.guid ?? randomUUID(),
  };
}

/**
 * The file name: the title's prefix, the ЭДО ids of the recipient, the sender and the third participant of the
 * chain, a flag, the date (YYYYMMDD) and a GUID — the shape of the format's example files. The meaning of the
 * third id and the flag is read from those examples, not from the order's text (docs/documents.md); a third
 * participant without an ЭДО id (a private person) is given the sender's, as the examples repeat an id.
 */
export function fileName(title: EtrnTitle, ids: { recipient: string; sender: string; third: string | null }, stamp: string, guid: string): string {
  return [TITLE_FORMAT[title].prefix, ids.recipient, ids.sender, ids.third ?? ids.sender, '0', stamp, guid].join('_');
}

const need = <T>(value: T | null | undefined): T => {
  if (value === null || value === undefined) throw new Error('etrn: a checked fact is absent');
  return value;
};

const fio = (name: PersonName) => el('ФИО', { Фамилия: name.last.trim(), Имя: name.first.trim(), Отчество: name.middle?.trim() || null });

/** ИдСв: the participant as a legal entity, an entrepreneur or a private person. */
function identity(party: PartyFacts): XmlElement {
  const inn = need(party.inn);
  if (party.legalForm === 'ul') return el('ИдСв', {}, [el('СвЮЛУч', { НаимОрг: need(party.name).trim(), ИННЮЛ: inn, КПП: party.kpp || null })]);
  if (party.legalForm === 'ip') return el('ИдСв', {}, [el('СвИП', { ИННФЛ: inn, ОГРНИП: party.ogrnip || null }, [fio(need(party.person))])]);
  return el('ИдСв', {}, [el('СвФЛУчаст', { ИННФЛ: inn }, [fio(need(party.person))])]);
}

const contact = (name: string, party: PartyFacts) =>
  el(name, {}, [el('Тлф', {}, [], need(party.phone).trim()), party.email?.trim() ? el('ЭлПочта', {}, [], party.email.trim()) : null]);

/** УчастникТрНТип: who the participant is, its address (free text, as the card holds it) and its contact. */
function participant(name: string, party: PartyFacts): XmlElement {
  const address = party.address?.trim();
  return el(name, {}, [identity(party), address ? el('Адрес', {}, [el('АдрИнф', { КодСтр: RUSSIA, АдрТекст: address })]) : null, contact('Контакт', party)]);
}

/** ИдРекСост: a party to a document by its ИНН. */
const innRef = (name: string, inn: string) => el(name, {}, [el(inn.length === 10 ? 'ИННЮЛ' : 'ИННФЛ', {}, [], inn)]);

/** АдресПользТип: a place by its point and address; the place's name is the address's comment. */
function placeAddress(name: string, place: PlaceFacts): XmlElement {
  const point = place.lat !== null && place.lon !== null ? el('Коорд', { Широта: formatCoordinate(place.lat), Долгота: formatCoordinate(place.lon) }) : null;
  return el(name, { АдрКоммент: place.name.trim() || null }, [point, el('АдресИнф', { КодСтр: RUSSIA, АдрТекст: need(place.address).trim() })]);
}

function unit(name: string, v: VehicleUnitFacts): XmlElement {
  const ownership = need(v.ownership);
  const lease = ownership === 'own' ? null : need(v.leaseDocument);
  return el(name, { РегНомер: need(v.plate).replace(/\s+/g, ''), ТипВлад: OWNERSHIP_CODE[ownership] }, [
    el('ПарТС', { Тип: need(v.type).trim(), Марка: need(v.make).trim(), Грузопод: formatDecimal(need(v.capacityT), 2), Вместим: formatDecimal(need(v.volumeM3), 2) }),
    lease ? el('ОснАрЛиз', { НаимДок: lease.name.trim(), НомерДок: lease.number.trim(), ДатаДок: formatDate(lease.date) }, [innRef('ИдРекСост', need(v.lessorInn))]) : null,
  ]);
}

function signer(s: SignerFacts): XmlElement {
  const poa = s.status === '2' ? need(s.powerOfAttorney) : null;
  return el('Подписант', { СтатПодп: s.status, Должн: s.position?.trim() || null }, [
    fio(need(s.name)),
    poa ? el('СвДовер', { ДатаДовер: formatDate(poa.date), НомерДовер: poa.number || null, ИдентДовер: poa.id }) : null,
  ]);
}

function finish(document: XmlElement, name: string): EtrnFile {
  const root = el('Файл', { ИдФайл: name, ВерсПрог: PROGRAM_VERSION, ВерсФорм: FORMAT_VERSION }, [document]);
  const xml = serialize(root);
  return { fileName: name, xml, bytes: encodeCp1251(xml) };
}

function refuseIfMissing(title: EtrnTitle, facts: WaybillFacts): void {
  const missing = missingFacts(title, facts);
  if (missing.length > 0) throw new EtrnFactsMissing(title, missing);
}

const refAttrs = (ref: FileRef, suffix: 'ГО' | 'ГП') => ({
  [`ИдФайлИнф${suffix}`]: ref.fileId,
  [`ДатФайлИнф${suffix}`]: formatDate(ref.date),
  [`ВрФайлИнф${suffix}`]: ref.time,
  ЭП: ref.signature.trim(),
});

/** The shipper's title (Т1) as a draft: the parties, the cargo, the vehicle and driver, the loading as it happened. */
export function buildT1Draft(facts: WaybillFacts, options: BuildOptions = {}): EtrnFile {
  refuseIfMissing('t1', facts);
  const h = header(options);
  const shipper = need(facts.shipper);
  const consignee = need(facts.consignee);
  const carrier = need(facts.carrier);
  const cargo = facts.cargo;
  const vehicle = need(facts.vehicle);
  const driver = need(facts.driver);
  const order = need(facts.order);
  const customer = facts.customer && facts.customerContract ? { party: facts.customer, contract: facts.customerContract } : null;
  const massKg = formatDecimal(need(cargo.massT) * 1000, 3);
  const moment = (m: Moment | null) => formatMoment(need(m));

  const content = el(
    'СодИнфГО',
    {
      СодОпер: 'Лицом, осуществляющим погрузку груза, при указанных обстоятельствах передан водителю груз с указанными характеристиками',
      НомерТрН: need(facts.number).trim(),
      ДатаТрН: formatDate(need(facts.date)),
      НомЗак: order.number.trim(),
      ДатаЗак: formatDate(order.date),
    },
    [
      el('СвГО', { ГОЭксп: '0' }, [participant('РекИдентГО', shipper)]),
      customer
        ? el('СвЗак', {}, [
            participant('РекИдентЗак', customer.party),
            el('ДогУслПер', { НаимДок: customer.contract.name.trim(), НомерДок: customer.contract.number.trim(), ДатаДок: formatDate(customer.contract.date) }, [
              innRef('ИдРекСост', need(customer.party.inn)),
              innRef('ИдРекСост', need(carrier.inn)),
            ]),
          ])
        : null,
      el('СвГП', {}, [participant('РекИдентГП', consignee), placeAddress('АдресДостГр', need(facts.unloading))]),
      el('СвГруз', {}, [
        el(
          'ОпГруз',
          {
            НаимГруз: need(cargo.name).trim(),
            СостГруз: need(cargo.state).trim(),
            СпУпак: need(cargo.packaging).trim(),
            ВидТар: need(cargo.packageCode),
            Объем: cargo.volumeM3 !== null ? formatDecimal(cargo.volumeM3, 3) : null,
            КолМестГр: cargo.places,
          },
          [el('Марк', {}, [], 'Отсутствует'), el('ПлМасГруз', { МасБрутЗнач: massKg })],
        ),
      ]),
      el('УказГО', { УкНормПрвз: 'Отсутствуют' }, [
        el('СвПА', { ЛицоПА: 'Грузоотправитель', СпосПерУкПА: 'Электронное уведомление перевозчика о переадресовке' }, [contact('КонтПА', shipper)]),
      ]),
      participant('СвПер', carrier),
      el(
        'СвВодит',
        {
          НомВУ: need(driver.licenceNumber).trim(),
          СерВУ: driver.licenceSeries?.trim() || null,
          ДатаВыдВУ: driver.licenceIssued ? formatDate(driver.licenceIssued) : null,
          ИННФЛ: driver.inn || null,
        },
        [el('Тлф', {}, [], need(driver.phone).trim()), fio(need(driver.name))],
      ),
      el('СвТС', {}, [unit('ТС', vehicle), vehicle.trailer ? unit('Прицеп', vehicle.trailer) : null]),
      el(
        'СвПогруз',
        {
          ЗаявПогр: moment(facts.plannedLoading),
          НалКоорТочВрЗаяв: '1',
          ФДатВрПриб: moment(facts.loadingArrived),
          НалКоорТочВрФПогр: '1',
          ФДатВрУбыт: moment(facts.loadingDeparted),
          НалКоорТочВрФУбыт: '1',
          МасБрутОтгр: massKg,
          МетОпрМасс: need(cargo.massMethod),
          КолМестПрием: cargo.places,
        },
        [
          placeAddress('ФАдресПогр', need(facts.loading)),
          el('СвЛицПогрГр', { СовпГОП: '1' }, [innRef('ИдентРекГО', need(shipper.inn))]),
          el('ВладИнфр', { СовпГОВ: '1' }, [innRef('ИдентРекГО', need(shipper.inn))]),
        ],
      ),
    ],
  );
  const document = el('Документ', { КНД: TITLE_FORMAT.t1.knd, ПоФактХЖ: TITLE_FORMAT.t1.name, ДатИнфГО: h.date, ВрИнфГО: h.time }, [content, signer(need(facts.shipperSigner))]);
  const name = fileName('t1', { recipient: need(carrier.edoId), sender: need(shipper.edoId), third: consignee.edoId }, h.stamp, h.guid);
  return finish(document, name);
}

/** A refusal to sign as the carrier's mark (ОтметПрвПрием / ОтметПрвВыд), when it happened at this title's stage. */
function refusalMark(name: string, facts: WaybillFacts, stage: 'loading' | 'unloading'): XmlElement | null {
  const r = facts.refusal;
  if (!r || r.stage !== stage) return null;
  return el(name, { ДатВрОтмет: formatMoment(r.at), НалКоорТочВрОтм: '1', ОбстОтмет: `Отказ от подписи: ${r.who.trim()}. Причина: ${r.reason.trim()}`.slice(0, 2000) });
}

const joinRemarks = (...parts: (string | null)[]) => {
  const text = parts.filter((p): p is string => p !== null && p.trim() !== '').map((p) => p.trim()).join('. ');
  return text === '' ? null : text;
};

/**
 * The carrier's signer of Т2 / Т4: the driver when he confirmed the title by his ПЭП (an employee of the carrier:
 * СтатПодп 1, no power of attorney; docs/documents.md «The driver's confirmation»), else the carrier's.
 */
const carrierSignerOf = (facts: WaybillFacts, title: 't2' | 't4'): SignerFacts => facts.driverSigned?.[title]?.signer ?? need(facts.carrierSigner);

/** The signature's kind and basis, which Подписант cannot hold, as the title's own information (ИнфПол/ТекстИнф). */
function driverSignedInfo(signed: DriverSigned | null | undefined, confirmed: string): XmlElement | null {
  if (!signed) return null;
  const name = need(signed.signer.name);
  const who = [name.last, name.first, name.middle].filter(Boolean).join(' ');
  return el('ИнфПол', {}, [
    el('ТекстИнф', { Идентиф: 'ВидПодписи', Значение: 'Простая электронная подпись водителя' }),
    el('ТекстИнф', { Идентиф: 'ПодтвВодит', Значение: `${confirmed}: ${who}, ${formatMoment(signed.at)}`.slice(0, 2000) }),
  ]);
}

/** The carrier's title on accepting the cargo (Т2): the shipper's Т1 it answers, the actual times, the mass, remarks. */
export function buildT2(facts: WaybillFacts, options: BuildOptions = {}): EtrnFile {
  refuseIfMissing('t2', facts);
  const h = header(options);
  const arrived = need(facts.loadingArrived);
  const departed = facts.loadingDeparted;
  const remarks = el('ЗамПрвПрием', {
    ЗамДатВрПриб: formatMoment(arrived),
    НалКоорТочВрПрб: '1',
    ЗамДатВрУбыт: departed ? formatMoment(departed) : null,
    НалКоорТочВрУб: departed ? '1' : null,
    ЗамСостГруз: joinRemarks(facts.remarksLoading, facts.driverSigned?.t2?.remarks ?? null)?.slice(0, 10000) ?? null,
    ЗамМасс: facts.massAcceptedT !== null ? `Масса груза, принятого к перевозке: ${tonnes(facts.massAcceptedT)}` : null,
  });
  const content = el(
    'СодИнфПрвПрием',
    {
      УИД_ТрН: need(facts.uid).trim(),
      СодОпер: 'Груз принят к перевозке водителем, уполномоченным перевозчиком на перевозку груза, от лица, осуществившего погрузку груза в транспортное средство',
    },
    [remarks, refusalMark('ОтметПрвПрием', facts, 'loading'), driverSignedInfo(facts.driverSigned?.t2, 'Груз принят к перевозке')],
  );
  const document = el('Документ', { КНД: TITLE_FORMAT.t2.knd, ПоФактХЖ: TITLE_FORMAT.t2.name, ДатИнфПрвПрием: h.date, ВрИнфПрвПрием: h.time }, [
    el('ИдИнфГО', refAttrs(need(facts.t1File), 'ГО')),
    content,
    signer(carrierSignerOf(facts, 't2')),
  ]);
  const name = fileName('t2', { recipient: need(need(facts.shipper).edoId), sender: need(need(facts.carrier).edoId), third: facts.consignee?.edoId ?? null }, h.stamp, h.guid);
  return finish(document, name);
}

/** The carrier's title on handing the cargo over (Т4): the consignee's Т3 it answers, the actual times, remarks. */
export function buildT4(facts: WaybillFacts, options: BuildOptions = {}): EtrnFile {
  refuseIfMissing('t4', facts);
  const h = header(options);
  const arrived = need(facts.unloadingArrived);
  const departed = facts.unloadingDeparted;
  const mass = facts.massHandedOverT !== null ? `Масса груза при выдаче: ${tonnes(facts.massHandedOverT)}` : null;
  const remarks = el('ЗамПрвВыд', {
    ЗамДатаВрПриб: formatMoment(arrived),
    НалКоорТочВрПр: '1',
    ЗамДатВрУбыт: departed ? formatMoment(departed) : null,
    НалКоорТочВрУб: departed ? '1' : null,
    // Т4 has no mass of its own: the mass handed over is a remark on the cargo's state, mass and places.
    ЗамСостГруз: joinRemarks(mass, facts.remarksUnloading, facts.driverSigned?.t4?.remarks ?? null)?.slice(0, 10000) ?? null,
  });
  const content = el(
    'СодПрвВыд',
    {
      УИД_ТрН: need(facts.uid).trim(),
      СодОпер: 'Груз с указанными характеристиками сдан водителем, уполномоченным перевозчиком на перевозку груза, лицу, управомоченному на получение груза',
    },
    [remarks, refusalMark('ОтметПрвВыд', facts, 'unloading'), driverSignedInfo(facts.driverSigned?.t4, 'Груз сдан')],
  );
  const document = el('Документ', { КНД: TITLE_FORMAT.t4.knd, ПоФактХЖ: TITLE_FORMAT.t4.name, ДатИнфПрвВыд: h.date, ВрИнфПрвВыд: h.time }, [
    el('ИдИнфГП', refAttrs(need(facts.t3File), 'ГП')),
    content,
    signer(carrierSignerOf(facts, 't4')),
  ]);
  const name = fileName('t4', { recipient: need(need(facts.consignee).edoId), sender: need(need(facts.carrier).edoId), third: facts.shipper?.edoId ?? null }, h.stamp, h.guid);
  return finish(document, name);
}

/** The generator of each title. */
export const BUILDERS: Record<EtrnTitle, (facts: WaybillFacts, options?: BuildOptions) => EtrnFile> = {
  t1: buildT1Draft,
  t2: buildT2,
  t4: buildT4,
};
