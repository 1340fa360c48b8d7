#!/usr/bin/env node
// fxwasm command line (CONTRACT.md): table, code, info, run, check, bench, ops, serve.
// Any failure prints `fxwasm: error: …` lines on stderr and exits 2 — never a stack trace or wasm text
// (set FXWASM_DEBUG=1 to see the stack of an unexpected error).
import fs from 'node:fs';
import { Command, InvalidArgumentError, CommanderError } from 'commander';
import { FxError, supportedOps } from '../src/index.js';
import * as commands from './lib/commands.js';
import { threadsValueError } from '../src/threads.js';
import { terminalText } from './lib/terminal.js';

// Output piped into a reader that stops early (`fxwasm table big.fxw | head`): stop quietly, as other Unix
// tools do, instead of an unhandled EPIPE stack trace.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`fxwasm: error: cannot write the output: ${err.message}\n`);
  process.exit(2);
});

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

function groupOption(text) {
  if (text !== 'op' && text !== 'module') throw new InvalidArgumentError(`--group must be 'op' or 'module', got ${JSON.stringify(text)}`);
  return text;
}

// --threads takes what load()'s `threads` takes: a positive integer or 'auto'.
function threadsOption(text) {
  const v = text === 'auto' ? 'auto' : /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  const bad = threadsValueError(v);
  if (bad) throw new InvalidArgumentError(`--threads must be a positive integer or 'auto', got ${JSON.stringify(text)}`);
  return v;
}

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
    .option('--random', 'random inputs for those not given, from the shapes recorded in the file: torch.randn for floats, 0..9 for integers')
    .option('--seed <N>', 'seed for --random (the same seed gives the same inputs as fxwasm.seededRandom(N) and the playground)', number('--seed', { integer: true }));
  // load()'s `threads`, for every command that runs the model.
  const threads = (cmd) => cmd
    .option('--threads <N>', "kernel threads, or 'auto' (the cores, at most 4); more than the cores only when asked; 1 where the pthreads build cannot run — the output says why", threadsOption, 1);

  p.command('table').argument('<file>', '.fxw file').description('print the graph as torch.fx print_tabular')
    .option('--json', 'print JSON: the nodes (opcode, name, target, args, kwargs) and the table text')
    .action(async (file, opts) => { process.exitCode = await commands.tableCommand(file, opts); });
  p.command('code').argument('<file>', '.fxw file').description('print the Python code of forward')
    .option('--json', 'print JSON: {"code": …}')
    .action(async (file, opts) => { process.exitCode = await commands.codeCommand(file, opts); });
  p.command('info').argument('<file>', '.fxw file').description('format, producer, counts, inputs/outputs, parameters')
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.infoCommand(file, opts); });
  threads(io(p.command('run').argument('<file>', '.fxw file').description('run once and print the outputs')))
    .option('--out <FILE.npz>', 'write the output tensors (.npz; .npy for a single tensor)')
    .option('--profile', 'add per-node times: the median of --runs timed runs after --warmup untimed ones, and their sums by op type')
    .option('--runs <N>', 'timed runs for --profile/--trace', number('--runs', { integer: true, min: 1 }), 5)
    .option('--warmup <N>', 'untimed runs first, for --profile/--trace', number('--warmup', { integer: true }), 1)
    .option('--group <BY>', "sum the profile by 'op' (target or module class) or 'module' (module class)", groupOption, 'op')
    .option('--trace <FILE.json>', 'write the timed runs as a Chrome trace (Perfetto, chrome://tracing)')
    .option('--topk <K>', 'the K most likely classes of each [N, C] float output (softmax of row 0)', number('--topk', { integer: true, min: 1 }))
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.runCommand(file, opts); });
  threads(p.command('check').argument('<file>', '.fxw file')
    .description('run the stored reference inputs and compare with the stored outputs (exit 0 ok, 1 mismatch, 3 no reference)'))
    .option('--rtol <R>', 'relative tolerance', number('--rtol'), 1e-4)
    .option('--atol <A>', 'absolute tolerance', number('--atol'), 1e-5)
    .option('--equal-nan', 'count NaN against NaN as equal (torch.allclose equal_nan=True)')
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.checkCommand(file, opts); });
  threads(io(p.command('bench').argument('<file>', '.fxw file').description('time run after warm-up: min/median/max ms')))
    .option('--runs <N>', 'timed runs', number('--runs', { integer: true, min: 1 }), 10)
    .option('--warmup <N>', 'untimed runs first', number('--warmup', { integer: true }), 3)
    .option('--json', 'print JSON')
    .action(async (file, opts) => { process.exitCode = await commands.benchCommand(file, opts); });
  p.command('quantize').argument('<in>', '.fxw file').argument('<out>', 'the quantized .fxw file to write')
    .description('rewrite a file with quantized weights (int8/int4: Linear and Embedding weights, the rest fp16)')
    .requiredOption('--weights <W>', 'int8, int4, fp16 (every float32 tensor) or fp32 (undo)')
    .action(async (file, out, opts) => { process.exitCode = await commands.quantizeCommand(file, out, opts); });
  p.command('ops').description('the targets, methods and module types the runtime supports')
    .option('--json', 'print JSON: {"functions": […], "methods": […], "modules": […]}')
    .action(async (opts) => { process.exitCode = await ops(opts); });
  p.command('serve').description('serve the playground (its page, the wasm build, the bundled examples) until stopped')
    .option('--port <P>', 'port to listen on (0 picks a free one)', number('--port', { integer: true }), 8080)
    .option('--host <H>', 'address to listen on', '127.0.0.1')
    .action(async (opts) => { process.exitCode = await serve(opts); });
  for (const cmd of p.commands) cmd.exitOverride().configureOutput({ outputError: () => {} });
  return p;
}

async function ops({ json }) {
  const list = await supportedOps();
  if (json) {
    process.stdout.write(`${JSON.stringify(list, null, 1)}\n`);
    return 0;
  }
  for (const [title, key] of [['call_function targets', 'functions'], ['call_method names', 'methods'],
    ['call_module types', 'modules']]) {
    process.stdout.write(`${title} (${list[key].length}):\n${list[key].map((n) => `  ${n}\n`).join('')}`);
  }
  return 0;
}

// The playground's own server, from wherever the package is installed (exit 2 with a message when the port
// cannot be had; otherwise it serves until the process is stopped).
async function serve({ port, host }) {
  if (port > 65535) throw new InvalidArgumentError('--port must be an integer from 0 to 65535');
  const { startServer } = await import('../playground/server.js');
  try {
    const { url } = await startServer({ port, host });
    process.stdout.write(`fxwasm playground: ${url}\n`);
    return 0;
  } catch (err) {
    const why = err.code === 'EADDRINUSE' ? `port ${port} is in use (pass --port 0 for a free one)` : err.message;
    process.stderr.write(`fxwasm: error: cannot serve on ${host}:${port}: ${why}\n`);
    return 2;
  }
}

function fail(error) {
  let message;
  if (error instanceof CommanderError && error.code === 'commander.help') message = 'no command given (see the list above)';
  else if (error instanceof CommanderError) message = error.message.replace(/^error: /, '');
  else if (error instanceof FxError) message = error.message;
  else message = `internal error: ${error && error.message ? error.message : String(error)}`;
  // Messages quote the file (names, targets): escaped as the rest of the output is (lib/terminal.js).
  for (const line of message.split('\n')) process.stderr.write(`fxwasm: error: ${terminalText(line)}\n`);
  if (error instanceof FxError && error.node && !message.includes(`'${error.node}'`)) {
    process.stderr.write(`fxwasm: error: at node '${terminalText(error.node)}'\n`);
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
