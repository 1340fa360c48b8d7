// The Transform panel: buttons for the core's graph passes (gm.applyPass), the node counts and the
// tables before and after the last pass (removed, added and changed rows marked), the list of passes
// applied so far, and a download of the edited module as .fxw (fxwasm.save).

export const PASSES = [
  { name: 'dce', label: 'Dead code elimination' },
  { name: 'constant_fold', label: 'Constant folding' },
  { name: 'fold_conv_bn', label: 'Conv–BatchNorm folding' },
  { name: 'fuse', label: 'Fusions (conv/linear + residual + activation)' },
  { name: 'shape_prop', label: 'Shape propagation' },
];

function el(tag, props = {}, testid) {
  const e = Object.assign(document.createElement(tag), props);
  if (testid) e.dataset.testid = testid;
  return e;
}

/**
 * Compares two lists of table rows (arrays of cells, the node name in cell 1).
 * @returns {{removed: Set<string>, added: Set<string>, changed: Set<string>}}
 */
export function diffRows(before, after) {
  const b = new Map(before.map((r) => [r[1], r.join('\u0000')]));
  const a = new Map(after.map((r) => [r[1], r.join('\u0000')]));
  const removed = new Set([...b.keys()].filter((k) => !a.has(k)));
  const added = new Set([...a.keys()].filter((k) => !b.has(k)));
  const changed = new Set([...a.keys()].filter((k) => b.has(k) && b.get(k) !== a.get(k)));
  return { removed, added, changed };
}

function rowsTable(rows, marks, testid) {
  const table = el('table', { className: 'tabular compare' }, testid);
  const head = table.createTHead().insertRow();
  for (const h of ['opcode', 'name', 'target', 'args', 'kwargs']) head.append(el('th', { textContent: h }));
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    tr.dataset.node = r[1];
    const mark = Object.entries(marks).find(([, set]) => set.has(r[1]))?.[0];
    if (mark) tr.className = mark;
    for (const c of r.slice(0, 5)) tr.append(el('td', { textContent: c }));
  }
  return table;
}

/**
 * Renders the panel's controls into `container`.
 * @param handlers {apply(name): Promise, download(): void}
 * @returns {{setEnabled(on): void, showResult(result): void, reset(): void}}
 */
export function renderPassesPanel(container, handlers) {
  const buttons = PASSES.map((p) => {
    const b = el('button', { type: 'button', textContent: p.label, disabled: true }, `pass-${p.name}`);
    b.dataset.pass = p.name;
    b.addEventListener('click', () => handlers.apply(p.name));
    return b;
  });
  const download = el('button', { type: 'button', textContent: 'Download .fxw', disabled: true, className: 'secondary' }, 'download');
  download.addEventListener('click', () => handlers.download());
  const history = el('p', { className: 'hint' }, 'pass-history');
  const result = el('div', { className: 'pass-result' }, 'pass-result');
  const controls = el('div', { className: 'pass-buttons' });
  controls.append(...buttons, download);
  container.replaceChildren(controls, history, result);
  const applied = [];

  return {
    setEnabled(on) {
      for (const b of [...buttons, download]) b.disabled = !on;
    },
    reset() {
      applied.length = 0;
      history.textContent = '';
      result.replaceChildren();
    },
    /** result: {name, changed, before: rows, after: rows} */
    showResult({ name, changed, before, after }) {
      applied.push(`${name}${changed ? '' : ' (no change)'}`);
      history.textContent = `Applied: ${applied.join(' → ')}`;
      const d = diffRows(before, after);
      const summary = el('div', { className: 'pass-summary' }, 'pass-summary');
      summary.dataset.pass = name;
      summary.dataset.before = String(before.length);
      summary.dataset.after = String(after.length);
      summary.dataset.changed = String(changed);
      // Calls (call_function / call_method / call_module) are what runs: fusions trade calls for get_attr nodes.
      const calls = (rows) => rows.filter((r) => r[0].startsWith('call_')).length;
      summary.dataset.callsBefore = String(calls(before));
      summary.dataset.callsAfter = String(calls(after));
      const parts = [`${name}: ${changed ? 'changed the graph' : 'nothing to change'}`,
        `nodes ${before.length} → ${after.length}`];
      if (d.removed.size) parts.push(`removed ${[...d.removed].join(', ')}`);
      if (d.added.size) parts.push(`added ${[...d.added].join(', ')}`);
      if (d.changed.size) parts.push(`changed ${[...d.changed].join(', ')}`);
      parts.push(`calls ${calls(before)} → ${calls(after)}`);
      summary.textContent = parts.join('; ');
      const sideBySide = el('div', { className: 'compare-views' });
      const before_ = el('div', { className: 'scroll' });
      before_.append(el('h3', { textContent: `Before (${before.length} nodes)` }),
        rowsTable(before, { removed: d.removed, changed: d.changed }, 'pass-before'));
      const after_ = el('div', { className: 'scroll' });
      after_.append(el('h3', { textContent: `After (${after.length} nodes)` }),
        rowsTable(after, { added: d.added, changed: d.changed }, 'pass-after'));
      sideBySide.append(before_, after_);
      result.replaceChildren(summary, sideBySide);
    },
  };
}

/** Offers bytes as a file download. */
export function downloadBytes(bytes, filename) {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = el('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
