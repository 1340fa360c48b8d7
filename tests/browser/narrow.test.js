// The page at 400 px (a phone): nothing wider than the screen, the profile's timing columns in view
// without scrolling sideways, the graph view's controls usable.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byTestId, newPage, openExample, screenshot, startPlayground, waitFor } from './helpers.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground({ viewport: { width: 400, height: 800 } });
});
afterAll(async () => {
  await pg?.close();
});

describe('narrow screen', () => {
  test('400 px: no sideways scrolling of the page; ms and share columns visible', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'digits_cnn');
    await byTestId(page, 'run-button').click();
    await waitFor(page, 'outputs', 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    const profile = byTestId(page, 'profile');
    await profile.scrollIntoViewIfNeeded();
    for (const key of ['ms', 'share']) {
      const r = await profile.locator(`th[data-sort="${key}"]`).boundingBox();
      expect(r.x).toBeGreaterThanOrEqual(0);
      expect(r.x + r.width).toBeLessThanOrEqual(400);
    }
    const firstMs = await profile.locator('tbody tr:first-child td:nth-child(2)').boundingBox();
    expect(firstMs.x + firstMs.width).toBeLessThanOrEqual(400);
    for (const id of ['graph', 'graph-fit', 'graph-search', 'run-button']) {
      const r = await byTestId(page, id).boundingBox();
      expect(r.x + r.width).toBeLessThanOrEqual(400);
    }
    await screenshot(page, 'narrow-400');
    expect(page.problems).toEqual([]);
    await page.close();
  });
});
