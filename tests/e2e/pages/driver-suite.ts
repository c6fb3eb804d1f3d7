/**
 * The start every driver e2e file shares: one app (server, proxy, Chromium) for the file and the camera
 * photos its reports carry, made once in `beforeAll` and closed in `afterAll`.
 */
import { afterAll, beforeAll } from 'vitest';
import { startE2eApp, type E2eApp } from '../harness/app.ts';
import { cameraPhotos } from './driver-photos.ts';
import type { PhotoFile } from './driver-tasks.ts';

export interface DriverSuite {
  app: E2eApp;
  photos: PhotoFile[];
}

/** Registers the file's hooks; the fields are filled before the first test runs. */
export function useDriverSuite(photoCount: number): DriverSuite {
  const suite = {} as DriverSuite;
  beforeAll(async () => {
    suite.app = await startE2eApp();
    suite.photos = await cameraPhotos(suite.app.browser, photoCount);
  });
  afterAll(async () => {
    await suite.app?.close();
  });
  return suite;
}
