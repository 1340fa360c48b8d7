// fxwasm playground: open a bundled example, a .fxw file (picker or drag-and-drop) or a URL; look at
// its summary, table, drawing and code; run it on chosen inputs (seeded random, .npy, an image, the
// digits drawing) and see outputs and a per-node profile; apply graph passes and download the result.
// State lives in one object here; each panel renders through its own module in lib/.
import { fetchExamples, renderExampleSelect, modelFromUrl, setModelInUrl } from './lib/examples.js';
import { tabularRows, renderTabular, metaShapes, profileShapes, updateTabularShapes, selectInTable } from './lib/tabular.js';
import { createGraphView } from './lib/graph.js';
import { buildGraphModel, scopesAtDepth, searchItems } from './lib/graph-model.js';
import { renderDetails, clearDetails } from './lib/node-details.js';
import { inputSpecs, makeInputs } from './lib/inputs.js';
import { renderInputsEditor, isDigitsSpec } from './lib/inputs-panel.js';
import { renderDigitsPanel } from './lib/digits.js';
import { renderOutputs, flattenOutputs } from './lib/outputs.js';
import { renderProfile, clearProfile } from './lib/profile.js';
import { renderPassesPanel, downloadBytes, diffRows } from './lib/passes.js';
import { renderInfo, formatBytes } from './lib/info.js';
import { installDropTarget } from './lib/drop.js';
import { setUpThreadsControl } from './lib/threads.js';

const $ = (id) => document.getElementById(id);
const ui = {
  select: $('model-select'),
  file: $('file-input'),
  urlForm: $('url-form'),
  url: $('url-input'),
  urlOpen: $('url-open'),
  run: $('run-button'),
  threads: $('threads-select'),
  threadsNote: $('threads-note'),
  status: $('status'),
  progress: $('progress'),
  error: $('error'),
  drop: $('drop-overlay'),
  modelName: $('model-name'),
  empty: $('empty-note'),
  info: $('info'),
  tabular: $('tabular'),
  graph: $('graph'),
  graphBox: $('graph-box'),
  minimap: $('graph-minimap'),
  details: $('graph-details'),
  zoomIn: $('graph-zoom-in'),
  zoomOut: $('graph-zoom-out'),
  fit: $('graph-fit'),
  foldDepth: $('graph-fold-depth'),
  search: $('graph-search'),
  searchForm: $('graph-search-form'),
  searchCount: $('graph-search-count'),
  marks: $('graph-marks'),
  selection: $('selection-note'),
  code: $('code'),
  inputs: $('inputs'),
  digits: $('digits-panel'),
  inputsNote: $('inputs-note'),
  outputs: $('outputs'),
  profile: $('profile'),
  profileRuns: $('profile-runs'),
  profileWarmup: $('profile-warmup'),
  passes: $('passes'),
};

const state = {
  fxwasm: null,    // the package, once imported
  examples: [],
  gm: null,        // the open GraphModule
  label: '',       // its name (example name or file name)
  nodes: [],       // its graph's nodes, re-read after every edit
  rows: [],        // print_tabular rows of those nodes
  info: null,
  runShapes: {},   // output shapes/dtypes seen in the last run's profile
  selected: null,  // the selected node's name
  graphModel: null, // what the drawing shows (lib/graph-model.js)
  modules: {},     // gm.modules()
  tensors: [],     // gm.tensors()
  profile: null,   // the last run's profile: per-node medians of the timed runs
  profileRuns: [], // each timed run's profile (for the trace)
  profileCounts: { runs: 1, warmup: 0 },
  profileBy: 'op', // the chart sums by 'op' type or 'module' class
  folded: new Set(), // module scopes drawn as one box
  marks: null,     // {added, changed} node names of the last pass that changed the graph
  search: { query: '', index: 0 },
  editor: null,    // the inputs editor
  digits: null,    // the digits panel, when the model takes [N, 1, 8, 8]
  digitsInput: null,
  runAgain: false, // a drawing arrived while a run was going
  busy: false,
  loadToken: 0,    // a newer load supersedes an older one still in flight
};

