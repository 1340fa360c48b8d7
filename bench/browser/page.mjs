// The browser side of `npm run bench -- --browser`: the transformer workloads' measuring code
// (bench/lib/transformers.mjs), unchanged, with an I/O adapter that fetches the files the server publishes
// from .cache/bench/transformers/ under /data/. bench/lib/browser.mjs calls benchTransformers().
import { measureTransformers } from '../lib/transformers.mjs';

function httpFiles(base) {
  const get = async (name, method) => {
    const r = await fetch(base + name, { method, cache: 'no-store' });
    if (!r.ok) throw new Error(`${base}${name}: HTTP ${r.status}`);
    return r;
  };
  return {
    where: base,
    async bytes(name) { return new Uint8Array(await (await get(name, 'GET')).arrayBuffer()); },
    async size(name) { return Number((await get(name, 'HEAD')).headers.get('content-length')); },
  };
}

const logLine = (m) => {
  document.getElementById('log').textContent += `${m}\n`;
  globalThis.benchLog?.(m);  // exposed by the driver: progress on the terminal
};

globalThis.benchTransformers = async (names, variants, opts = {}) => ({
  environment: { userAgent: navigator.userAgent, crossOriginIsolated: globalThis.crossOriginIsolated,
    hardwareConcurrency: navigator.hardwareConcurrency },
  transformers: await measureTransformers(httpFiles('/data/'), names, variants, { ...opts, log: logLine }),
});
globalThis.benchReady = true;
