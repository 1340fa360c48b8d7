// The digits demo: a canvas to draw a digit on, turned into the digits CNN's input the way
// scikit-learn's load_digits images were made (UCI optdigits: the digit scaled to fill a 32×32 bitmap,
// then the "on" pixels counted in each 4×4 block, giving 8×8 values 0..16), divided by 16 as
// tests/corpus/models.py does before training. The strokes are re-drawn into the 32×32 bitmap with a
// fixed pen (about as bold as optdigits' strokes), so the input does not depend on how large the digit
// was drawn. Each finished stroke runs the model; the predicted digit and the class probabilities are
// shown beside the canvas.

const SIZE = 224;        // canvas pixels
const STROKE = 18;       // pen width on the canvas (display only)
const BITMAP = 32;       // optdigits' bitmap size
const PEN = 5;           // pen width in that bitmap
const THRESHOLD = 0.5;   // grey level above which a bitmap pixel is "on"

function el(tag, props = {}, testid) {
  const e = Object.assign(document.createElement(tag), props);
  if (testid) e.dataset.testid = testid;
  return e;
}

/**
 * The 8×8 block counts (0..16) of strokes (arrays of [x, y] points, any scale), or null when there are
 * none: the strokes' bounding box is scaled (aspect kept) to fill the 32×32 bitmap and centred.
 */
export function digitsFromStrokes(strokes) {
  const points = strokes.flat();
  if (!points.length) return null;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  // reduce, not Math.min(...xs): a long stroke list would overflow the stack as spread arguments.
  const min = (v) => v.reduce((a, b) => (b < a ? b : a), Infinity);
  const max = (v) => v.reduce((a, b) => (b > a ? b : a), -Infinity);
  const [x0, x1, y0, y1] = [min(xs), max(xs), min(ys), max(ys)];
  const span = Math.max(x1 - x0, y1 - y0);
  const room = BITMAP - PEN - 1;
  const scale = span > 0 ? room / span : 1;
  const dx = (BITMAP - (x1 - x0) * scale) / 2;
  const dy = (BITMAP - (y1 - y0) * scale) / 2;
  const map = ([x, y]) => [(x - x0) * scale + dx, (y - y0) * scale + dy];

  const small = el('canvas', { width: BITMAP, height: BITMAP });
  const ctx = small.getContext('2d', { willReadFrequently: true });
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, BITMAP, BITMAP);
  Object.assign(ctx, { strokeStyle: '#fff', fillStyle: '#fff', lineWidth: PEN, lineCap: 'round', lineJoin: 'round' });
  for (const stroke of strokes) {
    const pts = stroke.map(map);
    ctx.beginPath();
    if (pts.length === 1) {
      ctx.arc(pts[0][0], pts[0][1], PEN / 2, 0, 2 * Math.PI);
      ctx.fill();
      continue;
    }
    ctx.moveTo(...pts[0]);
    for (const p of pts.slice(1)) ctx.lineTo(...p);
    ctx.stroke();
  }
  const px = ctx.getImageData(0, 0, BITMAP, BITMAP).data;
  const counts = new Float32Array(64);
  for (let y = 0; y < BITMAP; y++) {
    for (let x = 0; x < BITMAP; x++) {
      if (px[(y * BITMAP + x) * 4] / 255 > THRESHOLD) counts[(y >> 2) * 8 + (x >> 2)] += 1;
    }
  }
  return counts;
}

