// The benchmark's file access in Node: .npy files, and the I/O adapter the transformer workloads
// (bench/lib/transformers.mjs) read their folder through. The browser page has its own over HTTP
// (bench/browser/page.mjs); the measuring code is the same.
import fs from 'node:fs';
import path from 'node:path';

import { parseNpy } from './npy.mjs';

/** { data, shape, dtype } of a .npy file. */
export function readNpyFile(file) {
  return parseNpy(new Uint8Array(fs.readFileSync(file)), file);
}

/** An I/O adapter over the folder `dir`: names are relative paths with '/' ('decoder/step_fp32.fxw'). */
export function nodeFiles(dir) {
  const full = (name) => path.join(dir, ...name.split('/'));
  return {
    where: dir,
    async bytes(name) { return new Uint8Array(fs.readFileSync(full(name))); },
    async size(name) { return fs.statSync(full(name)).size; },
  };
}
