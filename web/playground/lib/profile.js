// The per-node profile of the last run: the median of each node's time over the timed runs after a
// warm-up (fxwasm.profileRuns), as a chart of where the time goes (summed by op type or module class,
// torch.profiler's key_averages) and a table of every node with its time, its share of the total and its
// output shape/dtype, sortable by any column (click a header; click again to reverse). The timing
// columns come first, so they stay in view on a narrow screen. Rows carry data-node so selecting one
// selects the node.
const SVG = 'http://www.w3.org/2000/svg';

const COLUMNS = [
  { key: 'index', label: '#', num: true },
  { key: 'ms', label: 'ms', num: true, desc: true },      // desc: first click sorts largest first
  { key: 'share', label: 'share', num: true, desc: true },
  { key: 'name', label: 'name' },
  { key: 'op', label: 'opcode' },
  { key: 'target', label: 'target' },
  { key: 'shape', label: 'output shape' },
  { key: 'dtype', label: 'dtype' },
];

const shapeText = (s) => (Array.isArray(s) ? `[${s.join(', ')}]` : s?.$size ? `[${s.$size.join(', ')}]` : s ? String(s) : '');
const dtypeText = (d) => (typeof d === 'string' ? d : d?.$dtype ?? '');

/** Rows for the table: the profile entries with their index and share of the total time. */
export function profileRows(profile) {
  const total = profile.reduce((a, p) => a + (Number(p.ms) || 0), 0);
  return profile.map((p, index) => ({
    index,
    name: p.name,
    op: p.op,
    target: typeof p.target === 'string' ? p.target : String(p.target ?? ''),
    shape: shapeText(p.shape),
    dtype: dtypeText(p.dtype),
    ms: Number(p.ms) || 0,
    share: total > 0 ? (Number(p.ms) || 0) / total : 0,
    fusedInto: typeof p.fused_into === 'string' ? p.fused_into : '',  // run inside that node at load
  }));
}

/** Sorts rows by a column (numbers numerically, text alphabetically); ties keep graph order. */
export function sortRows(rows, key, descending) {
  const col = COLUMNS.find((c) => c.key === key) ?? COLUMNS[0];
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const d = col.num ? a[key] - b[key] : String(a[key]).localeCompare(String(b[key]));
    return d ? sign * d : a.index - b.index;
  });
}

function cellText(row, key) {
  if (key === 'ms') return row.fusedInto ? `fused into ${row.fusedInto}` : row.ms.toFixed(3);
  if (key === 'share') return `${(row.share * 100).toFixed(1)}%`;
  return String(row[key]);
}

const CHART_ROWS = 12;

/** Horizontal bars of the slowest groups (op type or module class) with their share of the run. */
function renderChart(groups) {
  const shown = groups.slice(0, CHART_ROWS);
  const rowH = 18;
  const labelW = 190;
  const barW = 260;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'profile-chart');
  svg.setAttribute('viewBox', `0 0 ${labelW + barW + 110} ${rowH * shown.length + 4}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'time by group');
  svg.dataset.testid = 'profile-chart';
  const top = Math.max(...shown.map((g) => g.total_ms), 1e-9);
  shown.forEach((g, i) => {
    const y = 2 + i * rowH;
    const row = document.createElementNS(SVG, 'g');
    row.setAttribute('class', 'chart-row');
    row.dataset.key = g.key;
    row.dataset.ms = String(g.total_ms);
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', labelW - 6);
    label.setAttribute('y', y + 12);
    label.setAttribute('class', 'chart-label');
    label.textContent = g.key.length > 28 ? `${g.key.slice(0, 27)}…` : g.key;
    const bar = document.createElementNS(SVG, 'rect');
    bar.setAttribute('x', labelW);
    bar.setAttribute('y', y + 2);
    bar.setAttribute('height', rowH - 5);
    bar.setAttribute('width', ((g.total_ms / top) * barW).toFixed(1));
    const value = document.createElementNS(SVG, 'text');
    value.setAttribute('x', labelW + (g.total_ms / top) * barW + 5);
    value.setAttribute('y', y + 12);
    value.setAttribute('class', 'chart-value');
    value.textContent = `${g.total_ms.toFixed(3)} ms ${(g.share * 100).toFixed(1)}% ×${g.count}`;
    row.append(label, bar, value);
    svg.append(row);
  });
  return svg;
}

const PALETTE = ['#5b8def', '#ee4c2c', '#22863a', '#b07d18', '#6f42c1', '#0e8a9e', '#c2185b', '#7a8a00'];
const TIMELINE_W = 560;

/**
 * One run as a timeline: every node a segment as wide as its (median) time, in graph order, coloured by
 * its group (the chart's first groups; grey for the rest). Clicking a segment selects the node.
 */
function renderTimeline(profile, groups, keyOf, onSelect) {
  const total = profile.reduce((a, p) => a + (Number(p.ms) || 0), 0);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'profile-timeline');
  svg.setAttribute('viewBox', `0 0 ${TIMELINE_W} 22`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'timeline of one run');
  svg.dataset.testid = 'profile-timeline';
  const colour = new Map(groups.slice(0, PALETTE.length).map((g, i) => [g.key, PALETTE[i]]));
  let x = 0;
  for (const p of profile) {
    const w = total > 0 ? ((Number(p.ms) || 0) / total) * TIMELINE_W : 0;
    const r = document.createElementNS(SVG, 'rect');
    r.setAttribute('x', x.toFixed(3));
    r.setAttribute('y', '2');
    r.setAttribute('width', w.toFixed(3));
    r.setAttribute('height', '18');
    r.setAttribute('fill', colour.get(keyOf(p)) ?? '#c6d0dc');
    r.dataset.node = p.name;
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${p.name} (${p.target}): ${(Number(p.ms) || 0).toFixed(3)} ms`;
    r.append(title);
    svg.append(r);
    x += w;
  }
  svg.addEventListener('click', (ev) => {
    const node = ev.target.closest?.('rect')?.dataset.node;
    if (node && onSelect) onSelect(node);
  });
  return svg;
}

