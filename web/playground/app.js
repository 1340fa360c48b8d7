// fxwasm playground: open a bundled example or a .fxw file, show its graph (table + code), run it
// with random inputs and show the outputs. State lives in one object; each panel has its own render
// module in lib/, so new panels (graph view, profile, editing) plug in beside the existing ones.
import { fetchExamples, renderExampleSelect, modelFromUrl, setModelInUrl } from './lib/examples.js';
import { tabularRows, renderTabular } from './lib/tabular.js';
import { inputSpecs, makeInputs } from './lib/inputs.js';
import { renderOutputs } from './lib/outputs.js';
import { renderInfo, formatBytes } from './lib/info.js';

const $ = (id) => document.getElementById(id);
const ui = {
  select: $('model-select'),
  file: $('file-input'),
  run: $('run-button'),
  status: $('status'),
  progress: $('progress'),
  error: $('error'),
  modelName: $('model-name'),
  empty: $('empty-note'),
  info: $('info'),
  tabular: $('tabular'),
  code: $('code'),
  inputsNote: $('inputs-note'),
  outputs: $('outputs'),
};

const state = {
  fxwasm: null,   // the package, once imported
  examples: [],
  gm: null,       // the open GraphModule
  nodes: [],      // its graph's nodes, read once per load
  info: null,
  busy: false,
  loadToken: 0,   // a newer load supersedes an older one still in flight
};

// ---- status and errors -------------------------------------------------------------------------

function setBusy(text) {
  state.busy = Boolean(text);
  ui.status.textContent = text || 'ready';
  document.body.classList.toggle('busy', state.busy);
  ui.select.disabled = state.busy || !state.fxwasm;
  ui.file.disabled = state.busy || !state.fxwasm;
  ui.run.disabled = state.busy || !state.gm;
  if (!state.busy) ui.progress.hidden = true;
}

function showError(context, err, subject = '') {
  let message = err?.message || String(err);
  // The package's messages often start with the source's name already: say it once.
  if (subject && message.startsWith(`${subject}: `)) message = message.slice(subject.length + 2);
  // FxError.node names the failing node; the core's message usually names it already.
  const node = typeof err?.node === 'string' ? err.node : err?.node?.name;
  const where = node && !message.includes(node) ? ` (node ${node})` : '';
  ui.error.textContent = `${context}${subject ? ` ${subject}` : ''}: ${message}${where}`;
  ui.error.hidden = false;
  console.error(context, err);
}

function clearError() {
  ui.error.textContent = '';
  ui.error.hidden = true;
}

function onProgress(p) {
  // The package reports {loaded, total} (total may be unknown) or a fraction in [0, 1].
  const fraction = typeof p === 'number' ? p : p && p.total ? p.loaded / p.total : null;
  ui.progress.hidden = false;
  if (fraction === null || !Number.isFinite(fraction)) ui.progress.removeAttribute('value');
  else ui.progress.value = Math.min(1, Math.max(0, fraction));
}

// ---- model lifecycle ---------------------------------------------------------------------------

function closeModel() {
  if (state.gm) {
    try {
      state.gm.dispose();
    } catch {
      /* already disposed */
    }
  }
  state.gm = null;
  state.nodes = [];
  state.info = null;
  ui.modelName.textContent = '';
  ui.empty.hidden = false;
  ui.info.replaceChildren();
  ui.tabular.tBodies[0].replaceChildren();
  ui.code.textContent = '';
  ui.inputsNote.textContent = '';
  ui.outputs.replaceChildren();
}

function showModel(label, bytes) {
  const { gm } = state;
  ui.modelName.textContent = label;
  ui.empty.hidden = true;
  renderInfo(ui.info, state.info, bytes !== undefined ? { file: `${label} (${formatBytes(bytes)})` } : {});
  renderTabular(ui.tabular, tabularRows(gm, state.nodes));
  ui.code.textContent = gm.code.replace(/^\n+/, ''); // FX's code starts with blank lines
}

/**
 * Loads a model from any source fxwasm.load accepts (URL string, Blob, bytes).
 * Failures show in the error box and leave the page usable with no model open.
 */
async function openModel(source, label, bytes) {
  const token = ++state.loadToken;
  clearError();
  closeModel();
  setBusy('loading…');
  try {
    const gm = await state.fxwasm.load(source, { onProgress });
    if (token !== state.loadToken) {
      gm.dispose();
      return false;
    }
    state.gm = gm;
    state.nodes = Array.from(gm.graph.nodes);
    try {
      state.info = gm.info();
    } catch {
      state.info = null; // the summary is a nicety; the graph is what matters
    }
    showModel(label, bytes);
    return true;
  } catch (err) {
    if (token === state.loadToken) {
      closeModel();
      showError('could not open', err, label);
    }
    return false;
  } finally {
    if (token === state.loadToken) setBusy(null);
  }
}

async function openExample(name) {
  const ex = state.examples.find((e) => e.name === name);
  if (!ex) {
    showError('unknown example', new Error(`no bundled example is named '${name}' ` +
      `(available: ${state.examples.map((e) => e.name).join(', ') || 'none'})`));
    ui.select.value = '';
    return;
  }
  ui.select.value = name;
  ui.file.value = '';
  setModelInUrl(name);
  await openModel(new URL(ex.path, window.location.href).href, name, ex.bytes);
}

async function openFile(file) {
  ui.select.value = '';
  setModelInUrl(null);
  const opened = openModel(file, file.name, file.size);
  ui.file.value = ''; // choosing the same file again (after fixing it) must fire 'change' again
  await opened;
}

async function runModel() {
  const { gm, fxwasm } = state;
  if (!gm || state.busy) return;
  clearError();
  ui.outputs.replaceChildren();
  setBusy('running…');
  try {
    const specs = inputSpecs(gm, state.nodes, state.info);
    const { inputs, note } = makeInputs(fxwasm, specs);
    ui.inputsNote.textContent = note;
    const t0 = performance.now();
    const result = await gm.run(inputs);
    renderOutputs(ui.outputs, result, performance.now() - t0);
  } catch (err) {
    showError('run failed', err);
  } finally {
    setBusy(null);
  }
}

// ---- start-up ----------------------------------------------------------------------------------

async function main() {
  ui.select.addEventListener('change', () => {
    if (ui.select.value) openExample(ui.select.value);
  });
  ui.file.addEventListener('change', () => {
    const file = ui.file.files?.[0];
    if (file) openFile(file);
  });
  ui.run.addEventListener('click', runModel);

  setBusy('loading…');
  try {
    state.fxwasm = await import('/web/src/index.js');
  } catch (err) {
    showError('could not load the fxwasm package', err);
  }
  try {
    state.examples = await fetchExamples();
    renderExampleSelect(ui.select, state.examples);
  } catch (err) {
    showError('could not list the examples', err);
  }
  setBusy(null);

  const wanted = modelFromUrl();
  if (wanted && state.fxwasm) await openExample(wanted);
}

main();
