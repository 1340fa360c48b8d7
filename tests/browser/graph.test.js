// The graph drawing (SVG laid out by dagre) and the selection kept in step with the table (the graph view's
// zoom, folding, details and search: graph-view.test.js).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byTestId, newPage, openExample, screenshot, startPlayground } from './helpers.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

function drawing(page) {
  return page.$eval('[data-testid="graph"]', (svg) => ({
    tag: svg.tagName,
    nodes: Array.from(svg.querySelectorAll('g.node'), (g) => {
      const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform'));
      return { name: g.dataset.node, x: Number(m[1]), y: Number(m[2]), text: g.textContent };
    }),
    edges: Array.from(svg.querySelectorAll('path.edge'), (p) => [p.dataset.from, p.dataset.to]),
  }));
}

describe('graph drawing', () => {
  test('toy_example is drawn as SVG: a box per node, an arrow per data dependency, top-down', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'toy_example');
    const d = await drawing(page);
    expect(d.tag.toLowerCase()).toBe('svg');
    expect(d.nodes.map((n) => n.name).sort()).toEqual(['abs_1', 'add', 'l_a_', 'l_b_', 'lt', 'output', 'sum_1', 'x'].sort());
    expect(d.edges.sort()).toEqual([
      ['abs_1', 'add'], ['add', 'x'], ['l_a_', 'abs_1'], ['l_a_', 'x'], ['l_b_', 'sum_1'],
      ['lt', 'output'], ['sum_1', 'lt'], ['x', 'output'],
    ].sort());
    // Layered top-down: every edge goes downwards, and boxes do not overlap.
    const at = Object.fromEntries(d.nodes.map((n) => [n.name, n]));
    for (const [a, b] of d.edges) expect(at[b].y).toBeGreaterThan(at[a].y);
    expect(at.abs_1.text).toMatch(/abs_1.*torch\.abs/);
    const boxes = await page.$$eval('[data-testid="graph"] g.node', (gs) => gs.map((g) => g.getBoundingClientRect().toJSON()));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i], boxes[j]];
        const overlap = p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
        expect(overlap).toBe(false);
      }
    }
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('selecting in the table selects in the drawing and back', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'toy_example');
    const selectedRow = () => page.$$eval('[data-testid="tabular"] tr.selected', (rs) => rs.map((r) => r.dataset.node));
    const selectedBox = () => page.$$eval('[data-testid="graph"] g.node.selected', (gs) => gs.map((g) => g.dataset.node));

    await page.click('[data-testid="tabular"] tbody tr[data-node="add"] td:nth-child(2)');
    expect(await selectedRow()).toEqual(['add']);
    expect(await selectedBox()).toEqual(['add']);
    const hot = await page.$$eval('[data-testid="graph"] path.edge.selected', (ps) => ps.map((p) => `${p.dataset.from}>${p.dataset.to}`));
    expect(hot.sort()).toEqual(['abs_1>add', 'add>x']);

    await page.click('[data-testid="graph"] g.node[data-node="sum_1"]');
    expect(await selectedBox()).toEqual(['sum_1']);
    expect(await selectedRow()).toEqual(['sum_1']);
    expect(await page.locator('#selection-note').textContent()).toMatch(/sum_1 \(call_method sum\)/);
    await screenshot(page, 'graph-selection');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('a bigger graph (digits CNN) is drawn with every node', async () => {
    const page = await newPage(pg.context);
    const rows = await openExample(page, pg.url, 'digits_cnn');
    const d = await drawing(page);
    expect(d.nodes).toHaveLength(rows);
    expect(d.edges.length).toBeGreaterThanOrEqual(rows - 1);
    // Fitted in the box: zoom and pan are one transform on the drawing's viewport group.
    expect(await page.$eval('[data-testid="graph"] g.viewport', (g) => g.getAttribute('transform'))).toMatch(/^translate\([-\d.]+,[-\d.]+\) scale\([\d.]+\)$/);
    await page.close();
  });
});