// ---- status and errors -------------------------------------------------------------------------

function setBusy(text) {
  state.busy = Boolean(text);
  ui.status.textContent = text || 'ready';
  document.body.classList.toggle('busy', state.busy);
  const noPackage = state.busy || !state.fxwasm;
  ui.select.disabled = noPackage;
  ui.file.disabled = noPackage;
  ui.urlOpen.disabled = noPackage;
  ui.run.disabled = state.busy || !state.gm;
  ui.threads.disabled = noPackage;
  passesPanel.setEnabled(!state.busy && Boolean(state.gm));
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
  ui.progress.dataset.seen = 'true'; // lets a test see that progress was reported
  if (fraction === null || !Number.isFinite(fraction)) ui.progress.removeAttribute('value');
  else ui.progress.value = Math.min(1, Math.max(0, fraction));
}

// ---- selection, kept in step between the table, the drawing and the profile ---------------------

function detailsContext() {
  return {
    gm: state.gm, model: state.graphModel, nodes: state.nodes, modules: state.modules, tensors: state.tensors,
    profile: state.profile, folded: state.folded, onFold: foldScope, onUnfold: unfoldScope,
  };
}

function select(name) {
  state.selected = name;
  selectInTable(ui.tabular, name);
  graphView.select(name);
  if (state.gm && state.graphModel && name) showDetails({ name });
  else clearDetails(ui.details);
  for (const tr of ui.profile.querySelectorAll('tr.selected')) tr.classList.remove('selected');
  if (name) ui.profile.querySelector(`tr[data-node="${CSS.escape(name)}"]`)?.classList.add('selected');
  const node = state.nodes.find((n) => n.name === name);
  ui.selection.textContent = node ? `selected: ${node.name} (${node.op} ${node.target})` : '';
  ui.selection.dataset.node = node ? node.name : '';
}

/** A folded module's box was clicked: its summary, hyperparameters and an unfold button. */
function selectGroup(scope) {
  state.selected = null;
  selectInTable(ui.tabular, null);
  graphView.select(`module:${scope}`);
  ui.selection.textContent = `selected: module ${scope}`;
  ui.selection.dataset.node = '';
  showDetails({ scope });
}

function showDetails(what) {
  renderDetails(ui.details, what, detailsContext()).catch((err) => showError('could not show the details', err));
}

// ---- the drawing: folding, search, pass marks ---------------------------------------------------

const graphView = createGraphView({ svg: ui.graph, box: ui.graphBox, minimap: ui.minimap, onSelect: select, onSelectGroup: selectGroup });

async function redrawGraph(keepView) {
  try {
    await graphView.render(state.graphModel, { folded: state.folded, marks: state.marks, keepView });
    ui.graph.dataset.folded = [...state.folded].join(' ');
  } catch (err) {
    graphView.clear();
    showError('could not draw the graph', err);
  }
}

async function foldScope(scope) {
  state.folded.add(scope);
  ui.foldDepth.value = '';
  await redrawGraph(true);
  selectGroup(scope);
}

async function unfoldScope(scope) {
  for (const s of [...state.folded]) if (s === scope || s.startsWith(`${scope}.`)) state.folded.delete(s);
  ui.foldDepth.value = state.folded.size ? '' : '0';
  await redrawGraph(true);
  const first = state.graphModel.items.find((it) => it.scope === scope || it.scope.startsWith(`${scope}.`));
  select(first?.name ?? null);
}

async function foldToDepth(depth) {
  if (!state.graphModel) return;
  state.folded = new Set(depth > 0 ? scopesAtDepth(state.graphModel, depth) : []);
  await redrawGraph(false);
  select(state.selected);
}

