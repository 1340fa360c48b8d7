// Hostile files, made from the corpus: truncations, bad header lengths, offsets past the end, wrong dtypes
// and shapes, dangling references, cycles, duplicate names, unknown ops, deep nesting… Each must give an
// FxError (and through the CLI: exit 2, every stderr line `fxwasm: error:`, no wasm abort text), and the
// same runtime must load and run the seed example right afterwards, in the same process.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { CLI, ROOT, TOY, toyBytes } from './helpers.js';

const DIGITS = path.join(ROOT, 'examples', 'digits_cnn', 'digits_cnn.fxw');
const CONV_BN = path.join(ROOT, 'tests', 'golden', 'passes', 'conv_bn.fxw');

/** {header, program, data} of a .fxw file (docs/format.md §1). */
function parse(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const program = JSON.parse(header.__metadata__.program);
  return { header, program, data: bytes.slice(8 + n) };
}

/**
 * A file from a header object (its program replaced by `program` unless that is undefined) and data;
 * `length(n)` overrides the stored header length (n: the header's real length).
 */
function build({ header, program, data }, { headerText, length } = {}) {
  const h = structuredClone(header);
  if (program !== undefined) h.__metadata__.program = typeof program === 'string' ? program : JSON.stringify(program);
  const text = new TextEncoder().encode(headerText ?? JSON.stringify(h));
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(length ? length(text.length) : text.length), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return out;
}

/** Applies `edit(copy)` to a deep copy of the file's parts and builds the result. */
function edited(file, edit, opts) {
  const copy = { header: structuredClone(file.header), program: structuredClone(file.program), data: file.data.slice() };
  edit(copy);
  return build(copy, opts);
}

const firstTensor = (f) => Object.keys(f.header).find((k) => k !== '__metadata__' && !k.startsWith('__pad__.'));
const nodeNamed = (f, name) => f.program.nodes.find((n) => n.name === name);
const nested = (depth) => { let v = 1; for (let i = 0; i < depth; i++) v = [v]; return v; };

