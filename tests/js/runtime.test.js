// A wasm trap (which the bindings never cause on purpose) becomes an FxError, and the next load()
// starts a fresh runtime: the package stays usable.
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { TOY, TOY_TABLE } from './helpers.js';

test('a trap is reported as FxError and a fresh runtime takes over', async () => {
  const before = await fxwasm.load(TOY);
  const rt = await getRuntime();
  // A pointer far outside the wasm heap makes the reader trap on its first read.
  expect(() => rt.call('fx_load', 0xfffffff0, 64, 'bad pointer', false)).toThrow(/the WebAssembly runtime crashed during fx_load \(memory access out of bounds\)/);
  expect(() => before.printTabular()).toThrow(fxwasm.FxError);
  const after = await fxwasm.load(TOY);
  expect(await getRuntime()).not.toBe(rt);
  expect(after.printTabular()).toBe(TOY_TABLE);
  expect((await after.check()).status).toBe('pass');
  after.dispose();
  before.dispose();
});
