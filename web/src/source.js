// Turns whatever load() is given into bytes, reporting progress as {loaded, total} (total null when unknown).
// Sources: Uint8Array | ArrayBuffer | other views | Blob | Response | URL | string (a URL, or a file path in Node).
import { FxError } from './errors.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const URL_LIKE = /^(https?|file|data|blob):/i;

async function readStream(stream, total, onProgress) {
  const reader = stream.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress?.({ loaded, total });
  }
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

async function readResponse(response, name, onProgress) {
  if (!response.ok) throw new FxError(`${name}: HTTP ${response.status} ${response.statusText}`.trim());
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onProgress?.({ loaded: bytes.byteLength, total: bytes.byteLength });
    return bytes;
  }
  return readStream(response.body, total, onProgress);
}

async function readPath(path, onProgress) {
  const fs = await import('node:fs/promises');
  let bytes;
  try {
    bytes = await fs.readFile(path);
  } catch (e) {
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new FxError(`${path}: cannot read: ${why}`, { cause: e });
  }
  const out = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  onProgress?.({ loaded: out.byteLength, total: out.byteLength });
  return out;
}

async function readUrl(url, onProgress) {
  if (url.protocol === 'file:' && isNode) {
    const { fileURLToPath } = await import('node:url');
    return readPath(fileURLToPath(url), onProgress);
  }
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new FxError(`${url.href}: cannot fetch: ${e.message}`, { cause: e });
  }
  return readResponse(response, url.href, onProgress);
}

/** @returns {Promise<{bytes: Uint8Array, name: string}>} */
export async function readSource(source, onProgress) {
  if (source instanceof Uint8Array) {
    onProgress?.({ loaded: source.byteLength, total: source.byteLength });
    return { bytes: source, name: '<bytes>' };
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes = source instanceof ArrayBuffer
      ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    onProgress?.({ loaded: bytes.byteLength, total: bytes.byteLength });
    return { bytes, name: '<bytes>' };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const name = typeof source.name === 'string' && source.name ? source.name : '<blob>';
    return { bytes: await readStream(source.stream(), source.size, onProgress), name };
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    const name = source.url || '<response>';
    return { bytes: await readResponse(source, name, onProgress), name };
  }
  if (source instanceof URL) return { bytes: await readUrl(source, onProgress), name: source.href };
  if (typeof source === 'string') {
    if (URL_LIKE.test(source)) return { bytes: await readUrl(new URL(source), onProgress), name: source };
    if (isNode) return { bytes: await readPath(source, onProgress), name: source };
    const base = typeof location !== 'undefined' ? location.href : undefined;
    return { bytes: await readUrl(new URL(source, base), onProgress), name: source };
  }
  throw new FxError('load(): source must be a Uint8Array, ArrayBuffer, Blob, Response, URL or string');
}