function runSearch(next) {
  const query = ui.search.value;
  if (!state.graphModel) return;
  state.search.index = next && query === state.search.query ? state.search.index + 1 : 0;
  state.search.query = query;
  const names = searchItems(state.graphModel, query);
  const id = graphView.showMatches(names, state.search.index);
  ui.searchCount.textContent = query.trim() ? (names.length ? `${(state.search.index % names.length) + 1}/${names.length}` : 'no match') : '';
  ui.search.dataset.current = id ?? '';
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
  Object.assign(state, { gm: null, label: '', nodes: [], rows: [], info: null, runShapes: {}, selected: null,
    editor: null, digits: null, digitsInput: null, runAgain: false });
  ui.modelName.textContent = '';
  threadsControl.show(null);
  ui.empty.hidden = false;
  ui.info.replaceChildren();
  ui.tabular.tBodies[0].replaceChildren();
  Object.assign(state, { graphModel: null, modules: {}, tensors: [], profile: null, profileRuns: [], folded: new Set(), marks: null,
    search: { query: '', index: 0 } });
  graphView.clear();
  clearDetails(ui.details);
  ui.foldDepth.value = '0';
  ui.search.value = '';
  ui.searchCount.textContent = '';
  ui.marks.textContent = '';
  ui.selection.textContent = '';
  ui.code.textContent = '';
  ui.inputs.replaceChildren();
  ui.digits.replaceChildren();
  ui.digits.hidden = true;
  ui.inputsNote.textContent = '';
  ui.outputs.replaceChildren();
  clearProfile(ui.profile);
  passesPanel.reset();
}

/** Re-reads the graph from the core and redraws every view of it (after a load or a pass). */
async function refreshViews(bytes, keepView = false) {
  const { gm } = state;
  state.nodes = Array.from(gm.graph.nodes);
  state.rows = tabularRows(gm, state.nodes);
  try {
    state.info = gm.info();
  } catch {
    state.info = null; // the summary is a nicety; the graph is what matters
  }
  ui.modelName.textContent = state.label;
  ui.empty.hidden = true;
  renderInfo(ui.info, state.info, bytes !== undefined ? { file: `${state.label} (${formatBytes(bytes)})` } : {});
  renderTabular(ui.tabular, state.rows, { ...state.runShapes, ...metaShapes(state.nodes) }, select);
  ui.code.textContent = gm.code.replace(/^\n+/, ''); // FX's code starts with blank lines
  try {
    state.modules = gm.modules();
    state.tensors = gm.tensors();
  } catch {
    state.modules = {}; // an older file without a module tree still draws
    state.tensors = [];
  }
  state.graphModel = buildGraphModel(state.nodes, state.modules, state.tensors);
  // Folded scopes a pass removed entirely have nothing left to fold.
  const scopes = new Set(state.graphModel.items.map((it) => it.scope));
  for (const s of [...state.folded]) if (![...scopes].some((x) => x === s || x.startsWith(`${s}.`))) state.folded.delete(s);
  await redrawGraph(keepView);
  if (state.selected && !state.nodes.some((n) => n.name === state.selected)) state.selected = null;
  select(state.selected);
}

function setUpInputs() {
  const { gm, fxwasm } = state;
  const specs = inputSpecs(gm, state.nodes, state.info);
  state.editor = renderInputsEditor(ui.inputs, {
    fxwasm, gm, specs, onError: (context, err) => showError(context, err),
  });
  const digitsSpec = specs.find(isDigitsSpec);
  ui.digits.hidden = !digitsSpec;
  if (digitsSpec) {
    state.digits = renderDigitsPanel(ui.digits, fxwasm, digitsSpec.shape[0], (tensor) => {
      state.editor.useDrawing(digitsSpec.name, tensor);
      state.digitsInput = digitsSpec.name;
      runModel();
    });
  }
}

/**
 * Loads a model from any source fxwasm.load accepts (URL string, Blob, bytes). A failure shows in the
 * error box and keeps the model that was open (with its edits); the new one replaces it only once loaded.
 */
