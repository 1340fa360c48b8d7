// The benchmark models that can be written in tfjs ops, with the weights export_onnx.py saved from the
// torch module (torch layouts: Linear [out, in], Conv2d OIHW). Each builder converts the weights to the
// layouts tfjs models are stored in (Dense kernels [in, out], conv filters HWIO, activations NHWC) once,
// outside the timed calls, and uses the fused ops a converted tfjs model would use (bias + relu inside the
// matmul / conv, as fxwasm's GEMM does).
//   builder(tf, model) -> { forward: () => tf.Tensor, toTorchLayout(data) -> typed array, dispose() }
import path from 'node:path';

import { readNpyFile } from './node_io.mjs';

function weight(tf, model, key) {
  const entry = model.meta.weights[key];
  if (!entry) throw new Error(`weight ${key} is missing from meta.json`);
  const t = readNpyFile(path.join(model.dir, entry.file));
  return tf.tensor(t.data, t.shape, 'float32');
}

function keep(list) {
  return () => { for (const t of list) t.dispose(); };
}

/** x / (|x| + 1) * y, elementwise (layout-free). */
function elementwise(tf, model) {
  const [x, y] = model.inputs.map((t) => tf.tensor(t.data, t.shape, 'float32'));
  return {
    forward: () => tf.mul(tf.div(x, tf.add(tf.abs(x), 1)), y),
    toTorchLayout: (data) => data,
    dispose: keep([x, y]),
  };
}

/** 784-1024-1024-10 with relu: fused matMul + bias + relu per layer. */
function mlp(tf, model) {
  const layers = ['fc1', 'fc2', 'fc3'].map((name) => {
    const w = weight(tf, model, `${name}.weight`);
    const kernel = tf.transpose(w);  // [in, out], as a tfjs Dense layer stores it
    w.dispose();
    return { kernel, bias: weight(tf, model, `${name}.bias`) };
  });
  const [x0] = model.inputs;
  const x = tf.tensor(x0.data, x0.shape, 'float32');
  return {
    forward: () => layers.reduce((h, l, i) => tf.fused.matMul({
      a: h, b: l.kernel, bias: l.bias, activation: i < layers.length - 1 ? 'relu' : 'linear',
    }), x),
    toTorchLayout: (data) => data,
    dispose: keep([x, ...layers.flatMap((l) => [l.kernel, l.bias])]),
  };
}

/** 3 x [conv3x3 pad 1 + relu] in NHWC: fused conv2d + bias + relu. */
function convStack(tf, model) {
  const keys = Object.keys(model.meta.weights).filter((k) => k.endsWith('.weight'));
  const layers = keys.map((key) => {
    const w = weight(tf, model, key);
    const filter = tf.transpose(w, [2, 3, 1, 0]);  // OIHW -> HWIO
    w.dispose();
    return { filter, bias: weight(tf, model, key.replace(/weight$/, 'bias')) };
  });
  const [x0] = model.inputs;
  const nchw = tf.tensor(x0.data, x0.shape, 'float32');
  const x = tf.transpose(nchw, [0, 2, 3, 1]);
  nchw.dispose();
  const [n, c, h, w] = model.meta.output.shape;
  return {
    forward: () => layers.reduce((y, l) => tf.fused.conv2d({
      x: y, filter: l.filter, bias: l.bias, strides: 1, pad: 'same', activation: 'relu',
    }), x),
    toTorchLayout: (data) => {  // NHWC -> NCHW
      const out = new Float32Array(data.length);
      for (let b = 0; b < n; ++b) {
        for (let i = 0; i < h * w; ++i) {
          for (let ch = 0; ch < c; ++ch) out[((b * c + ch) * h * w) + i] = data[(b * h * w + i) * c + ch];
        }
      }
      return out;
    },
    dispose: keep([x, ...layers.flatMap((l) => [l.filter, l.bias])]),
  };
}

/** The corpus's GPT-style block (tests/corpus/models.py DecoderBlock), op for op, in plain tfjs ops. */
function decoderBlock(tf, model) {
  const owned = [];
  const w = (key) => { const t = weight(tf, model, key); owned.push(t); return t; };
  const linear = (name, bias = true) => {
    const raw = weight(tf, model, `${name}.weight`);
    const kernel = tf.transpose(raw);  // [in, out]
    raw.dispose();
    owned.push(kernel);
    return { kernel, bias: bias ? w(`${name}.bias`) : null };
  };
  const [B, T] = model.inputs[0].shape;
  const heads = 2;  // DecoderBlock(n_heads=2)
  const tok = w('tok_emb.weight');
  const pos = w('pos_emb.weight');
  const C = tok.shape[1];
  const hd = C / heads;
  const ln = (name) => ({ gamma: w(`${name}.weight`), beta: w(`${name}.bias`) });
  const [ln1, ln2, lnF] = ['ln1', 'ln2', 'ln_f'].map(ln);
  const [qkv, proj, fc, fcOut] = ['qkv', 'proj', 'fc', 'fc_out'].map((n) => linear(n));
  const head = linear('head', false);
  const idx = tf.tensor(Int32Array.from(model.inputs[0].data, Number), [B, T], 'int32');
  const positions = tf.range(0, T, 1, 'int32');
  // masked_fill(future, -inf) as an added mask: -inf above the diagonal, 0 elsewhere
  const maskData = new Float32Array(T * T);
  for (let i = 0; i < T; ++i) for (let j = i + 1; j < T; ++j) maskData[i * T + j] = -Infinity;
  const mask = tf.tensor(maskData, [T, T]);
  owned.push(idx, positions, mask);

  const layerNorm = (x, p) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), p.gamma), p.beta);
  };
  const dense = (x, l, activation = 'linear') => {
    const shape = x.shape;
    const y = tf.fused.matMul({ a: tf.reshape(x, [-1, shape[shape.length - 1]]), b: l.kernel,
      bias: l.bias ?? undefined, activation });
    return tf.reshape(y, [...shape.slice(0, -1), l.kernel.shape[1]]);
  };
  const gelu = (x) => tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.div(x, Math.SQRT2)), 1));
  const splitHeads = (t) => tf.transpose(tf.reshape(t, [B, T, heads, hd]), [0, 2, 1, 3]);

  return {
    forward: () => {
      let x = tf.add(tf.gather(tok, idx), tf.gather(pos, positions));
      const [q, k, v] = tf.split(dense(layerNorm(x, ln1), qkv), 3, 2).map(splitHeads);
      let att = tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(hd)), mask);
      att = tf.softmax(att, -1);
      const y = tf.reshape(tf.transpose(tf.matMul(att, v), [0, 2, 1, 3]), [B, T, C]);
      x = tf.add(x, dense(y, proj));
      x = tf.add(x, dense(gelu(dense(layerNorm(x, ln2), fc)), fcOut));
      return dense(layerNorm(x, lnF), head);
    },
    toTorchLayout: (data) => data,
    dispose: keep(owned),
  };
}

export const tfjsModels = {
  decoder_block: decoderBlock,
  elementwise,
  mlp,
  conv_stack: convStack,
};
