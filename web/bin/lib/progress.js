// A one-line progress display on stderr for long loads and runs. It is shown only when stderr is a terminal
// (so pipes, logs and --json consumers never see it) and only once an operation has lasted a moment, so
// quick commands print nothing. FXWASM_PROGRESS=always forces it (for tests), =never turns it off;
// FXWASM_PROGRESS_DELAY_MS sets the moment (400 ms).
import { terminalText } from './terminal.js';

const mode = process.env.FXWASM_PROGRESS || 'auto';
const DELAY_MS = mode === 'always' ? 0 : Number(process.env.FXWASM_PROGRESS_DELAY_MS || 400);
const WIDTH = 24;

export function progressEnabled() {
  if (mode === 'never') return false;
  return mode === 'always' || !!process.stderr.isTTY;
}

function mib(n) {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

function bar(fraction) {
  const full = Math.max(0, Math.min(WIDTH, Math.round(fraction * WIDTH)));
  return `[${'#'.repeat(full)}${'-'.repeat(WIDTH - full)}]`;
}

/** A progress line labelled `label`; update() redraws it, done() erases it. All no-ops when disabled. */
export function progress(label) {
  const enabled = progressEnabled();
  const start = Date.now();
  let shown = false;
  const shownLabel = terminalText(label);  // a file name may hold control characters too
  const draw = (text) => {
    process.stderr.write(`\r\x1b[K${shownLabel} ${text}`);
    shown = true;
  };
  return {
    /** Byte progress of a load: {loaded, total} as load()'s onProgress gives it. */
    bytes({ loaded, total }) {
      if (!enabled || (!shown && Date.now() - start < DELAY_MS)) return;
      draw(total ? `${bar(loaded / total)} ${Math.floor((100 * loaded) / total)}% ${mib(loaded)} / ${mib(total)}`
        : `${mib(loaded)}`);
    },
    /** Step progress (k of n done). */
    steps(k, n) {
      if (!enabled || (!shown && Date.now() - start < DELAY_MS)) return;
      draw(`${bar(k / n)} ${k}/${n}`);
    },
    /**
     * A status before a synchronous step that cannot report progress while it runs (one model run):
     * shown at once when enabled, since nothing can draw it later.
     */
    status(text) {
      if (enabled) draw(text);
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