async function openModel(source, label, bytes) {
  const token = ++state.loadToken;
  clearError();
  ui.progress.value = 0;
  delete ui.progress.dataset.seen;
  setBusy('loading…');
  let replaced = false;
  try {
    // Inspection first: a graph with ops the runtime cannot run still opens (the summary lists them, a
    // run shows the load-time error naming them all).
    const gm = await state.fxwasm.load(source, { onProgress, allowUnsupported: true, threads: threadsControl.value() });
    if (token !== state.loadToken) {
      gm.dispose();
      return false;
    }
    closeModel();
    replaced = true;
    state.gm = gm;
    state.label = label;
    threadsControl.show(gm.threadInfo);
    await refreshViews(bytes);
    setUpInputs();
    return true;
  } catch (err) {
    if (token === state.loadToken) {
      // Loaded but not drawable: nothing half-shown stays. A failed load leaves the open model as it was.
      if (replaced) closeModel();
      showError('could not open', formatError(err), label);
    }
    return false;
  } finally {
    if (token === state.loadToken) setBusy(null);
  }
}

// The core's format errors start "fxwasm file: …": to a user opening a file, that means it is not one.
function formatError(err) {
  const message = err?.message || String(err);
  if (!/(^|: )fxwasm file: /.test(message)) return err;
  const e = new Error(message.replace(/(^|: )fxwasm file: /, '$1not an .fxw file: '));
  if (err?.node) e.node = err.node;
  return e;
}

async function openExample(name) {
  const ex = state.examples.find((e) => e.name === name);
  if (!ex) {
    showError('unknown example', new Error(`no bundled example is named '${name}' ` +
      `(available: ${state.examples.map((e) => e.name).join(', ') || 'none'})`));
    ui.select.value = '';
    return;
  }
  const previous = ui.select.value;
  ui.select.value = name;
  ui.file.value = '';
  if (await openModel(new URL(ex.path, window.location.href).href, name, ex.bytes)) setModelInUrl(name);
  else if (state.gm) ui.select.value = previous; // the open model stays: so does its entry
}

async function openFile(file) {
  const opened = openModel(file, file.name, file.size);
  ui.file.value = ''; // choosing the same file again (after fixing it) must fire 'change' again
  if (await opened) {
    ui.select.value = '';
    setModelInUrl(null);
  }
}

async function openUrl(text) {
  let url;
  try {
    url = new URL(text.trim(), window.location.href);
  } catch {
    showError('could not open', new Error(`'${text}' is not a URL`));
    return;
  }
  const label = decodeURIComponent(url.pathname.split('/').pop() || url.host);
  if (await openModel(url.href, label)) {
    ui.select.value = '';
    setModelInUrl(null);
  }
}

// ---- run ---------------------------------------------------------------------------------------

async function runModel() {
  const { gm, fxwasm } = state;
  if (!gm) return;
  if (state.busy) {
    state.runAgain = true; // e.g. a stroke finished while the previous one was being recognised
    return;
  }
  clearError();
  setBusy('running…');
  try {
    const specs = inputSpecs(gm, state.nodes, state.info);
    const { inputs, note } = makeInputs(fxwasm, specs, { seed: state.editor.seed(), given: state.editor.given() });
    ui.inputsNote.textContent = note;
    // A warm-up, then timed runs: one cold run times the allocator more than the model.
    const runs = intIn(ui.profileRuns, 1, 100, 3);
    const warmup = intIn(ui.profileWarmup, 0, 20, 1);
    const r = await fxwasm.profileRuns(gm, inputs, { runs, warmup });
    const { outputs, profile } = r;
    const ms = [...r.wall_ms].sort((a, b) => a - b)[r.wall_ms.length >> 1];
    renderOutputs(ui.outputs, outputs, ms);
    Object.assign(state, { profile, profileRuns: r.runs, profileCounts: { runs, warmup } });
    showProfile();
    state.runShapes = profileShapes(profile);
    updateTabularShapes(ui.tabular, state.runShapes);
    select(state.selected);
    const first = flattenOutputs(outputs)[0]?.value;
    if (state.digits && state.digitsInput && state.editor.given()[state.digitsInput] && first?.data) {
      state.digits.showPrediction(first);
    }
  } catch (err) {
    ui.outputs.replaceChildren();
    showError('run failed', err);
  } finally {
    setBusy(null);
  }
  if (state.runAgain) {
    state.runAgain = false;
    await runModel();
  }
}

