#!/usr/bin/env node
// fxwasm command line (CONTRACT.md): table, code, info, run, check, bench.
// Any failure prints `fxwasm: error: …` lines on stderr and exits 2 — never a stack trace or wasm text
// (set FXWASM_DEBUG=1 to see the stack of an unexpected error).
import fs from 'node:fs';
import { Command, InvalidArgumentError, CommanderError } from 'commander';
import { FxError } from '../src/index.js';
import * as commands from './lib/commands.js';

const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const EXIT_CODES = `
Exit codes: 0 success; 1 check found a mismatch; 2 bad input (missing, truncated or malformed file,
unknown op, wrong input shape, bad option); 3 check: the file stores no reference.
table, code and info show a file whose ops the runtime cannot all run (info lists them); run, check
and bench refuse it at load, naming every unsupported op and its nodes.
A progress line appears on stderr for long loads and runs when stderr is a terminal
(FXWASM_PROGRESS=never turns it off).`;

function number(name, { integer = false, min = 0 } = {}) {
  return (text) => {
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v) || v < min || (integer && !Number.isInteger(v))) {
      throw new InvalidArgumentError(`${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}`);
    }
    return v;
  };
}

const collect = (value, previous) => previous.concat([value]);

function program() {
  const p = new Command('fxwasm')
    .description('Inspect, run and check PyTorch FX graphs (.fxw files) in WebAssembly')
    .version(version, '-V, --version')
    .addHelpText('after', EXIT_CODES)
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showHelpAfterError(false);
  const io = (cmd) => cmd
    .option('--input <NAME=FILE.npy>', 'value of one input (repeatable)', collect, [])
    .option('--random', 'random inputs for those not given, from the shapes recorded in the file');

  p.command('table').argument('<file>', '.fxw file').description('print the graph as torch.fx print_tabular')
    .option('--json', 'print JSON: the nodes (opcode, name, target, args, kwargs) and the table text')
    .action(async (file, opts) => { process.exitCode = await commands.tableCommand(file, opts); });
  p.command('code').argument('<file>', '.fxw file').description('print the Python code of forward')
    .option('--json', 'print JSON: {"code": …}')
    .action(async (file, opts) => { process.exitCode = await commands.codeCommand(file, opts); });
  p.command('info').argument('<file>', '.fxw file').description('format, producer, counts, inputs/outputs, parameters')
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.infoCommand(file, opts); });
  io(p.command('run').argument('<file>', '.fxw file').description('run once and print the outputs'))
    .option('--out <FILE.npz>', 'write the output tensors (.npz; .npy for a single tensor)')
    .option('--profile', 'add a per-node timing table')
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.runCommand(file, opts); });
  p.command('check').argument('<file>', '.fxw file')
    .description('run the stored reference inputs and compare with the stored outputs (exit 0 ok, 1 mismatch, 3 no reference)')
    .option('--rtol <R>', 'relative tolerance', number('--rtol'), 1e-4)
    .option('--atol <A>', 'absolute tolerance', number('--atol'), 1e-5)
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.checkCommand(file, opts); });
  io(p.command('bench').argument('<file>', '.fxw file').description('time run after warm-up: min/median/max ms'))
    .option('--runs <N>', 'timed runs', number('--runs', { integer: true, min: 1 }), 10)
    .option('--warmup <N>', 'untimed runs first', number('--warmup', { integer: true }), 3)
    .option('--threads <N>', 'kernel threads (the pthreads build; 1 where it cannot run)', number('--threads', { integer: true, min: 1 }), 1)
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.benchCommand(file, opts); });
  for (const cmd of p.commands) cmd.exitOverride().configureOutput({ outputError: () => {} });
  return p;
}

function fail(error) {
  let message;
  if (error instanceof CommanderError && error.code === 'commander.help') message = 'no command given (see the list above)';
  else if (error instanceof CommanderError) message = error.message.replace(/^error: /, '');
  else if (error instanceof FxError) message = error.message;
  else message = `internal error: ${error && error.message ? error.message : String(error)}`;
  for (const line of message.split('\n')) process.stderr.write(`fxwasm: error: ${line}\n`);
  if (error instanceof FxError && error.node && !message.includes(`'${error.node}'`)) {
    process.stderr.write(`fxwasm: error: at node '${error.node}'\n`);
  }
  if (process.env.FXWASM_DEBUG && error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exitCode = 2;
}

try {
  await program().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError && error.exitCode === 0) process.exitCode = 0;  // --help, --version
  else fail(error);
}