/** [label, bytes, pattern the message must match] for one corpus file. */
function variants(bytes) {
  const f = parse(bytes);
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const out = [
    ['empty file', bytes.slice(0, 0), /too short \(0 bytes\)/],
    ['truncated inside the length', bytes.slice(0, 5), /too short \(5 bytes\)/],
    ['truncated inside the header', bytes.slice(0, 8 + Math.floor(n / 2)), /header length \d+ exceeds file size/],
    ['truncated after the header', bytes.slice(0, 8 + n - 1), /exceeds file size/],
    ['header length 2^64-1', build(f, { length: () => 2n ** 64n - 1n }), /header length 18446744073709551615 exceeds file size/],
    ['header length too short', build(f, { length: (len) => len - 10 }), /header is not valid JSON/],
    ['header length zero', build(f, { length: () => 0 }), /header is not valid JSON/],
    ['header not an object', build(f, { headerText: '[1, 2]' }), /header must be a JSON object/],
    ['header nested 100000 deep', build(f, { headerText: '['.repeat(100000) + ']'.repeat(100000) }),
      /JSON nests 100000 levels deep; the limit is 64/],
    ['not an fxwasm file', edited(f, (c) => { c.header.__metadata__.format = 'pt'; }), /format is 'pt'/],
    ['future format version', edited(f, (c) => { c.header.__metadata__.format_version = '2'; }), /format_version '2' is not supported/],
    ['program not JSON', build({ ...f, program: '{"nodes": [' }), /program is not valid JSON/],
    ['program nested too deep', edited(f, (c) => { c.program.nodes[0].meta = { deep: nested(80) }; }), /JSON nests \d+ levels deep/],
    ['nodes not an array', edited(f, (c) => { c.program.nodes = {}; }), /program\.nodes is missing or not an array/],
    ['dangling node reference', edited(f, (c) => {
      const user = c.program.nodes.find((x) => x.op !== 'placeholder' && x.op !== 'get_attr');
      user.args = [{ $node: 'no_such_node' }];
    }), /refer to unknown node 'no_such_node'/],
    ['a node using itself (cycle)', edited(f, (c) => {
      const user = c.program.nodes.find((x) => x.op !== 'placeholder' && x.op !== 'get_attr');
      user.args = [{ $node: user.name }];
    }), /refers to itself \(a cycle\)/],
    ['two nodes using each other (cycle)', edited(f, (c) => {
      const users = c.program.nodes.filter((x) => x.op === 'call_function' || x.op === 'call_method' || x.op === 'call_module');
      users[0].args = [{ $node: users[1].name }];
      users[1].args = [{ $node: users[0].name }];
    }), /before it is defined/],
    ['duplicate node names', edited(f, (c) => { c.program.nodes[1].name = c.program.nodes[0].name; }), /duplicate node name/],
    ['empty node name', edited(f, (c) => { c.program.nodes[0].name = ''; }), /\.name is empty/],
    ['unknown op kind', edited(f, (c) => { c.program.nodes[1].op = 'call_lambda'; }), /unknown op 'call_lambda'/],
    ['output not last', edited(f, (c) => { c.program.nodes.push(c.program.nodes.splice(0, 1)[0]); }),
      /(comes after the output node|before it is defined|the output must be last)/],
    ['unknown value tag', edited(f, (c) => { c.program.nodes[0].meta = { x: { $code: 'import os' } }; }), /unknown tag '\$code'/],
    ['string above 64 KiB', edited(f, (c) => { c.program.nodes[0].meta = { stack_trace: 's'.repeat(70000) }; }),
      /string of 70000 bytes exceeds the 65536-byte limit/],
    ['integer above int64', build({ ...f, program: JSON.stringify(f.program).replace('"kwargs": {}', '"kwargs": {"k": 18446744073709551615}')
      .replace('"kwargs":{}', '"kwargs":{"k":18446744073709551615}') }), /does not fit in 64-bit signed/],
  ];
  const t = firstTensor(f);
  if (t) {
    const e = f.header[t];
    out.push(
      ['tensor offsets past the end', edited(f, (c) => { c.header[t].data_offsets = [e.data_offsets[0], f.data.length + 64]; }),
        /run past the data section/],
      ['tensor offsets reversed', edited(f, (c) => { c.header[t].data_offsets = [e.data_offsets[1], e.data_offsets[0]]; }),
        /end before they begin/],
      ['unknown tensor dtype', edited(f, (c) => { c.header[t].dtype = 'F33'; }), /unknown dtype 'F33'/],
      ['tensor dtype of another size', edited(f, (c) => { c.header[t].dtype = e.dtype === 'F64' ? 'F32' : 'F64'; }),
        /hold \d+ bytes but dtype/],
      ['tensor shape of another size', edited(f, (c) => { c.header[t].shape = [...e.shape, 3]; }), /hold \d+ bytes but dtype/],
      ['negative dimension', edited(f, (c) => { c.header[t].shape = [-1]; }), /non-negative integer/],
      ['element count overflow', edited(f, (c) => { c.header[t].shape = [2 ** 31, 2 ** 31, 2 ** 31]; }), /overflows/],
      ['rank above 16', edited(f, (c) => { c.header[t].shape = new Array(17).fill(1); }), /rank 17 exceeds the limit of 16/],
      ['two tensors on the same bytes', edited(f, (c) => {
        c.header[`${t}_again`] = structuredClone(e);
        c.program.tensors[`${t}_again`] = 'parameter';
      }), /overlap those of tensor/],
      ['tensor not in the program', edited(f, (c) => { delete c.program.tensors[t]; }), /is not listed in program\.tensors/],
      ['tensor missing from the header', edited(f, (c) => { delete c.header[t]; }), /which is not in the header/],
      ['truncated data', bytes.slice(0, bytes.length - 1), /(run past the data section|hold \d+ bytes)/],
    );
  }
  return out;
}

async function seedStillWorks() {
  const gm = await fxwasm.load(TOY);
  try {
    const out = await gm.run([fxwasm.tensor(new Float32Array(10).fill(1), [10]), fxwasm.tensor(new Float32Array(10).fill(-1), [10])]);
    expect(out[0].data[0]).toBe(1);  // sum(b) < 0
    expect(Array.from(out[1].data.slice(0, 2))).toEqual([0.5, 0.5]);
  } finally {
    gm.dispose();
  }
}

const SEEDS = [['toy', TOY], ['digits_cnn', DIGITS], ['conv_bn', CONV_BN]];

