/** The driver's line for a trip's waybill (contract/waybill.ts `driverWaybill`, issue 33 §1 and §3). */
import { describe, expect, it } from 'vitest';
import { driverWaybill, driverWaybillLine, type WaybillDocumentFacts } from '../../contract/waybill.ts';

const doc = (fields: Partial<WaybillDocumentFacts>): WaybillDocumentFacts => ({ report_id: 7, title: 't1', state: 'draft', uid: null, qr: null, updated_at: '2026-11-27T10:00:00.000Z', ...fields });
const UID = 'd1e41efa-4cf4-4a1f-ace9-f2bfad05587b';

describe('the driver’s waybill line', () => {
  it('none without documents', () => {
    expect(driverWaybill([], 'u')).toBeNull();
  });

  it('an accepted title wins over one moved later, with its УИД and the operator’s QR payload', () => {
    const accepted = doc({ title: 't1', state: 'accepted', uid: UID, qr: `https://epd.example/trn/${UID}`, updated_at: '2026-11-27T10:00:00.000Z' });
    const later = doc({ title: 't2', state: 'sent', updated_at: '2026-11-27T12:00:00.000Z' });
    expect(driverWaybill([later, accepted], 'trip-1')).toEqual({ report_id: 7, trip_uid: 'trip-1', state: 'accepted', title: 't1', uid: UID, qr: `https://epd.example/trn/${UID}` });
  });

  it('the QR carries the УИД when the operator returned no payload', () => {
    expect(driverWaybill([doc({ state: 'accepted', uid: UID, qr: null })], null)?.qr).toBe(UID);
    expect(driverWaybill([doc({ state: 'accepted', uid: UID, qr: '  ' })], null)?.qr).toBe(UID);
  });

  it('otherwise the live title moved last, without УИД or QR; all annulled says so', () => {
    const rejected = doc({ title: 't1', state: 'rejected', uid: null, updated_at: '2026-11-27T11:00:00.000Z' });
    const draft = doc({ title: 't2', state: 'draft', updated_at: '2026-11-27T09:00:00.000Z' });
    expect(driverWaybill([draft, rejected], 'x')).toMatchObject({ state: 'rejected', title: 't1', uid: null, qr: null });
    // An accepted title later annulled is no paper for the road.
    const annulled = doc({ state: 'annulled', uid: UID, qr: UID });
    expect(driverWaybill([annulled], 'x')).toMatchObject({ state: 'annulled', uid: null, qr: null });
    expect(driverWaybill([annulled, draft], 'x')).toMatchObject({ state: 'draft' });
  });

  it('names each state in Russian', () => {
    expect(['draft', 'ready', 'sent', 'accepted', 'rejected', 'annulled'].map((s) => driverWaybillLine(s as never))).toEqual([
      'Накладная (ЭТрН): черновик',
      'Накладная (ЭТрН): готов к подписи',
      'Накладная (ЭТрН): отправлен',
      'Накладная (ЭТрН): принят',
      'Накладная (ЭТрН): отклонён',
      'Накладная (ЭТрН): аннулирован',
    ]);
  });
});
