// The graph view on real models (torchvision's resnet18 and a small VisionTransformer, exported by
// tests/browser/make_graph_fixtures.py with the reference torch): boxes with module type, shape and
// weights; zoom, pan, fit and the minimap; a click opens the details (hyperparameters as stored by the
// exporter, weight statistics as the runtime reads them back); folding a module; search; what a pass
// changed. Screenshots go to test-artifacts/browser/ (and to FXWASM_SCREENS when set).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { artifactsDir, byTestId, newPage, openExample, repoRoot, screenshot, startPlayground, waitFor } from './helpers.js';
import { inspect } from './fixtures.js';
import { shortNumber } from '../../web/playground/lib/tensor-stats.js';

const FIXTURES = path.join(artifactsDir, 'graph-fixtures');
const PYTHON = spawnSync('bash', ['-c', 'source scripts/env.sh && echo "$FXWASM_PYTHON"'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();

let pg;
beforeAll(async () => {
  const made = spawnSync(PYTHON, ['tests/browser/make_graph_fixtures.py', FIXTURES], {
    cwd: repoRoot, encoding: 'utf8', env: { ...process.env, PYTHONPATH: path.join(repoRoot, 'python') },
  });
  if (made.status !== 0) throw new Error(`make_graph_fixtures.py failed (needs the reference torch: npm run setup):\n${made.stderr}`);
  pg = await startPlayground({ corpusDir: FIXTURES });
}, 300000);
afterAll(async () => {
  await pg?.close();
});

async function shot(page, name) {
  await screenshot(page, name);
  if (process.env.FXWASM_SCREENS) {
    // The Graph panel alone (toolbar, drawing, minimap, details), as a user sees it.
    fs.mkdirSync(process.env.FXWASM_SCREENS, { recursive: true });
    await page.locator('section:has([data-testid="graph"])').screenshot({ path: path.join(process.env.FXWASM_SCREENS, `${name}.png`) });
  }
}

const graphState = (page) => page.$eval('[data-testid="graph"]', (svg) => {
  const vp = svg.querySelector('g.viewport');
  const m = /translate\(([-\d.]+),([-\d.]+)\) scale\(([-\d.]+)\)/.exec(vp.getAttribute('transform'));
  const r = svg.getBoundingClientRect();
  const b = vp.getBoundingClientRect();
  return {
    tx: Number(m[1]), ty: Number(m[2]), k: Number(m[3]), nodes: Number(svg.dataset.nodes), boxes: Number(svg.dataset.boxes),
    svg: { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height },
    drawing: { left: b.left, top: b.top, right: b.right, bottom: b.bottom },
  };
});
const nextFrame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const boxText = (page, name) => page.$eval(`[data-testid="graph"] g.node[data-node="${name}"]`, (g) => Array.from(g.querySelectorAll('text'), (t) => t.textContent));
const details = (page, testid) => page.$$eval(`[data-testid="graph-details"] [data-testid="${testid}"] dd`, (dds) => dds.map((d) => [d.dataset.key, d.textContent]));
const waitDetails = (page, name) => page.waitForFunction((n) => {
  const d = document.querySelector('[data-testid="graph-details"]');
  return d.dataset.node === n && d.dataset.ready === 'true';
}, name);

async function clickBox(page, name) {
  // Centered first (search does that), so the click lands on the box whatever the zoom.
  await byTestId(page, 'graph-search').fill(name);
  await nextFrame(page);
  await page.click(`[data-testid="graph"] g.node[data-node="${name}"]`);
}

describe('graph view: resnet18', () => {
  test('boxes, fit, zoom, pan and the minimap', async () => {
    const page = await newPage(pg.context);
    const rows = await openExample(page, pg.url, 'resnet18');
    await nextFrame(page);
    let s = await graphState(page);
    expect(s.nodes).toBe(rows); // symbolic resnet18 has no get_attr: every node is a box
    expect(await boxText(page, 'conv1')).toEqual(['conv1', 'Conv2d', '[1, 64, 32, 32]', 'weight [64, 3, 7, 7]']);
    expect(await boxText(page, 'layer1_0_bn1')).toEqual(['layer1_0_bn1', 'BatchNorm2d', '[1, 64, 16, 16]',
      'weight [64]', 'bias [64]', 'running_mean [64]', 'running_var [64]', '+1 more']);
    expect(await boxText(page, 'add')).toEqual(['add', 'operator.add', '[1, 64, 16, 16]']);

    // Fitted on load: the whole drawing inside the box.
    const inside = (st) => st.drawing.left >= st.svg.left - 1 && st.drawing.right <= st.svg.right + 1 &&
      st.drawing.top >= st.svg.top - 1 && st.drawing.bottom <= st.svg.bottom + 1;
    expect(inside(s)).toBe(true);
    expect(s.k).toBeLessThan(0.5); // 71 boxes top-down do not fit at full size
    expect(await byTestId(page, 'graph-minimap').isVisible()).toBe(true);

    await byTestId(page, 'graph-zoom-in').click();
    await nextFrame(page);
    let z = await graphState(page);
    expect(z.k).toBeCloseTo(s.k * 1.25, 3);
    // The wheel zooms about the cursor: the point under it stays put.
    const cx = s.svg.left + 200;
    const cy = s.svg.top + 150;
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, -300);
    await nextFrame(page);
    const w = await graphState(page);
    expect(w.k).toBeGreaterThan(z.k * 1.3);
    const gx = (cx - s.svg.left - z.tx) / z.k; // the drawing's point under the cursor before the wheel
    expect(Math.abs(gx * w.k + w.tx - (cx - s.svg.left))).toBeLessThan(1); // is under it after

    // Drag pans by the distance dragged.
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 120, cy + 80, { steps: 5 });
    await page.mouse.up();
    await nextFrame(page);
    const p = await graphState(page);
    expect(p.tx - w.tx).toBeCloseTo(120, 0);
    expect(p.ty - w.ty).toBeCloseTo(80, 0);
    expect(p.k).toBe(w.k);
    // The minimap's frame shows that part of the drawing.
    const frame = await page.$eval('[data-testid="graph-minimap"] .mini-view', (r) => ['x', 'y', 'width'].map((a) => Number(r.getAttribute(a))));
    expect(frame[0]).toBeCloseTo(-p.tx / p.k, 0);
    expect(frame[2]).toBeCloseTo(p.svg.width / p.k, 0);

    await byTestId(page, 'graph-fit').click();
    await nextFrame(page);
    s = await graphState(page);
    expect(inside(s)).toBe(true);
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('a click shows the module, its hyperparameters and weight statistics; run adds its time', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'resnet18');
    await clickBox(page, 'layer2_0_conv1');
    await waitDetails(page, 'layer2_0_conv1');
    expect(await page.locator('[data-testid="graph-details"] h3').textContent()).toBe('layer2_0_conv1');
    const hp = Object.fromEntries(await details(page, 'module-hparams'));
    expect(hp).toMatchObject({ type: 'torch.nn.modules.conv.Conv2d', in_channels: '64', out_channels: '128',
      kernel_size: '(3, 3)', stride: '(2, 2)', padding: '(1, 1)', bias: 'False' });
    const node = Object.fromEntries(await details(page, 'details-node'));
    expect(node).toMatchObject({ op: 'call_module', target: 'layer2.0.conv1', args: '(layer1_1_relu_1,)', output: '[1, 128, 8, 8]',
      'module scope': 'layer2.0' });
    expect(node.time).toMatch(/not profiled yet/);
    // The weight as the runtime reads it back, summarised the same way here.
    const stats = Object.fromEntries(await details(page, 'weight-stats'));
    const expected = await inspect(fs.readFileSync(path.join(FIXTURES, 'resnet18.fxw')), async (gm) => {
      const { data } = gm.getTensor('layer2.0.conv1.weight');
      let min = Infinity; let max = -Infinity; let sum = 0;
      for (const x of data) { min = Math.min(min, x); max = Math.max(max, x); sum += x; }
      return { min: shortNumber(min), max: shortNumber(max), mean: shortNumber(sum / data.length), n: data.length };
    });
    expect(stats).toMatchObject({ shape: '[128, 64, 3, 3]', dtype: 'float32', kind: 'parameter', bytes: '288.0 KiB (294,912)',
      min: expected.min, max: expected.max, mean: expected.mean });
    const bins = await page.$$eval('[data-testid="graph-details"] [data-testid="weight-histogram"] rect', (rs) => rs.map((r) => Number(r.dataset.count)));
    expect(bins).toHaveLength(24);
    expect(bins.reduce((a, b) => a + b, 0)).toBe(expected.n);
    expect(await page.$$eval('[data-testid="graph"] g.node.selected', (gs) => gs.map((g) => g.dataset.node))).toEqual(['layer2_0_conv1']);
    expect(await page.$$eval('[data-testid="tabular"] tr.selected', (rs) => rs.map((r) => r.dataset.node))).toEqual(['layer2_0_conv1']);

    await byTestId(page, 'run-button').click();
    await waitFor(page, 'outputs', 1);
    await waitDetails(page, 'layer2_0_conv1');
    expect(Object.fromEntries(await details(page, 'details-node')).time).toMatch(/^\d+\.\d{3} ms \(\d+\.\d% of the run\)$/);
    await shot(page, 'graph-resnet18-details');
    await byTestId(page, 'graph-details').evaluate((d) => { d.scrollTop = d.scrollHeight; });
    await shot(page, 'graph-resnet18-details-weights');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('fold a module into one box and unfold it; fold by depth; search highlights and centers', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'resnet18');
    const before = await graphState(page);
    await clickBox(page, 'layer2_0_conv1');
    await waitDetails(page, 'layer2_0_conv1');
    await page.click('[data-testid="graph-fold"][data-scope="layer2.0"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-details"]').dataset.scope === 'layer2.0');
    let s = await graphState(page);
    // layer2.0 = conv1, bn1, relu, conv2, bn2, downsample.0, downsample.1, add, relu_1: nine nodes, one box
    expect(s.boxes).toBe(before.boxes - 8);
    const group = await boxText(page, 'module:layer2.0');
    // the exporter stores the model's own class of a container symbolic_trace fills with a plain nn.Module
    expect(group).toEqual(['▸ layer2.0', 'BasicBlock', '9 nodes, 18 tensors', '[1, 128, 8, 8]']);
    const edges = await page.$$eval('[data-testid="graph"] path.edge', (ps) => ps.map((p) => `${p.dataset.from}>${p.dataset.to}`));
    expect(edges).toContain('layer1_1_relu_1>module:layer2.0');
    expect(edges).toContain('module:layer2.0>layer2_1_conv1');
    const hparams = Object.fromEntries(await details(page, 'module-hparams'));
    expect(hparams.type).toBe('torchvision.models.resnet.BasicBlock');
    expect(hparams.stride).toBe('2');
    expect(Object.fromEntries(await details(page, 'details-summary')).nodes).toBe('9');
    await shot(page, 'graph-resnet18-folded');

    await byTestId(page, 'graph-unfold').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="graph"] g.node[data-group]'));
    expect((await graphState(page)).boxes).toBe(before.boxes);

    await byTestId(page, 'graph-fold-depth').selectOption('1');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="graph"] g.node[data-group]').length === 4);
    expect(await page.$$eval('[data-testid="graph"] g.node[data-group]', (gs) => gs.map((g) => g.dataset.group)))
      .toEqual(['layer1', 'layer2', 'layer3', 'layer4']);
    await shot(page, 'graph-resnet18-depth1');
    await byTestId(page, 'graph-fold-depth').selectOption('0');
    await page.waitForFunction(() => !document.querySelector('[data-testid="graph"] g.node[data-group]'));

    // Search: every match highlighted, the current one centered; Enter goes to the next.
    await byTestId(page, 'graph-search').fill('layer3.1.bn');
    await nextFrame(page);
    expect(await byTestId(page, 'graph-search-count').textContent()).toBe('1/2');
    expect(await page.$$eval('[data-testid="graph"] g.node.match', (gs) => gs.map((g) => g.dataset.node))).toEqual(['layer3_1_bn1', 'layer3_1_bn2']);
    const centered = async (name) => {
      const st = await graphState(page);
      const r = await page.$eval(`[data-testid="graph"] g.node[data-node="${name}"]`, (g) => g.getBoundingClientRect().toJSON());
      return [Math.abs((r.left + r.right) / 2 - (st.svg.left + st.svg.right) / 2), Math.abs((r.top + r.bottom) / 2 - (st.svg.top + st.svg.bottom) / 2)];
    };
    for (const d of await centered('layer3_1_bn1')) expect(d).toBeLessThan(2);
    await byTestId(page, 'graph-search').press('Enter');
    await nextFrame(page);
    expect(await byTestId(page, 'graph-search-count').textContent()).toBe('2/2');
    for (const d of await centered('layer3_1_bn2')) expect(d).toBeLessThan(2);
    await byTestId(page, 'graph-search').fill('no such thing');
    expect(await byTestId(page, 'graph-search-count').textContent()).toBe('no match');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('after fusion the weights sit inside the fused calls and the changed nodes are marked', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'resnet18');
    await byTestId(page, 'pass-fuse').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="pass-summary"]')?.dataset.pass === 'fuse' &&
      document.querySelector('[data-testid="status"]').textContent === 'ready');
    const getAttrs = await page.$$eval('[data-testid="tabular"] td.op-get_attr', (tds) => tds.length);
    expect(getAttrs).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="graph"] g.node.op-get_attr').count()).toBe(0);
    const marked = await page.$$eval('[data-testid="graph"] g.node.pass-added, [data-testid="graph"] g.node.pass-changed', (gs) => gs.length);
    expect(marked).toBeGreaterThan(0);
    expect(await byTestId(page, 'graph-marks').textContent()).toMatch(/^fuse: \d+ new \(green\), \d+ changed \(yellow\), \d+ removed$/);
    await shot(page, 'graph-resnet18-after-fuse');
    expect(page.problems).toEqual([]);
    await page.close();
  });
});

