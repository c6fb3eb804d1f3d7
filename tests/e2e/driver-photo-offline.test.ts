/**
 * A photo attached with the server down in a fresh profile is compressed (issue 30 item 19): the engine loads the
 * compression libraries when it starts, not on the first photo, which may come when nothing can be fetched — the
 * service worker need not control the engine yet. In both engine modes; Firefox: firefox/driver.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { newContext, trackErrors } from './harness/browser.ts';
import { useDriverSuite } from './pages/driver-suite.ts';
import { captionSizes } from './pages/driver-photos.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';

const suite = useDriverSuite(1);

describe.each(['shared', 'dedicated'] as const)('a photo attached with the server down (%s engine)', (mode) => {
  it('is compressed in a fresh profile', async () => {
    const { proxy, browser, url } = suite.app;
    // An accepted seed task: the form is only opened, nothing is sent.
    const cargo = 'Песок мытый';
    const context = await newContext(browser, mode, 390);
    try {
      const page = await context.newPage();
      const errors = trackErrors(page);
      await signInAsDriver(page, url);
      const current = new CurrentTasksPage(page, url);
      await current.card(cargo).waitFor();
      proxy.setDown(true);
      await context.setOffline(true);

      const form = await current.openReport(cargo);
      await form.addPhotos(suite.photos);
      const caption = await form.dialog.locator('.drv-thumb__caption').innerText();
      const { original, compressed } = captionSizes(caption);
      expect(compressed).toBeLessThan(original / 4);
      expect(errors).toEqual([]);
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });
});
