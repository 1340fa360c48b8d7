// The model summary (gm.info(): format, producer, counts, inputs/outputs, parameters, unsupported ops)
// as a definition list. Known fields get a readable line; fields added later still show, generically.

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

function plainText(v) {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.map(plainText).join(', ') || 'none';
  if (typeof v === 'object') {
    if ('$size' in v) return `[${v.$size.join(', ')}]`;
    if ('$dtype' in v) return v.$dtype;
    if ('$tuple' in v) return `(${v.$tuple.map(plainText).join(', ')})`;
    return Object.entries(v).map(([k, x]) => `${k} ${plainText(x)}`).join(', ');
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

function tensorLine(t) {
  const shape = Array.isArray(t.shape) ? `[${t.shape.join(', ')}]` : t.shape ? plainText(t.shape) : 'shape unknown';
  const dtype = t.dtype ? ` ${plainText(t.dtype)}` : '';
  return `${t.name ?? '?'} ${shape}${dtype}`;
}

// {count, tensors, bytes} of parameters/buffers/constants; empty groups other than parameters are left out.
function tensorGroup(g, always) {
  if (!g || typeof g !== 'object' || (!always && !g.tensors)) return null;
  if (!g.tensors) return 'none';
  return `${Number(g.count).toLocaleString('en')} values in ${g.tensors} tensors, ${formatBytes(g.bytes)}`;
}

// Readable text for the fields of ModelInfo (web/src/index.d.ts); null = not shown.
const FIELDS = {
  format: (v, info) => `${v}${info.format_version ? ` ${info.format_version}` : ''}`,
  format_version: () => null,
  producer: (p) => Object.entries(p ?? {}).filter(([, x]) => x !== '' && x != null).map(([k, x]) => `${k} ${x}`).join(', ') || null,
  nodes: (n) => String(n),
  ops: (ops) => Object.entries(ops ?? {}).map(([k, n]) => `${k} ${n}`).join(', '),
  targets: (t) => Object.entries(t ?? {}).map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ') || 'none',
  inputs: (xs) => (xs?.length ? xs.map(tensorLine).join('; ') : 'none'),
  outputs: (xs) => (xs?.length ? xs.map(tensorLine).join('; ') : 'none'),
  parameters: (p) => tensorGroup(p, true),
  buffers: (b) => tensorGroup(b, false),
  constants: (c) => tensorGroup(c, false),
  has_reference: (v) => (v ? 'yes (stored inputs and outputs)' : 'no'),
  unsupported: (xs) =>
    xs?.length ? xs.map((u) => `${u.target ?? u.op} (${(u.nodes ?? []).join(', ')})`).join('; ') : null,
};

/** Fills a <dl> from an info object; `extra` entries (e.g. the file) come first. */
export function renderInfo(dl, info, extra = {}) {
  const frag = document.createDocumentFragment();
  const add = (key, text) => {
    if (text === null || text === undefined || text === '') return;
    const dt = Object.assign(document.createElement('dt'), { textContent: key.replace(/_/g, ' ') });
    const dd = Object.assign(document.createElement('dd'), { textContent: text });
    if (key === 'unsupported') dd.className = 'warn';
    frag.append(dt, dd);
  };
  for (const [k, v] of Object.entries(extra)) add(k, v);
  for (const [k, v] of Object.entries(info ?? {})) {
    add(k, k in FIELDS ? FIELDS[k](v, info) : plainText(v));
  }
  dl.replaceChildren(frag);
}
