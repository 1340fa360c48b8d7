// ResidentTensor: a run's output kept in the WebAssembly runtime (gm.run(inputs, {resident: true})), so
// that it can go back in as an input without crossing into JS and back — a decoder's KV caches, which
// otherwise cost two copies of the whole cache per token. A cache the step graph grows with torch.cat is
// then appended to in place (cpp/ops/array/cat_grow.cpp). Read it with toTensor(); free it with dispose()
// (a garbage-collected one is freed too, eventually). On the wire it is a {$tensor} whose ptr is -id
// (cpp/api/wire.h, cpp/api/resident.h).
import { FxError } from './errors.js';
import { Tensor, DTYPE_ARRAYS } from './tensor.js';

// Frees the runtime's tensor when the JS object is collected without dispose().
const collected = new FinalizationRegistry(({ rt, id }) => {
  if (!rt.broken) rt.guard('fx_resident_free', () => rt.module.fx_resident_free(id));
});

export class ResidentTensor {
  #rt;
  #id;

  /** Made by run(); not by hand. */
  constructor(rt, id, shape, dtype) {
    this.#rt = rt;
    this.#id = id;
    this.shape = shape;
    this.dtype = dtype;
    collected.register(this, { rt, id }, this);
  }

  get size() {
    return this.shape.reduce((a, b) => a * b, 1);
  }

  get disposed() {
    return this.#id === 0;
  }

  /** A JS copy of the values (a Tensor). */
  toTensor() {
    const rt = this.#owner('toTensor()');
    const Ctor = DTYPE_ARRAYS[this.dtype];
    if (!Ctor) throw new FxError(`resident tensor has dtype '${this.dtype}', which JavaScript cannot hold`);
    const { ptr, nbytes } = rt.call('fx_resident_read', this.#id);
    const bytes = nbytes ? rt.copyOut(ptr, nbytes) : new Uint8Array(0);
    return new Tensor(new Ctor(bytes.buffer, 0, nbytes / Ctor.BYTES_PER_ELEMENT), this.shape, this.dtype);
  }

  /** The values as a TypedArray (a copy): toTensor().data. */
  get data() {
    return this.toTensor().data;
  }

  /** Frees the runtime's memory now; the object is unusable afterwards. Twice is harmless. */
  dispose() {
    if (!this.#id) return;
    collected.unregister(this);
    const rt = this.#rt;
    const id = this.#id;
    this.#id = 0;
    if (!rt.broken) rt.guard('fx_resident_free', () => rt.module.fx_resident_free(id));
  }

  /** The id to put on the wire of a run in `rt` (where: the input's place in messages, "input #0"). */
  wireId(rt, where) {
    this.#owner(where);
    if (rt !== this.#rt) {
      throw new FxError(`${where}: a resident tensor belongs to the runtime that made it (another thread ` +
                        'count is another runtime); pass toTensor() instead');
    }
    return this.#id;
  }

  #owner(what) {
    if (!this.#id) throw new FxError(`${what}: the resident tensor was disposed`);
    if (this.#rt.broken) throw new FxError(`${what}: the resident tensor's runtime was reset after a crash`);
    return this.#rt;
  }
}
