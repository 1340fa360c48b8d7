// Python-style repr of FX argument values as the JS API hands them out — the fallback used when the
// core's own printTabular text is unavailable. Arrays print as tuples (the package decodes both tuples
// and lists to arrays; FX args are tuples); tagged values ({$dtype: …}, {$size: …}) print as Python would.

function floatRepr(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return String(x);
}

function strRepr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(new RegExp(q, 'g'), `\\${q}`);
  return q + body + q;
}

function seq(items, open, close) {
  const inner = items.map(reprArg).join(', ');
  return open + inner + (open === '(' && items.length === 1 ? ',' : '') + close;
}

function isNodeRef(v) {
  return v && typeof v === 'object' && typeof v.name === 'string' && typeof v.op === 'string';
}

/** Python's repr of one argument value. */
export function reprArg(v) {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return floatRepr(v);
  if (typeof v === 'string') return strRepr(v);
  if (Array.isArray(v)) return seq(v, '(', ')');
  if (isNodeRef(v)) return v.name;
  if (typeof v === 'object') {
    // One-key tagged values, as the package's graph view leaves them ({$dtype: 'float32'}, …).
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0].startsWith('$')) {
      const x = v[keys[0]];
      switch (keys[0]) {
        case '$node': return String(x?.name ?? x);
        case '$tuple': return seq(x, '(', ')');
        case '$list': return seq(x, '[', ']');
        case '$size': return `torch.Size(${seq(x, '[', ']')})`;
        case '$slice': return `slice(${x.map(reprArg).join(', ')})`;
        case '$dtype': return `torch.${x}`;
        case '$device': return `device(type='${x}')`;
        case '$memory_format': return `torch.${x}`;
        case '$layout': return `torch.${x}`;
        case '$float': return x === 'nan' ? 'nan' : x === 'inf' ? 'inf' : x === '-inf' ? '-inf' : floatRepr(Number(x));
        case '$ellipsis': return 'Ellipsis';
        default: break;
      }
    }
    const entries = Object.entries(v).map(([k, x]) => `${strRepr(k)}: ${reprArg(x)}`);
    return `{${entries.join(', ')}}`;
  }
  return String(v);
}

/** A node's target as print_tabular shows it (canonical qualified names for callables). */
export function targetName(node) {
  const t = node.target;
  if (typeof t === 'string') return t;
  if (t && typeof t === 'object') return t.name ?? t.qualname ?? JSON.stringify(t);
  return String(t);
}