/**
 * Renders the profile into `container`; `onSelect(name)` when a row is clicked. `options`: {runs,
 * warmup (counts, for the note), groups (fxwasm.groupProfile of the profile), keyOf(entry) (its group's
 * key, for the timeline's colours), by ('op' | 'module'),
 * onGroup(by) when the grouping is changed, onTrace() to download the runs as a Chrome trace}.
 */
export function renderProfile(container, profile, onSelect, options = {}) {
  const { runs = 1, warmup = 0, groups = [], keyOf = null, by = 'op', onGroup, onTrace } = options;
  const rows = profileRows(profile ?? []);
  const total = rows.reduce((a, r) => a + r.ms, 0);
  let sortKey = 'ms';
  let descending = true;

  const table = document.createElement('table');
  table.className = 'profile-table';
  const thead = table.createTHead().insertRow();
  const tbody = table.createTBody();
  for (const c of COLUMNS) {
    const th = document.createElement('th');
    th.textContent = c.label;
    th.dataset.sort = c.key;
    th.className = c.num ? 'num' : '';
    th.tabIndex = 0;
    th.setAttribute('role', 'columnheader');
    thead.append(th);
  }

  function draw() {
    for (const th of thead.cells) {
      th.setAttribute('aria-sort', th.dataset.sort === sortKey ? (descending ? 'descending' : 'ascending') : 'none');
    }
    tbody.replaceChildren(...sortRows(rows, sortKey, descending).map((r) => {
      const tr = document.createElement('tr');
      tr.dataset.node = r.name;
      for (const c of COLUMNS) {
        const td = document.createElement('td');
        td.textContent = cellText(r, c.key);
        if (c.num) td.className = 'num';
        if (c.key === 'share') td.style.setProperty('--share', `${(r.share * 100).toFixed(1)}%`);
        tr.append(td);
      }
      return tr;
    }));
  }

  const sortBy = (key) => {
    if (key === sortKey) descending = !descending;
    else {
      sortKey = key;
      descending = COLUMNS.find((c) => c.key === key)?.desc ?? false;
    }
    draw();
  };
  thead.addEventListener('click', (ev) => {
    const th = ev.target.closest('th');
    if (th) sortBy(th.dataset.sort);
  });
  thead.addEventListener('keydown', (ev) => {
    const th = ev.target.closest('th');
    if (th && (ev.key === 'Enter' || ev.key === ' ')) sortBy(th.dataset.sort);
  });
  tbody.addEventListener('click', (ev) => {
    const tr = ev.target.closest('tr');
    if (tr && onSelect) onSelect(tr.dataset.node);
  });
  draw();

  const note = document.createElement('p');
  note.className = 'hint';
  note.dataset.testid = 'profile-note';
  note.textContent = `${rows.length} nodes, ${total.toFixed(3)} ms in total: per-node medians of ${runs} timed ` +
    `run${runs === 1 ? '' : 's'} after ${warmup} warm-up (click a column to sort).`;

  const controls = document.createElement('div');
  controls.className = 'profile-controls';
  const label = Object.assign(document.createElement('label'), { textContent: 'Time by ' });
  const select = document.createElement('select');
  select.dataset.testid = 'profile-group';
  for (const [value, text] of [['op', 'op type'], ['module', 'module class']]) {
    select.append(Object.assign(document.createElement('option'), { value, textContent: text, selected: value === by }));
  }
  select.addEventListener('change', () => onGroup?.(select.value));
  label.append(select);
  controls.append(label);
  if (onTrace) {
    const trace = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary small', textContent: 'Download trace (Perfetto)' });
    trace.dataset.testid = 'profile-trace';
    trace.addEventListener('click', onTrace);
    controls.append(trace);
  }
  const chart = groups.length ? renderChart(groups) : document.createElement('div');
  const timeline = groups.length && keyOf ? renderTimeline(profile, groups, keyOf, onSelect) : document.createElement('div');
  container.replaceChildren(note, controls, chart, timeline, table);
}

export function clearProfile(container) {
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent = 'Run the model to see the time of every node.';
  container.replaceChildren(note);
}
