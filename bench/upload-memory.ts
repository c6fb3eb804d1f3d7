/**
 * What photo uploads cost the server's memory. A server process of its own (SQLite, demo data),
 * four drivers' reports uploaded at once, each with four ~9 MB photos (near the 40 MB report cap), twice; the
 * server's resident memory (VmRSS) sampled every 20 ms: before, the peak, and once the uploads are answered and
 * the process has settled. The baseline is the same process idle before the first upload.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import SQLite from 'better-sqlite3';
import { openDb } from '../server/db/connect.ts';
import { seedDemo } from '../server/db/seed.ts';
import { encodeForm, reportForm } from '../tests/fixtures/forms.ts';
import { DEMO, DEMO_PASSWORD } from '../tests/e2e/harness/app.ts';
import { figure, round, rssMb, sleep, startServerProcess, type Benchmark, type SectionResult } from './support.ts';

const PARALLEL = 4;
const PHOTOS = 4;

/** A camera-sized JPEG (12 MP) of noise, which compresses badly: 7–10 MB, under the 10 MB cap per photo. */
async function bigPhoto(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const pixels = randomBytes(width * height * 3);
  for (let quality = 80; ; quality -= 10) {
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
    if (jpeg.length < 10 * 1024 * 1024 || quality <= 30) return jpeg;
  }
}

export const uploadMemory: Benchmark = {
  id: 'upload-memory',
  title: `Server memory under ${PARALLEL} report uploads at once, ${PHOTOS} large photos each`,
  async run(): Promise<SectionResult> {
    const dataDir = mkdtempSync(join(tmpdir(), 'reis-upload-memory-'));
    const sqliteFile = join(dataDir, 'reis.sqlite');
    const seeded = await openDb({ sqliteFile });
    await seedDemo(seeded);
    await seeded.close();
    const server = await startServerProcess(dataDir).catch((error: unknown) => {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    });
    const { base, pid } = server;
    try {
      const photo = await bigPhoto();
      const raw = new SQLite(sqliteFile, { readonly: true });
      const driver = raw.prepare('select id from users where email = ?').get(DEMO.driver) as { id: number };
      const associations = (raw.prepare("select id from task_drivers where driver_id = ? and status = 'accepted' and finished_at is null order by id").all(driver.id) as { id: number }[]).map((r) => r.id);
      raw.close();
      const login = await fetch(`${base}/api/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: DEMO.driver, password: DEMO_PASSWORD, device_id: 'bench' }),
      });
      const { access_token } = (await login.json()) as { access_token: string };
      const upload = async (n: number) => {
        const form = reportForm(
          { association_id: associations[n % associations.length]!, quantity: '20', loading_is_buyer: '0', unloading_is_buyer: '0' },
          Array.from({ length: PHOTOS }, (_, i) => ({ data: photo, filename: `big-${n}-${i}.jpg` })),
        );
        const { payload, headers } = await encodeForm(form);
        const res = await fetch(`${base}/api/reports/`, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${access_token}`, 'idempotency-key': randomUUID() },
          body: new Uint8Array(payload),
        });
        await res.arrayBuffer();
        return res.status;
      };

      await sleep(1_000);
      const idle = rssMb(pid);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
      const statuses: number[] = [];
      const settled: number[] = [];
      for (let round = 0; round < 2; round++) {
        statuses.push(...(await Promise.all(Array.from({ length: PARALLEL }, (_, i) => upload(round * PARALLEL + i)))));
        await sleep(3_000);
        settled.push(rssMb(pid));
      }
      clearInterval(sampler);
      const counts = new Map<number, number>();
      for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
      const answers = [...counts].map(([status, n]) => `${n}× ${status}`);
      return {
        ours: `the server process (photos ${round(photo.length / 1024 / 1024, 1)} MB each; answers: ${answers.join(', ')})`,
        baseline: 'the same process idle before the first upload',
        figures: [
          figure('resident memory at the peak', 'MB', round(peak, 0), round(idle, 0)),
          figure('resident memory 3 s after the first round', 'MB', round(settled[0]!, 0), round(idle, 0)),
          figure('resident memory 3 s after the second round', 'MB', round(settled[1]!, 0), round(idle, 0), {
            note: 'a second round that climbs above the first would mean memory kept per upload',
          }),
        ],
      };
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
