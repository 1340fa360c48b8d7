// Every code block of the README, docs/*.md, python/README.md and examples/node/README.md, and every
// examples/node script, run as a user would outside the repository: in fresh projects that installed the
// packed tarball (npm pack → npm install), from folders outside the checkout. Blocks that are programs
// run; API fragments (docs/api.md's reference blocks, which use names like `source` and `inputs`) are
// compiled and every fxwasm.X / gm.X they name must exist in the installed package; JSON parses; shell
// lines run unless they are listed below as commands of the checkout itself (with why).
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { ROOT, sh, packProject, freshProject, serve, launchChromium } from './helpers.js';
import { allBlocks, codeBlocks, shellLines } from './snippets.js';

const PYTHON = process.env.FXWASM_PYTHON ||
  path.join(process.env.HOME, '.cache', 'fxwasm', 'venv-torch-2.15.0', 'bin', 'python');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

// Shell lines that are commands of a checkout, not of an installed package: not run here.
const CHECKOUT_COMMANDS = [
  [/^npm start$/, 'the set-up of a checkout (scripts/setup.sh playground), measured in the README'],
  [/^npm test$/, 'runs this suite among the others'],
  [/^npm run bench( |$)/, "the benchmark of a checkout (devDependencies: onnxruntime-web, tfjs)"],
  [/^npm run -s python -- bench\//, "a script of the checkout's benchmark (it reads the models npm run bench wrote)"],
  [/^npm pack$/, 'what this suite does first (helpers.js packProject)'],
  [/^cd \.\.\/my-app && npm install \.\.\/fxwasm\/(\S+)$/, 'what this suite does for every project (the tarball name is checked)'],
];

let tmp;
let tarball;
let filename;
let project;  // one project with the tarball installed: the snippets' working folder
let site;     // the exporter, pip-installed (`pip install ./python`) into a folder of its own

beforeAll(() => {
  ({ tmp, tarball, filename } = packProject('fxwasm-snippets-'));
  project = freshProject(tmp, tarball, 'snippets');
  site = path.join(tmp, 'site');
  // `pip install ./python`, from a copy (the build leaves nothing in the checkout); --no-deps: torch is
  // there; --no-build-isolation: the environment's setuptools, no download.
  fs.cpSync(path.join(ROOT, 'python'), path.join(tmp, 'python'), { recursive: true, filter: (p) => !p.includes('__pycache__') });
  sh(PYTHON, ['-m', 'pip', 'install', '--quiet', '--no-deps', '--no-build-isolation', '--target', site, path.join(tmp, 'python')], tmp);
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const where = (b) => `${b.file}:${b.line}`;
const isProgram = (b) => b.lang === 'js' && /from 'fxwasm'/.test(b.text);
const blocks = allBlocks();

function runNode(file, cwd = project) {
  return sh(process.execPath, [file], cwd);
}

function runPython(code, cwd) {
  fs.writeFileSync(path.join(cwd, 'snippet.py'), code);
  const env = { PYTHONPATH: site };
  return sh(PYTHON, ['snippet.py'], cwd, env);
}

test('every block is of a kind this suite runs or checks', () => {
  const kinds = new Set(['js', 'html', 'python', 'sh', 'json', '']);
  expect(blocks.filter((b) => !kinds.has(b.lang)).map(where)).toEqual([]);
  expect(blocks.length).toBeGreaterThan(20);
});

test('JavaScript programs run from a project that installed the tarball', () => {
  const programs = blocks.filter(isProgram);
  expect(programs.map((b) => b.file)).toContain('README.md');
  for (const b of programs) {
    const file = path.join(project, `snippet-${path.basename(b.file, '.md')}-${b.line}.mjs`);
    fs.writeFileSync(file, b.text);
    let out;
    try {
      out = runNode(file);
    } catch (e) {
      throw new Error(`${where(b)}: ${e.message}`);
    }
    if (b.file === 'README.md') {
      // the Node quick start prints print_tabular's table and the run's outputs
      expect(out).toContain('call_function  abs_1   torch.abs');
    }
  }
});

test("API fragments compile, and every fxwasm.X and gm.X they name is the installed package's", () => {
  const fragments = blocks.filter((b) => b.lang === 'js' && !isProgram(b));
  expect(fragments.length).toBeGreaterThan(5);
  const listing = path.join(project, 'names.mjs');
  fs.writeFileSync(listing, `import * as fxwasm from 'fxwasm';
const gm = await fxwasm.load('node_modules/fxwasm/examples/seed/toy_example.fxw');
const names = (o) => { const s = new Set(); for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) Object.getOwnPropertyNames(p).forEach((n) => s.add(n)); return [...s]; };
console.log(JSON.stringify({ fxwasm: Object.keys(fxwasm), gm: names(gm), graph: names(gm.graph) }));
gm.dispose();
`);
  const known = JSON.parse(runNode(listing));
  const missing = [];
  for (const b of fragments) {
    try {
      new vm.Script(`(async () => {\n${b.text}\n})`, { filename: where(b) });
    } catch (e) {
      missing.push(`${where(b)}: does not compile: ${e.message}`);
    }
    const code = b.text.replace(/\/\/.*$/gm, '');  // names in comments are prose
    for (const [, name] of code.matchAll(/\bfxwasm\.(\w+)/g)) if (!known.fxwasm.includes(name)) missing.push(`${where(b)}: fxwasm.${name}`);
    for (const [, name] of code.matchAll(/\bgm\.(\w+)/g)) if (!known.gm.includes(name)) missing.push(`${where(b)}: gm.${name}`);
    for (const [, name] of code.matchAll(/\bgm\.graph\.(\w+)/g)) if (!known.graph.includes(name)) missing.push(`${where(b)}: gm.graph.${name}`);
  }
  expect(missing).toEqual([]);
});

test('the browser snippet shows the table in Chromium, from a page served from the project', async () => {
  const [b, ...more] = blocks.filter((x) => x.lang === 'html');
  expect(more).toEqual([]);
  fs.copyFileSync(path.join(project, 'node_modules', 'fxwasm', 'examples', 'seed', 'toy_example.fxw'), path.join(project, 'toy_example.fxw'));
  fs.writeFileSync(path.join(project, 'index.html'), `<!doctype html><html><body>\n${b.text}</body></html>\n`);
  const server = await serve(project);
  const context = await launchChromium(tmp);
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForSelector('pre', { timeout: 60000 });
    const text = await page.textContent('pre');
    expect(errors).toEqual([]);
    // print_tabular's lines, one per row (not run together as one paragraph)
    expect(await page.evaluate(() => document.querySelector('pre').innerText.split('\n').length)).toBeGreaterThanOrEqual(10);
    expect(text).toContain('call_function  abs_1   torch.abs');
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('shell lines run in the project (the bin, the exporter), except the checkout commands listed here', () => {
  const notRun = [];
  for (const b of blocks.filter((x) => x.lang === 'sh')) {
    for (const line of shellLines(b.text)) {
      const checkout = CHECKOUT_COMMANDS.find(([re]) => re.test(line));
      if (checkout) {
        const tgz = /^cd \.\.\/my-app && npm install \.\.\/fxwasm\/(\S+)$/.exec(line);
        if (tgz) expect(tgz[1]).toBe(filename);  // the README names the tarball npm pack writes
        notRun.push(line);
        continue;
      }
      let cmd;
      if (line.startsWith('npx fxwasm ')) cmd = ['npx', line.split(/\s+/).slice(1)];
      else if (line === 'pip install ./python') cmd = null;  // done in beforeAll, into `site` (the same install)
      else if (line.startsWith('python -m fxwasm.export ')) cmd = [PYTHON, line.split(/\s+/).slice(1)];
      else throw new Error(`${where(b)}: a shell line this suite does not know how to run: ${line}`);
      if (!cmd) continue;
      try {
        sh(cmd[0], cmd[1], project, { PYTHONPATH: site });
      } catch (e) {
        throw new Error(`${where(b)}: ${e.message}`);
      }
    }
  }
  // and no entry of the list is stale: each names a line some document has
  expect(CHECKOUT_COMMANDS.filter(([re]) => !notRun.some((l) => re.test(l))).map(([re]) => String(re))).toEqual([]);
  // what the exporter's command wrote loads and checks in the installed package
  expect(sh('npx', ['fxwasm', 'check', 'resnet18.fxw', '--rtol', '1e-3', '--atol', '1e-4'], project)).toMatch(/check: pass/);
});

test('Python blocks run with the pip-installed exporter, and the files they write load in the package', () => {
  const py = blocks.filter((b) => b.lang === 'python');
  expect(py.map(where).length).toBeGreaterThanOrEqual(3);
  for (const b of py) {
    const dir = fs.mkdtempSync(path.join(tmp, 'py-'));
    try {
      runPython(b.text, dir);
    } catch (e) {
      throw new Error(`${where(b)}: ${e.message}`);
    }
    const written = fs.readdirSync(dir).filter((f) => f.endsWith('.fxw'));
    expect(written.length).toBe(1);
    const out = sh('npx', ['fxwasm', 'info', path.join(dir, written[0])], project);
    expect(out).toMatch(/^format: +fxwasm 1$/m);
  }
});

test('JSON blocks parse (a member shown alone parses inside braces)', () => {
  for (const b of blocks.filter((x) => x.lang === 'json')) {
    const text = b.text.trim().startsWith('"') ? `{${b.text}}` : b.text;
    expect(() => JSON.parse(text)).not.toThrow();
  }
});

test('every examples/node script runs, copied into a project that installed the tarball', () => {
  const dir = path.join(ROOT, 'examples', 'node');
  const scripts = fs.readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort();
  expect(scripts.length).toBeGreaterThanOrEqual(4);
  const copies = path.join(project, 'examples-node');
  fs.mkdirSync(copies);
  for (const f of scripts) {
    fs.copyFileSync(path.join(dir, f), path.join(copies, f));
    try {
      runNode(path.join(copies, f), copies);
    } catch (e) {
      throw new Error(`examples/node/${f}: ${e.message}`);
    }
  }
  expect(codeBlocks('examples/node/README.md')).toEqual([]);  // its commands are in a table, run above
  expect(pkg.files).toContain('examples/*/*.fxw');  // the seed example the scripts open ships in the package
});
