// The digits demo: strokes drawn with the mouse on the canvas become the digits CNN's 8×8 input
// (scikit-learn load_digits' scale) and the page shows the digit the model recognises.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byTestId, newPage, openExample, screenshot, startPlayground } from './helpers.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

// Strokes in canvas pixels (the canvas is 224×224): each is a list of points drawn with the button down.
const ellipse = (cx, cy, rx, ry, n = 40) =>
  Array.from({ length: n + 1 }, (_, i) => [cx + rx * Math.sin((2 * Math.PI * i) / n), cy - ry * Math.cos((2 * Math.PI * i) / n)]);
const DIGITS = {
  1: [[[100, 40], [118, 22], [118, 202]]],
  0: [ellipse(112, 112, 58, 86)],
  7: [[[50, 30], [176, 30], [90, 200]]],
  4: [[[140, 20], [50, 140], [190, 140]], [[150, 80], [150, 210]]],
  3: [[[60, 40], [110, 20], [160, 45], [150, 90], [100, 110], [160, 135], [165, 180], [110, 205], [55, 185]]],
};

async function draw(page, strokes) {
  const canvas = byTestId(page, 'digits-canvas');
  await canvas.scrollIntoViewIfNeeded(); // mouse events only reach what is in the viewport
  const box = await canvas.boundingBox();
  const sx = box.width / 224;
  const sy = box.height / 224;
  for (const stroke of strokes) {
    const [first, ...rest] = stroke;
    await page.mouse.move(box.x + first[0] * sx, box.y + first[1] * sy);
    await page.mouse.down();
    for (const [x, y] of rest) await page.mouse.move(box.x + x * sx, box.y + y * sy, { steps: 8 });
    await page.mouse.up();
  }
}

/** The 8×8 input shown beside the canvas, as load_digits values (0..16). */
function input8x8(page) {
  return byTestId(page, 'digits-preview').evaluate((c) => {
    const px = c.getContext('2d').getImageData(0, 0, 8, 8).data;
    return Array.from({ length: 64 }, (_, i) => Math.round((px[i * 4] / 255) * 16));
  });
}

/** The summary's list of ops the core cannot run, or null when it can run them all. */
function unsupportedOps(page) {
  return page.evaluate(() => {
    const dt = Array.from(document.querySelectorAll('[data-testid="info"] dt')).find((d) => d.textContent === 'unsupported');
    return dt ? dt.nextElementSibling.textContent : null;
  });
}

/** Waits for the run a stroke started; returns the predicted digit, or the page's error text. */
async function result(page) {
  const handle = await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid="status"]').textContent;
    if (status !== 'ready') return false;
    const error = document.querySelector('[data-testid="error"]');
    if (!error.hidden) return { error: error.textContent };
    const digit = document.querySelector('[data-testid="prediction"]').dataset.digit;
    return digit !== undefined ? { digit: Number(digit) } : false;
  }, null, { timeout: 60000 });
  return handle.jsonValue();
}

describe('digits demo', () => {
  test('the digits CNN gets a drawing canvas, fed as [N, 1, 8, 8] (N of the placeholder)', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'digits_cnn');
    expect(await byTestId(page, 'digits').isVisible()).toBe(true);
    expect(await byTestId(page, 'digits-canvas').isVisible()).toBe(true);
    await draw(page, DIGITS[1]);
    await result(page);
    const grid = await input8x8(page);
    // A "1": ink only in the middle columns, every row touched, values on load_digits' 0..16 scale.
    expect(Math.max(...grid)).toBe(16);
    for (let row = 0; row < 8; row++) expect(grid.slice(row * 8, row * 8 + 8).some((v) => v > 0)).toBe(true);
    for (let row = 0; row < 8; row++) expect(grid[row * 8] + grid[row * 8 + 7]).toBe(0);
    expect(await page.locator('#inputs-note').textContent()).toMatch(/x: the drawing \[16, 1, 8, 8\]/);
    await byTestId(page, 'digits-clear').click();
    expect(await byTestId(page, 'prediction').textContent()).toBe('');
    await page.close();
  });

  test.each(Object.keys(DIGITS))('a drawn %s is recognised', async (digit) => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'digits_cnn');
    const unsupported = await unsupportedOps(page);
    await draw(page, DIGITS[digit]);
    const r = await result(page);
    await screenshot(page, `digits-${digit}`);
    expect(unsupported).toBeFalsy();  // the core runs the digits CNN
    expect(r).toEqual({ digit: Number(digit) });
    const probs = await page.$$eval('[data-testid="digits-probs"] li', (lis) => lis.length);
    expect(probs).toBe(10);
    // The run also filled the profile and the outputs.
    expect(await page.locator('[data-testid="profile"] tbody tr').count()).toBeGreaterThan(5);
    expect(await page.locator('[data-testid="topk"] li').first().getAttribute('data-class')).toBe(digit);
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('probability bars are as long as the probability: 0% is an empty track', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'digits_cnn');
    await draw(page, DIGITS[1]);
    expect(await result(page)).toEqual({ digit: 1 });
    const bars = await page.$$eval('[data-testid="digits-probs"] li', (lis) => lis.map((li) => ({
      pct: Number(li.querySelector('.pct').textContent.replace('%', '')),
      track: li.querySelector('.prob-track').getBoundingClientRect().width,
      fill: li.querySelector('.prob-fill').getBoundingClientRect().width,
    })));
    expect(bars).toHaveLength(10);
    expect(bars.some((b) => b.pct === 0)).toBe(true); // a trained CNN is sure of a clear 1
    for (const b of bars) {
      expect(b.track).toBeGreaterThan(50);
      expect(Math.abs(b.fill - (b.pct / 100) * b.track)).toBeLessThan(1.5);
    }
    await page.close();
  });

  test('an image file can be the input of an image-shaped placeholder (grey, resized to 8×8)', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'digits_cnn');
    // A 64×64 PNG of a dark ring on white, made by the browser's canvas.
    const png = await page.evaluate(() => {
      const c = Object.assign(document.createElement('canvas'), { width: 64, height: 64 });
      const ctx = c.getContext('2d');
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, 64, 64);
      Object.assign(ctx, { strokeStyle: '#000', lineWidth: 9 });
      ctx.beginPath();
      ctx.ellipse(32, 32, 18, 26, 0, 0, 2 * Math.PI);
      ctx.stroke();
      return c.toDataURL('image/png').split(',')[1];
    });
    await byTestId(page, 'input-source-x').selectOption('image');
    await byTestId(page, 'input-file-x').setInputFiles({ name: 'ring.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    await page.waitForFunction(() => /ring\.png \[16, 1, 8, 8\] float32/.test(document.querySelector('tr[data-input="x"]').textContent));
    const unsupported = await unsupportedOps(page);
    await byTestId(page, 'run-button').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent === 'ready');
    expect(await page.locator('#inputs-note').textContent()).toMatch(/x: ring\.png \[16, 1, 8, 8\] float32/);
    expect(unsupported).toBeFalsy();
    // Dark on light is inverted to light strokes on black, as the digits are: a ring reads as a 0.
    expect(await page.locator('[data-testid="topk"] li').first().getAttribute('data-class')).toBe('0');
    await page.close();
  });
});
