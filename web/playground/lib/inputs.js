// Inputs for the Run button: random tensors shaped like the graph's placeholders, drawn by the package
// (fxwasm.randomTensor with fxwasm.seededRandom(seed)), so a seed gives the same inputs as the CLI's
// `run --random --seed N` and the API.
//
// Where a shape comes from, in order of preference:
//   1. the placeholder's meta (shape/dtype recorded by the exporter), or gm.info().inputs;
//   2. the shapes of the reference inputs stored in the file;
//   3. nothing known: the reference inputs themselves (non-tensor inputs are passed as stored).
// The note returned with the inputs tells the user which one was used.

const FLOAT_DTYPES = new Set(['float32', 'float64', 'float16', 'bfloat16']);

// Tagged values as the graph JSON decodes them ({$size: [...]}, {$dtype: 'float32'}) or plain.
const untag = (v, tag) => (v && typeof v === 'object' && tag in v ? v[tag] : v);

function shapeOf(spec) {
  const s = untag(spec?.shape ?? spec?.tensor_meta?.shape ?? spec?.val?.shape, '$size');
  if (!Array.isArray(s)) return null;
  // Symbolic sizes (strings or null) have no concrete value to draw from.
  return s.every((d) => Number.isInteger(Number(d)) && Number(d) >= 0) ? s.map(Number) : null;
}

function dtypeOf(spec) {
  const d = untag(spec?.dtype ?? spec?.tensor_meta?.dtype ?? spec?.val?.dtype, '$dtype');
  return typeof d === 'string' ? d.replace(/^torch\./, '') : 'float32';
}

function safeCall(fn) {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** Reference inputs stored in the file, as an array (empty when the file has none). */
export function referenceInputs(gm) {
  // gm.reference() copies the stored tensors out of the core; null when the file has none.
  const ref = typeof gm.reference === 'function' ? safeCall(() => gm.reference()) : gm.reference;
  return Array.isArray(ref?.inputs) ? ref.inputs : [];
}

/** What is known about each placeholder: [{name, shape, dtype, source}] (shape null when unknown). */
export function inputSpecs(gm, nodes, info) {
  const placeholders = nodes.filter((n) => n.op === 'placeholder');
  const fromInfo = Array.isArray(info?.inputs) ? info.inputs : [];
  let refs = null; // read only when some placeholder needs them
  const ref = (i) => (refs ??= referenceInputs(gm))[i];
  return placeholders.map((node, i) => {
    const meta = node.meta ?? {};
    const known = [
      [() => meta, 'meta'],
      [() => fromInfo.find((x) => x?.name === node.name) ?? fromInfo[i], 'meta'],
      [() => ref(i), 'reference'],
    ];
    for (const [get, source] of known) {
      const spec = get();
      const shape = shapeOf(spec);
      if (shape) return { name: node.name, shape, dtype: dtypeOf(spec), source };
    }
    const value = ref(i);
    return { name: node.name, shape: null, dtype: null, source: value !== undefined ? 'reference-value' : 'none', value };
  });
}

// How randomTensor draws each dtype, in words for the note under the Run button.
const DRAWS = (dtype) => (FLOAT_DTYPES.has(dtype) ? 'randn' : dtype === 'bool' ? 'random bools' : 'random ints 0..9');

/**
 * Builds the inputs for one run.
 * @param fxwasm the package (its randomTensor and seededRandom draw the random inputs)
 * @param options.seed seed for the random inputs (one generator, drawn in placeholder order)
 * @param options.given {name: {value, note}}: inputs chosen by the user (a .npy, an image, the drawing)
 * @returns {{inputs: any[], note: string}}
 */
export function makeInputs(fxwasm, specs, { seed = 0, given = {} } = {}) {
  const described = [];
  const rng = fxwasm.seededRandom(seed);
  const inputs = specs.map((spec) => {
    if (given[spec.name]) {
      described.push(`${spec.name}: ${given[spec.name].note}`);
      return given[spec.name].value;
    }
    if (spec.shape) {
      described.push(`${spec.name}: ${DRAWS(spec.dtype)} [${spec.shape.join(', ')}] ${spec.dtype}, seed ${seed}` +
        (spec.source === 'reference' ? ' (shape of the stored reference input)' : ''));
      try {
        return fxwasm.randomTensor(spec.shape, spec.dtype, rng);
      } catch (err) {
        throw new Error(`input '${spec.name}': cannot draw it at random: ${err.message}`, { cause: err });
      }
    }
    if (spec.source === 'reference-value') {
      described.push(`${spec.name}: the stored reference value`);
      return spec.value;
    }
    throw new Error(`no shape is known for input '${spec.name}' (no meta and no reference inputs in the file); ` +
      'export the model with example inputs to run it here');
  });
  return { inputs, note: described.length ? `Inputs: ${described.join('; ')}` : 'No inputs.' };
}
