/**
 * 051_card_facts (docs/documents.md «What is missing, and where it lives»): the licences the card stored whole
 * («77 12 345678», «77 АБ 123456») are split into the series and the number the waybill's СерВУ and НомВУ take; a
 * licence in another shape, or one already split, is left as it is.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People } from '../fixtures/accounts.ts';
import { splitStoredLicences } from '../../server/db/migrations-card-facts.ts';

describe.each(backends)('051_card_facts ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;

  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  beforeAll(async () => {
    p = await makePeople(s);
  });

  it('splits the licences stored whole into series and number, and leaves any other as it is', async () => {
    const set = (id: number, license_number: string | null, license_series: string | null = null) =>
      s.db.kysely.updateTable('users').set({ license_number, license_series }).where('id', '=', id).execute();
    await set(p.driver.id, '77 АБ 123456');
    await set(p.driver2.id, '7712 345678');
    await set(p.manager.id, '654321', '50 01');
    await splitStoredLicences(s.db.kysely as never);
    const read = async (id: number) => s.db.kysely.selectFrom('users').select(['license_series', 'license_number']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await read(p.driver.id)).toEqual({ license_series: '77 АБ', license_number: '123456' });
    expect(await read(p.driver2.id)).toEqual({ license_series: null, license_number: '7712 345678' });
    expect(await read(p.manager.id)).toEqual({ license_series: '50 01', license_number: '654321' });
  });
});
