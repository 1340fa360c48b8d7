// The playground's profile: warm-up and timed runs (per-node medians), the chart of time by op type or
// module class, and the timed runs downloaded as a Chrome trace that parses as Perfetto's JSON format.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byTestId, newPage, openExample, screenshot, startPlayground, waitFor } from './helpers.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

describe('profile panel', () => {
  test('medians of N timed runs after a warm-up, a chart by op type / module class, a trace download', async () => {
    const page = await newPage(pg.context);
    const rows = await openExample(page, pg.url, 'digits_cnn');
    await byTestId(page, 'profile-runs').fill('4');
    await byTestId(page, 'profile-warmup').fill('2');
    await byTestId(page, 'run-button').click();
    await waitFor(page, 'outputs', 1);
    expect(await byTestId(page, 'profile-note').textContent()).toMatch(new RegExp(`^${rows} nodes, \\d+\\.\\d{3} ms in total: per-node medians of 4 timed runs after 2 warm-up`));
    const chart = () => page.$$eval('[data-testid="profile-chart"] g.chart-row', (gs) => gs.map((g) => [g.dataset.key, Number(g.dataset.ms)]));
    let bars = await chart();
    expect(bars.map(([k]) => k)).toEqual(expect.arrayContaining(['Conv2d', 'MaxPool2d', 'Linear', 'torch.nn.functional.relu']));
    for (let i = 1; i < bars.length; i++) expect(bars[i][1]).toBeLessThanOrEqual(bars[i - 1][1]); // slowest first
    // The chart's Conv2d bar is the sum of the conv rows of the table.
    const convMs = await page.$$eval('[data-testid="profile"] tbody tr', (trs) => trs
      .filter((tr) => /^conv\d$/.test(tr.cells[3].textContent)).reduce((a, tr) => a + Number(tr.cells[1].textContent), 0));
    expect(bars.find(([k]) => k === 'Conv2d')[1]).toBeCloseTo(convMs, 2);

    // The timeline: one segment per node in graph order, widths in proportion to the times; a click selects.
    const segments = await page.$$eval('[data-testid="profile-timeline"] rect', (rs) => rs.map((r) => [r.dataset.node, Number(r.getAttribute('x')), Number(r.getAttribute('width'))]));
    expect(segments.map(([n]) => n)).toEqual(await page.$$eval('[data-testid="tabular"] tbody tr', (trs) => trs.map((t) => t.dataset.node)));
    for (let i = 1; i < segments.length; i++) expect(segments[i][1]).toBeCloseTo(segments[i - 1][1] + segments[i - 1][2], 2);
    expect(segments.reduce((a, [, , w]) => a + w, 0)).toBeCloseTo(560, 1);
    const widest = segments.reduce((a, b) => (b[2] > a[2] ? b : a));
    await page.$eval(`[data-testid="profile-timeline"] rect[data-node="${widest[0]}"]`, (r) => r.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(await page.$$eval('[data-testid="graph"] g.node.selected', (gs) => gs.map((g) => g.dataset.node))).toEqual([widest[0]]);

    await byTestId(page, 'profile-group').selectOption('module');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-chart"] g.chart-row[data-key="call_function"], [data-testid="profile-chart"] g.chart-row[data-key="call_method"]'));
    bars = await chart();
    expect(bars.map(([k]) => k)).toContain('Conv2d');
    await screenshot(page, 'profile-chart');

    const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'profile-trace').click()]);
    expect(download.suggestedFilename()).toBe('digits_cnn.trace.json');
    const trace = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    const xs = trace.traceEvents.filter((e) => e.ph === 'X');
    expect(xs.filter((e) => e.cat === 'run').map((e) => e.name)).toEqual(['run 1', 'run 2', 'run 3', 'run 4']);
    expect(xs.filter((e) => e.cat !== 'run')).toHaveLength(4 * rows);
    for (const e of xs) expect(e).toMatchObject({ pid: 1, tid: 1, ts: expect.any(Number), dur: expect.any(Number) });
    expect(page.problems).toEqual([]);
    await page.close();
  });
});
