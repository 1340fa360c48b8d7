// A TypeScript user of the package, type-checked (tsc --noEmit) by tests/js/typescript.test.js.
import * as fxwasm from 'fxwasm';
import { FxError, type GraphModule, type RunValue, type Tensor } from 'fxwasm';

async function main(): Promise<void> {
  const gm: GraphModule = await fxwasm.load('examples/seed/toy_example.fxw', {
    onProgress: ({ loaded, total }) => console.log(loaded, total ?? '?'),
  });
  const table: string = gm.printTabular();
  const code: string = gm.code;
  for (const node of gm.graph.nodes) {
    const users: string[] = node.users.map((u) => u.name);
    console.log(node.op, node.name, node.target, node.args.length, Object.keys(node.kwargs), users);
  }
  const info = gm.info();
  const shapes: (number[] | null)[] = info.inputs.map((i) => i.shape);

  const a: Tensor = fxwasm.tensor(new Float32Array(10), [10]);
  const b = fxwasm.tensor([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [10], 'float32');
  const out: RunValue = await gm.run([a, b]);
  if (Array.isArray(out) && out[1] instanceof fxwasm.Tensor) {
    const data = out[1].data;
    const dtype: fxwasm.DType = out[1].dtype;
    console.log(data.length, dtype, out[1].shape);
  }
  const named = await gm.run({ l_a_: a, l_b_: b });
  const { outputs, profile } = await gm.run([a, b], { profile: true });
  const ms: number = profile.reduce((t, p) => t + p.ms, 0);
  const report = await gm.check({ rtol: 1e-4, atol: 1e-5 });
  const status: 'pass' | 'fail' | 'no_reference' = report.status;
  const bytes: Uint8Array = fxwasm.save(gm);

  // FX's editing API, typed.
  const g: fxwasm.Graph = gm.graph;
  const abs: fxwasm.Node | undefined = g.find('abs_1');
  if (abs) {
    const relu: fxwasm.Node = g.insertingAfter(abs, (graph) => graph.callFunction('torch.relu', [abs]));
    const changed: fxwasm.Node[] = abs.replaceAllUsesWith(relu, { filter: (u) => u !== relu });
    const next: fxwasm.Node | null = abs.next;
    console.log(changed.length, next?.name, relu.args, relu.users.map((u) => u.op));
  }
  g.lint();
  const removed: boolean = g.eliminateDeadCode();
  const folded: boolean = gm.applyPass('constant_fold');
  const built: GraphModule = await fxwasm.create();
  built.addTensor('w', fxwasm.tensor([1, 2, 3]), 'parameter');
  const x = built.graph.placeholder('x');
  built.graph.output([built.graph.callFunction('operator.mul', [x, built.graph.getAttr('w')]), fxwasm.float(2)]);
  const matches: fxwasm.PatternMatch[] = gm.replacePattern(built, built);
  console.log(removed, folded, matches.map((m) => m.replacements.length));
  built.dispose();
  const npy: Uint8Array = fxwasm.writeNpy(a);
  const back: Tensor = fxwasm.readNpy(npy);
  gm.dispose();
  try {
    gm.printTabular();
  } catch (e) {
    if (e instanceof FxError) console.log(e.message, e.node);
  }
  console.log(table, code, shapes, named, outputs, ms, status, bytes.length, back.shape);
  // Worker mode: the same calls, all async.
  const w: fxwasm.WorkerGraphModule = await fxwasm.load('model.fxw', { worker: true });
  const wTable: string = await w.printTabular();
  const wCode: string = await w.code;
  const wNames: string[] = await w.inputNames;
  const wOut: fxwasm.RunValue = await w.run([a], { transfer: true });
  const wSaved: Uint8Array = await fxwasm.save(w);
  const threaded = await fxwasm.load('model.fxw', { threads: 'auto' });
  const tinfo: fxwasm.ThreadInfo = threaded.threadInfo;
  const n: number = threaded.threads + w.threads;
  const asked: number | 'auto' | null = tinfo.requested;
  console.log(n, asked, tinfo.cores, tinfo.reason.length, w.threadInfo.threads);
  const seeded: Tensor = fxwasm.randomTensor([2, 3], 'float32', fxwasm.seededRandom(0));
  console.log(seeded.shape);
  await w.dispose();
  console.log(wTable, wCode, wNames, wOut, wSaved.length);
}

void main();
