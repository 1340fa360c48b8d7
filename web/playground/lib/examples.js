// The bundled examples, as the server lists them at /examples.json ([{name, path, bytes, corpus?}]).

export async function fetchExamples() {
  const res = await fetch('/examples.json');
  if (!res.ok) throw new Error(`could not list the examples (HTTP ${res.status})`);
  return res.json();
}

/** Fills the <select> with one <option> per example (value = name), after its placeholder option. */
export function renderExampleSelect(select, examples) {
  const keep = select.querySelector('option[value=""]');
  const options = examples.map((ex) => {
    const opt = document.createElement('option');
    opt.value = ex.name;
    // Corpus models are built locally (not shipped): say so, with their size, since some are large.
    opt.textContent = ex.corpus ? `${ex.name} (built, ${(ex.bytes / 1e6).toFixed(1)} MB)` : ex.name;
    opt.dataset.path = ex.path;
    return opt;
  });
  select.replaceChildren(...(keep ? [keep] : []), ...options);
}

/** The `?model=NAME` of the page's URL, or null. */
export function modelFromUrl(location = window.location) {
  return new URLSearchParams(location.search).get('model');
}

/** Records the open example in the URL (so a reload or a shared link opens it again). */
export function setModelInUrl(name) {
  const url = new URL(window.location.href);
  if (name) url.searchParams.set('model', name);
  else url.searchParams.delete('model');
  window.history.replaceState(null, '', url);
}