describe.each(SEEDS)('malformed variants of %s', (_label, file) => {
  const cases = variants(new Uint8Array(fs.readFileSync(file)));
  test.each(cases.map(([label, bytes, pattern]) => [label, bytes, pattern]))('%s → FxError, runtime still usable', async (_l, bytes, pattern) => {
    const rt = await getRuntime();
    let err = null;
    let gm = null;
    try {
      gm = await fxwasm.load(bytes);
    } catch (e) {
      err = e;
    } finally {
      gm?.dispose();
    }
    expect(err).toBeInstanceOf(fxwasm.FxError);
    expect(err.message).toMatch(pattern);
    expect(err.message).not.toMatch(/internal error|Aborted|RuntimeError/);
    expect(err.message.length).toBeLessThan(2000);
    expect(await getRuntime()).toBe(rt);  // no trap: the same instance, not a fresh one
    await seedStillWorks();
  });
});

test('errors after a successful load (unknown op, wrong inputs) leave the runtime usable', async () => {
  const rt = await getRuntime();
  const f = parse(toyBytes());
  const unknownBytes = edited(f, (c) => { nodeNamed(c, 'abs_1').target = 'torch.no_such_op'; });
  await expect(fxwasm.load(unknownBytes)).rejects.toThrow(/unsupported ops: torch\.no_such_op \(nodes: abs_1\)/);
  const unknown = await fxwasm.load(unknownBytes, { allowUnsupported: true });
  const a = fxwasm.tensor(new Float32Array(10), [10]);
  await expect(unknown.run([a, a])).rejects.toThrow(/unsupported ops: torch\.no_such_op \(nodes: abs_1\)/);
  unknown.dispose();

  const toy = await fxwasm.load(TOY);
  const short = fxwasm.tensor(new Float32Array(3), [3]);
  let err = await toy.run([short, a]).catch((e) => e);
  expect(err).toBeInstanceOf(fxwasm.FxError);
  expect(err.message).toMatch(/input 'l_a_' expects float32 \[10\], got float32 \[3\]/);
  expect(err.node).toBe('l_a_');
  err = await toy.run([a, fxwasm.tensor(new Int32Array(10), [10])]).catch((e) => e);
  expect(err.message).toMatch(/input 'l_b_' expects float32 \[10\], got int32 \[10\]/);
  expect(err.node).toBe('l_b_');
  err = await toy.run([a, 3]).catch((e) => e);
  expect(err.message).toMatch(/input 'l_b_' expects float32 \[10\], got/);
  expect(err.node).toBe('l_b_');
  err = await toy.run([a, a, a]).catch((e) => e);
  expect(err.message).toMatch(/takes 2 inputs/);
  expect((await toy.check()).status).toBe('pass');  // the same module still runs
  toy.dispose();

  // An activation larger than the wasm address space: an FxError, not an abort.
  const huge = await fxwasm.load(edited(f, (c) => {
    const n = nodeNamed(c, 'abs_1');
    n.target = 'torch.zeros';
    n.args = [{ $size: [100000, 100000] }];
    delete n.meta;
  }));
  err = await huge.run([a, a]).catch((e) => e);
  expect(err).toBeInstanceOf(fxwasm.FxError);
  expect(err.message).toMatch(/too large|out of memory/);
  expect(err.node).toBe('abs_1');
  huge.dispose();
  expect(await getRuntime()).toBe(rt);
  await seedStillWorks();
});

describe('through the command line', () => {
  let tmp;
  beforeAll(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-malformed-')); });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  // One spawn per case is slow; a representative handful, each with a different command.
  const cases = variants(toyBytes());
  const pick = ['truncated inside the header', 'header length 2^64-1', 'header nested 100000 deep', 'dangling node reference',
    'two nodes using each other (cycle)', 'duplicate node names', 'unknown op kind', 'string above 64 KiB'];
  const commands = ['table', 'code', 'info', 'run', 'check', 'bench', 'info', 'run'];
  test.each(pick.map((label, i) => [label, commands[i]]))('%s: `fxwasm %s` exits 2 with fxwasm: error:', (label, command) => {
    const [, bytes, pattern] = cases.find(([l]) => l === label);
    const file = path.join(tmp, `${label.replace(/\W+/g, '_')}.fxw`);
    fs.writeFileSync(file, bytes);
    const r = spawnSync(process.execPath, [CLI, command, file, ...(command === 'run' ? ['--random'] : [])],
      { encoding: 'utf8', env: { ...process.env, FXWASM_DEBUG: '' } });
    expect(r.status).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^fxwasm: error: /);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at |Aborted|RuntimeError|wasm-function/);
    expect(r.stdout).toBe('');
  });
});
