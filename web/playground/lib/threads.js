// The Threads control beside Run: how many kernel threads the next model opened gets (load()'s `threads`),
// kept in the address as ?threads=N|auto, and a note with what the open model really runs on and, when
// that is fewer than asked, why (gm.threadInfo: a page that is not cross-origin isolated, no
// SharedArrayBuffer, the pthreads build that did not start).

const CHOICES = ['1', '2', '4', 'auto'];

/** load()'s `threads` for a choice: a positive integer or 'auto'; null for anything else. */
export function parseThreads(text) {
  if (text === 'auto') return 'auto';
  return /^[1-9]\d{0,2}$/.test(text ?? '') ? Number(text) : null;
}

/** The `?threads=` of the page's URL when valid, else null. */
export function threadsFromUrl(location = window.location) {
  return parseThreads(new URLSearchParams(location.search).get('threads'));
}

function setThreadsInUrl(threads) {
  const url = new URL(window.location.href);
  if (threads === 1) url.searchParams.delete('threads');
  else url.searchParams.set('threads', String(threads));
  window.history.replaceState(null, '', url);
}

/** The note's text for a model's threadInfo: "2 threads", "1 thread — asked for 2: why". */
export function threadsNote({ requested, threads, reason }) {
  const n = `runs on ${threads} thread${threads === 1 ? '' : 's'}`;
  if (!reason) return n;
  return typeof requested === 'number' && requested !== threads ? `${n} — asked for ${requested}: ${reason}` : `${n} — ${reason}`;
}

// The threads a request means: 'auto' is the cores, at most 4 (web/src/threads.js MAX_AUTO_THREADS).
function wanted({ requested, cores }) {
  if (requested === 'auto') return Math.min(4, cores);
  return typeof requested === 'number' ? requested : 1;
}

/**
 * Sets up the <select> and the note. `onChange(threads)` runs when the user picks another count.
 * @returns {{value(): number|'auto', show(threadInfo|null): void}}
 */
export function setUpThreadsControl(select, note, { onChange }) {
  const initial = threadsFromUrl() ?? 1;
  const options = CHOICES.includes(String(initial)) ? CHOICES : [...CHOICES.slice(0, -1), String(initial), 'auto'];
  select.replaceChildren(...options.map((v) => Object.assign(document.createElement('option'), {
    value: v, textContent: v, title: v === 'auto' ? `the cores (${navigator.hardwareConcurrency || 1}), at most 4` : '',
  })));
  select.value = String(initial);
  const value = () => parseThreads(select.value) ?? 1;
  select.addEventListener('change', () => {
    setThreadsInUrl(value());
    onChange(value());
  });
  return {
    value,
    show(info) {
      note.textContent = info ? threadsNote(info) : '';
      note.dataset.threads = info ? String(info.threads) : '';
      note.classList.toggle('warn', Boolean(info && info.threads < wanted(info)));
    },
  };
}
