// The inputs editor: one row per placeholder with where its value comes from — random (seeded), a
// .npy file, an image (for image-shaped inputs), the reference input stored in the file, or the digits
// drawing — and one seed for all the random ones. The Run button asks it for `given()` and `seed()`.

import { referenceInputs } from './inputs.js';
import { imageToTensor, isImageSpec } from './image.js';

const FLOAT = /^(b?float)/;

/** True when a placeholder looks like the digits CNN's input: [N, 1, 8, 8] floats. */
export function isDigitsSpec(spec) {
  const s = spec?.shape;
  return Array.isArray(s) && s.length === 4 && s[1] === 1 && s[2] === 8 && s[3] === 8 && FLOAT.test(spec.dtype ?? '');
}

function option(value, text) {
  return Object.assign(document.createElement('option'), { value, textContent: text });
}

/**
 * Renders the editor into `container`.
 * @param ctx {fxwasm, gm, specs, onError(context, err), onChange()}
 * @returns {{given(): object, seed(): number, useDrawing(name, tensor): void}}
 */
export function renderInputsEditor(container, { fxwasm, gm, specs, onError, onChange = () => {} }) {
  const given = {};         // name -> {value, note} for every input not drawn at random
  const pending = {};       // name -> {value, note} loaded for a source that is not picked (yet)
  let refs = null;
  const reference = (i) => (refs ??= referenceInputs(gm))[i];

  const seedLabel = document.createElement('label');
  seedLabel.className = 'seed';
  seedLabel.textContent = 'Random seed ';
  const seedInput = Object.assign(document.createElement('input'), { type: 'number', value: '0', min: '0', step: '1' });
  seedInput.dataset.testid = 'seed';
  seedLabel.append(seedInput);

  const table = document.createElement('table');
  table.className = 'inputs-table';
  const rows = specs.map((spec, i) => {
    const tr = document.createElement('tr');
    tr.dataset.input = spec.name;
    const name = Object.assign(document.createElement('td'), { className: 'name', textContent: spec.name });
    const shape = Object.assign(document.createElement('td'), {
      className: 'meta',
      textContent: spec.shape ? `[${spec.shape.join(', ')}] ${spec.dtype}` : 'shape unknown',
    });
    const td = document.createElement('td');
    const select = document.createElement('select');
    select.dataset.testid = `input-source-${spec.name}`;
    if (spec.shape) select.append(option('random', 'random'));
    select.append(option('npy', '.npy file'));
    if (isImageSpec(spec)) select.append(option('image', 'image'));
    if (isDigitsSpec(spec)) select.append(option('drawing', 'the drawing'));
    if (reference(i) !== undefined) select.append(option('reference', 'stored reference'));
    if (!spec.shape && reference(i) !== undefined) select.value = 'reference';
    const file = Object.assign(document.createElement('input'), { type: 'file', hidden: true });
    file.dataset.testid = `input-file-${spec.name}`;
    const note = Object.assign(document.createElement('span'), { className: 'hint inline' });
    td.append(select, ' ', file, ' ', note);
    tr.append(name, shape, td);

    const apply = () => {
      const src = select.value;
      file.hidden = src !== 'npy' && src !== 'image';
      file.accept = src === 'npy' ? '.npy' : src === 'image' ? 'image/*' : '';
      delete given[spec.name];
      if (src === 'reference') given[spec.name] = { value: reference(i), note: 'the stored reference input' };
      else if (pending[spec.name]?.source === src) given[spec.name] = pending[spec.name];
      note.textContent = src === 'random' ? '' : given[spec.name] ? given[spec.name].note : src === 'drawing' ? 'draw below' : 'choose a file';
      onChange();
    };
    select.addEventListener('change', apply);
    file.addEventListener('change', async () => {
      const f = file.files?.[0];
      if (!f) return;
      const src = select.value;
      try {
        const value = src === 'npy' ? fxwasm.readNpy(new Uint8Array(await f.arrayBuffer())) : await imageToTensor(fxwasm, f, spec);
        pending[spec.name] = { source: src, value, note: `${f.name} [${value.shape.join(', ')}] ${value.dtype}` };
        apply();
      } catch (err) {
        onError(`could not read ${f.name}`, err);
      } finally {
        file.value = '';
      }
    });
    apply();
    return tr;
  });
  table.append(...rows);
  container.replaceChildren(...(specs.some((s) => s.shape) ? [seedLabel] : []), specs.length ? table : 'No inputs.');

  return {
    given: () => ({ ...given }),
    seed: () => Math.max(0, Math.floor(Number(seedInput.value) || 0)),
    /** The digits panel hands its drawing in: it becomes that input's value (and its source). */
    useDrawing(name, tensor) {
      pending[name] = { source: 'drawing', value: tensor, note: `the drawing [${tensor.shape.join(', ')}]` };
      const select = container.querySelector(`tr[data-input="${CSS.escape(name)}"] select`);
      if (select && select.value !== 'drawing') {
        select.value = 'drawing';
      }
      select?.dispatchEvent(new Event('change'));
    },
  };
}