function softmax(row) {
  const m = row.reduce((a, b) => (b > a ? b : a), -Infinity);
  const e = row.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/**
 * Renders the panel into `container`.
 * @param batch the input's batch size N: the drawing is repeated in every row of [N, 1, 8, 8]
 * @param onDrawing(tensor) called after each stroke with the [N, 1, 8, 8] input (values 0..1)
 * @returns {{showPrediction(output): void, clear(): void}}
 */
export function renderDigitsPanel(container, fxwasm, batch, onDrawing) {
  const canvas = el('canvas', { width: SIZE, height: SIZE, className: 'digits-canvas' }, 'digits-canvas');
  const preview = el('canvas', { width: 8, height: 8, className: 'digits-preview', title: 'the 8×8 input' }, 'digits-preview');
  const clearButton = el('button', { type: 'button', textContent: 'Clear' }, 'digits-clear');
  const prediction = el('div', { className: 'prediction' }, 'prediction');
  const probs = el('ol', { className: 'probs', start: 0 }, 'digits-probs');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });

  let strokes = [];
  function clear() {
    strokes = [];
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, SIZE, SIZE);
    preview.getContext('2d').clearRect(0, 0, 8, 8);
    prediction.textContent = '';
    delete prediction.dataset.digit;
    probs.replaceChildren();
  }

  function showInput(counts) {
    const img = preview.getContext('2d').createImageData(8, 8);
    counts.forEach((c, i) => {
      const v = Math.round((c / 16) * 255);
      img.data.set([v, v, v, 255], i * 4);
    });
    preview.getContext('2d').putImageData(img, 0, 0);
  }

  let last = null;
  const at = (ev) => {
    const r = canvas.getBoundingClientRect();
    return [((ev.clientX - r.left) * SIZE) / r.width, ((ev.clientY - r.top) * SIZE) / r.height];
  };
  canvas.addEventListener('pointerdown', (ev) => {
    canvas.setPointerCapture?.(ev.pointerId);
    last = at(ev);
    strokes.push([last]);
    ctx.fillStyle = '#fff';
    ctx.beginPath();
    ctx.arc(last[0], last[1], STROKE / 2, 0, 2 * Math.PI);
    ctx.fill();
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (!last) return;
    const p = at(ev);
    Object.assign(ctx, { strokeStyle: '#fff', lineWidth: STROKE, lineCap: 'round', lineJoin: 'round' });
    ctx.beginPath();
    ctx.moveTo(...last);
    ctx.lineTo(...p);
    ctx.stroke();
    strokes[strokes.length - 1].push(p);
    last = p;
  });
  const end = () => {
    if (!last) return;
    last = null;
    const counts = digitsFromStrokes(strokes);
    if (!counts) return;
    showInput(counts);
    // The core checks inputs against the placeholder's static shape: the drawing fills every batch row.
    const one = counts.map((c) => c / 16);
    const data = new Float32Array(batch * 64);
    for (let b = 0; b < batch; b++) data.set(one, b * 64);
    onDrawing(fxwasm.tensor(data, [batch, 1, 8, 8], 'float32'));
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  clearButton.addEventListener('click', clear);

  const side = el('div', { className: 'digits-side' });
  side.append(el('div', { className: 'hint', textContent: 'Draw a digit (0–9); each stroke runs the model.' }),
    preview, clearButton, prediction, probs);
  container.replaceChildren(canvas, side);
  clear();

  return {
    clear,
    /** Shows the argmax of the first row of the logits and the softmax probabilities. */
    showPrediction(output) {
      const logits = Array.from(output.data.slice(0, 10), Number);
      const p = softmax(logits);
      const best = p.indexOf(p.reduce((a, b) => (b > a ? b : a), -Infinity));
      prediction.dataset.digit = String(best);
      prediction.textContent = `${best}`;
      probs.replaceChildren(...p.map((x, d) => {
        const li = el('li', { className: d === best ? 'best' : '' });
        // Not class 'bar': that is the page header's (its padding made a 0% bar look 30% full).
        const track = el('span', { className: 'prob-track' });
        const bar = el('span', { className: 'prob-fill' });
        bar.style.width = `${(x * 100).toFixed(1)}%`;
        track.append(bar);
        li.append(el('span', { className: 'digit', textContent: String(d) }), track,
          el('span', { className: 'pct', textContent: `${(x * 100).toFixed(1)}%` }));
        return li;
      }));
    },
  };
}