describe('graph view: vision transformer', () => {
  test('attention hyperparameters, weights inside their users, folding an encoder layer, search', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'vit_tiny');
    // The class token and the position embedding are get_attr nodes: drawn inside the calls using them.
    expect(await page.locator('[data-testid="graph"] g.node[data-node="class_token"]').count()).toBe(0);
    expect((await boxText(page, 'expand')).slice(-1)).toEqual(['class_token [1, 1, 32]']);
    expect((await boxText(page, 'add')).slice(-1)).toEqual(['pos_embedding [1, 17, 32]']);

    const attn = 'encoder_layers_encoder_layer_0_self_attention';
    await clickBox(page, attn);
    await waitDetails(page, attn);
    const hp = Object.fromEntries(await details(page, 'module-hparams'));
    expect(hp).toMatchObject({ type: 'torch.nn.modules.activation.MultiheadAttention', embed_dim: '32', num_heads: '2' });
    const weights = await page.$$eval('[data-testid="details-weights"] .weight', (ws) => ws.map((w) => w.dataset.tensor));
    expect(weights).toContain(`encoder.layers.encoder_layer_0.self_attention.in_proj_weight`);

    await page.click('[data-testid="graph-fold"][data-scope="encoder.layers.encoder_layer_0"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-details"]').dataset.scope === 'encoder.layers.encoder_layer_0');
    expect((await boxText(page, 'module:encoder.layers.encoder_layer_0')).slice(0, 2)).toEqual(['▸ encoder.layers.encoder_layer_0', 'EncoderBlock']);
    expect(Object.fromEntries(await details(page, 'module-hparams')).type).toBe('torchvision.models.vision_transformer.EncoderBlock');
    await shot(page, 'graph-vit-folded-encoder-block');

    await byTestId(page, 'graph-search').fill('mlp');
    await nextFrame(page);
    expect(await byTestId(page, 'graph-search-count').textContent()).toMatch(/^1\/\d+$/);
    await shot(page, 'graph-vit-folded');
    expect(page.problems).toEqual([]);
    await page.close();
  });
});