function intIn(input, min, max, fallback) {
  const v = Math.round(Number(input.value));
  const ok = Number.isFinite(v) && input.value !== '' ? Math.min(max, Math.max(min, v)) : fallback;
  input.value = String(ok);
  return ok;
}

function showProfile() {
  const { fxwasm, profile } = state;
  renderProfile(ui.profile, profile, select, {
    ...state.profileCounts,
    by: state.profileBy,
    groups: fxwasm.groupProfile(profile, state.modules, state.profileBy),
    keyOf: (entry) => fxwasm.profileKey(entry, state.modules, state.profileBy),
    onGroup: (by) => {
      state.profileBy = by;
      showProfile();
    },
    onTrace: () => {
      const trace = fxwasm.chromeTrace(state.profileRuns, { name: state.label, modules: state.modules });
      const stem = state.label.replace(/\.fxw$/i, '') || 'model';
      downloadBytes(new TextEncoder().encode(JSON.stringify(trace)), `${stem}.trace.json`);
    },
  });
}

// ---- transform ---------------------------------------------------------------------------------

async function applyPass(name) {
  const { gm } = state;
  if (!gm || state.busy) return;
  clearError();
  setBusy(`applying ${name}…`);
  try {
    const before = state.rows;
    const changed = gm.applyPass(name);
    if (changed) state.runShapes = {};
    const after = tabularRows(gm, Array.from(gm.graph.nodes));
    const d = diffRows(before, after);
    if (changed) {
      state.marks = { added: d.added, changed: d.changed };
      ui.marks.textContent = `${name}: ${d.added.size} new (green), ${d.changed.size} changed (yellow), ${d.removed.size} removed`;
      ui.marks.dataset.pass = name;
    }
    await refreshViews(undefined, true);
    passesPanel.showResult({ name, changed, before, after: state.rows });
  } catch (err) {
    showError(`pass ${name} failed`, err);
    await refreshViews().catch(() => {});
  } finally {
    setBusy(null);
  }
}

function downloadModel() {
  const { gm, fxwasm } = state;
  if (!gm) return;
  try {
    const stem = state.label.replace(/\.fxw$/i, '') || 'model';
    downloadBytes(fxwasm.save(gm), `${stem}.edited.fxw`);
  } catch (err) {
    showError('could not save', err);
  }
}

const passesPanel = renderPassesPanel(ui.passes, { apply: applyPass, download: downloadModel });

// Another thread count: the open model (with its edits) is opened again with it.
const threadsControl = setUpThreadsControl(ui.threads, ui.threadsNote, {
  onChange: () => {
    if (!state.gm || !state.fxwasm) return;
    let bytes;
    try {
      bytes = state.fxwasm.save(state.gm);
    } catch (err) {
      showError('could not change the threads', err);
      return;
    }
    openModel(bytes, state.label, bytes.byteLength);
  },
});

// ---- start-up ----------------------------------------------------------------------------------

async function main() {
  ui.select.addEventListener('change', () => {
    if (ui.select.value) openExample(ui.select.value);
  });
  ui.file.addEventListener('change', () => {
    const file = ui.file.files?.[0];
    if (file) openFile(file);
  });
  ui.urlForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (ui.url.value.trim() && !state.busy) openUrl(ui.url.value);
  });
  ui.run.addEventListener('click', () => runModel());
  ui.zoomIn.addEventListener('click', () => graphView.zoomBy(1.25));
  ui.zoomOut.addEventListener('click', () => graphView.zoomBy(0.8));
  ui.fit.addEventListener('click', () => graphView.fit());
  ui.foldDepth.addEventListener('change', () => {
    if (ui.foldDepth.value !== '') foldToDepth(Number(ui.foldDepth.value));
  });
  ui.search.addEventListener('input', () => runSearch(false));
  ui.searchForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    runSearch(true);
  });
  clearDetails(ui.details);
  installDropTarget(document.body, ui.drop, (file) => {
    if (state.fxwasm && !state.busy) openFile(file);
  });
  clearProfile(ui.profile);

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
