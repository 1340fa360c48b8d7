// The per-node profile of the last run (gm.run(inputs, {profile: true}).profile): a table of every
// node with its time, its share of the total and its output shape/dtype, sortable by any column
// (click a header; click again to reverse). Rows carry data-node so selecting one selects the node.

const COLUMNS = [
  { key: 'index', label: '#', num: true },
  { key: 'name', label: 'name' },
  { key: 'op', label: 'opcode' },
  { key: 'target', label: 'target' },
  { key: 'shape', label: 'output shape' },
  { key: 'dtype', label: 'dtype' },
  { key: 'ms', label: 'ms', num: true, desc: true },      // desc: first click sorts largest first
  { key: 'share', label: 'share', num: true, desc: true },
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
  if (key === 'ms') return row.ms.toFixed(3);
  if (key === 'share') return `${(row.share * 100).toFixed(1)}%`;
  return String(row[key]);
}

/** Renders the profile into `container`; `onSelect(name)` when a row is clicked. */
export function renderProfile(container, profile, onSelect) {
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
  note.textContent = `${rows.length} nodes, ${total.toFixed(3)} ms in total (click a column to sort).`;
  container.replaceChildren(note, table);
}

export function clearProfile(container) {
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent = 'Run the model to see the time of every node.';
  container.replaceChildren(note);
}
