// Turns whatever load() is given into bytes in the WebAssembly heap, reporting progress as {loaded, total}
// (total null when unknown). Sources: Uint8Array | ArrayBuffer | other views | Blob | Response | URL |
// string (a URL, or a file path in Node).
//
// Streamed sources (files, Blobs, fetches) go chunk by chunk straight into one heap block sized from the
// file size / Blob size / Content-Length, so a model's weights are never held whole in JS memory as well:
// only one chunk at a time is. When the size is unknown (or wrong, e.g. a compressed transfer), the block
// grows by doubling.
import { FxError } from './errors.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const URL_LIKE = /^(https?|file|data|blob):/i;
const FILE_CHUNK = 1 << 20;  // bytes per read of a local file
// The most bytes a source can have: the wasm heap's whole address space (-sMAXIMUM_MEMORY=4GB).
const MAX_FILE_BYTES = 2 ** 32;

// A 64-byte aligned heap block from the core: the writer aligns every tensor to 64 bytes, so the loaded
// model's tensors view the weights where they land (cpp/serialize/reader.h) instead of copying them.
function allocBlock(rt, nbytes) {
  return rt.call('fx_alloc', Math.max(1, nbytes)).ptr;
}

/** A growable block of wasm heap that chunks are appended to. The caller frees `ptr` (or calls abort()). */
class HeapSink {
  constructor(rt, expected) {
    this.rt = rt;
    this.capacity = Math.max(1, expected || 1 << 16);
    this.ptr = allocBlock(rt, this.capacity);
    this.length = 0;
  }

  write(chunk) {
    const need = this.length + chunk.byteLength;
    // A stream that never ends (or a file past the heap's size) stops here, not at an allocation failure.
    if (need > MAX_FILE_BYTES) throw new FxError(`load(): the source is larger than the 4 GiB the WebAssembly heap can hold`);
    if (need > this.capacity) {
      const capacity = Math.min(MAX_FILE_BYTES, Math.max(need, this.capacity * 2));
      const ptr = allocBlock(this.rt, capacity);
      this.rt.heap.copyWithin(ptr, this.ptr, this.ptr + this.length);
      this.rt.free(this.ptr);
      this.ptr = ptr;
      this.capacity = capacity;
    }
    this.rt.heap.set(chunk, this.ptr + this.length);  // heap re-read: malloc may have grown memory
    this.length = need;
  }

  abort() {
    this.rt.free(this.ptr);
    this.ptr = 0;
  }
}

// Runs fill(sink) and returns {ptr, nbytes}; frees the block if filling fails.
async function intoHeap(rt, expected, fill) {
  const sink = new HeapSink(rt, expected);
  try {
    await fill(sink);
  } catch (e) {
    sink.abort();
    throw e;
  }
  return { ptr: sink.ptr, nbytes: sink.length };
}

async function pump(stream, sink, total, onProgress) {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    sink.write(value);
    onProgress?.({ loaded: sink.length, total: total !== null && sink.length <= total ? total : null });
  }
}

async function readResponse(rt, response, name, onProgress) {
  if (!response.ok) throw new FxError(`${name}: HTTP ${response.status} ${response.statusText}`.trim());
  // Content-Length counts the bytes on the wire: with a content encoding the body is larger.
  const length = Number(response.headers.get('content-length'));
  const encoding = (response.headers.get('content-encoding') || 'identity').toLowerCase();
  const total = Number.isFinite(length) && length > 0 && encoding === 'identity' ? length : null;
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onProgress?.({ loaded: bytes.byteLength, total: bytes.byteLength });
    return intoHeap(rt, bytes.byteLength, (sink) => sink.write(bytes));
  }
  return intoHeap(rt, total, (sink) => pump(response.body, sink, total, onProgress));
}

/** Why `stat` is no regular file to read, or null when it is one. */
export function notAFile(stat) {
  if (stat.isFile()) return null;
  if (stat.isDirectory()) return 'is a directory';
  if (stat.isFIFO()) return 'is a FIFO (named pipe), not a file';
  if (stat.isSocket()) return 'is a socket, not a file';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'is a device, not a file';
  return 'is not a regular file';
}

// A local file: only a regular file is read (a device such as /dev/zero never ends, a FIFO blocks until a
// writer comes), and only as many bytes as its size said when it was opened: one that grows or shrinks
// while read (a log being written, a /proc file whose size reads as 0) is an error, not an endless read.
async function readPath(rt, path, onProgress) {
  const fs = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const cannot = (e) => {
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    return new FxError(`${path}: cannot read: ${why}`, { cause: e });
  };
  const refuse = (why) => new FxError(`${path}: cannot read: ${why}`);
  try {
    const why = notAFile(await fs.stat(path));
    if (why) throw refuse(why);  // before open(): opening a FIFO would wait for a writer
  } catch (e) {
    throw e instanceof FxError ? e : cannot(e);
  }
  let file;
  try {
    // O_NONBLOCK: should the path have become a FIFO since the stat, open() still returns at once.
    file = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw cannot(e);
  }
  try {
    let size;
    try {
      const stat = await file.stat();
      const why = notAFile(stat);
      if (why) throw refuse(why);
      size = stat.size;
    } catch (e) {
      throw e instanceof FxError ? e : cannot(e);
    }
    if (size > MAX_FILE_BYTES) throw refuse(`${size} bytes is more than the 4 GiB the WebAssembly heap can hold`);
    // One byte more than the size: reading it means the file grew.
    const scratch = new Uint8Array(Math.min(FILE_CHUNK, size + 1));
    return await intoHeap(rt, size, async (sink) => {
      for (;;) {
        let bytesRead;
        try {
          const want = Math.min(scratch.byteLength, size + 1 - sink.length);
          ({ bytesRead } = await file.read(scratch, 0, want, null));
        } catch (e) {
          throw cannot(e);
        }
        if (bytesRead === 0) break;
        if (sink.length + bytesRead > size) throw refuse(`the file grew while it was read (its size was ${size} bytes)`);
        sink.write(scratch.subarray(0, bytesRead));
        onProgress?.({ loaded: sink.length, total: size });
        if (sink.length === size) {
          // At the size: one more read must find the end.
          ({ bytesRead } = await file.read(scratch, 0, 1, null).catch((e) => { throw cannot(e); }));
          if (bytesRead !== 0) throw refuse(`the file grew while it was read (its size was ${size} bytes)`);
          break;
        }
      }
      if (sink.length !== size) throw refuse(`the file shrank while it was read (${sink.length} of ${size} bytes)`);
      if (sink.length === 0) onProgress?.({ loaded: 0, total: 0 });
    });
  } finally {
    await file.close();
  }
}

async function readUrl(rt, url, onProgress) {
  if (url.protocol === 'file:' && isNode) {
    const { fileURLToPath } = await import('node:url');
    return readPath(rt, fileURLToPath(url), onProgress);
  }
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new FxError(`${url.href}: cannot fetch: ${e.message}`, { cause: e });
  }
  return readResponse(rt, response, url.href, onProgress);
}

function viewOf(source) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return null;
}

/**
 * Puts the bytes of `source` into a fresh 64-byte aligned block of the runtime's heap; the caller frees
 * `ptr` or hands it to fx_load_block.
 * @returns {Promise<{ptr: number, nbytes: number, name: string}>}
 */
export async function readIntoHeap(rt, source, onProgress) {
  try {
    return await readAny(rt, source, onProgress);
  } catch (e) {
    if (e instanceof FxError) throw e;
    // A stream that failed half-way (network drop, aborted fetch), or an onProgress that threw.
    throw new FxError(`load(): cannot read the source: ${e && e.message ? e.message : e}`, { cause: e });
  }
}

async function readAny(rt, source, onProgress) {
  const bytes = viewOf(source);
  if (bytes) {
    // Bytes already in JS memory: the one copy into the heap is unavoidable (wasm cannot see them).
    const ptr = allocBlock(rt, bytes.byteLength);
    rt.heap.set(bytes, ptr);
    onProgress?.({ loaded: bytes.byteLength, total: bytes.byteLength });
    return { ptr, nbytes: bytes.byteLength, name: '<bytes>' };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const name = typeof source.name === 'string' && source.name ? source.name : '<blob>';
    const { ptr, nbytes } = await intoHeap(rt, source.size, (sink) => pump(source.stream(), sink, source.size, onProgress));
    if (nbytes === 0) onProgress?.({ loaded: 0, total: 0 });
    return { ptr, nbytes, name };
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    const name = source.url || '<response>';
    return { ...(await readResponse(rt, source, name, onProgress)), name };
  }
  if (source instanceof URL) return { ...(await readUrl(rt, source, onProgress)), name: source.href };
  if (typeof source === 'string') {
    if (URL_LIKE.test(source)) return { ...(await readUrl(rt, new URL(source), onProgress)), name: source };
    if (isNode) return { ...(await readPath(rt, source, onProgress)), name: source };
    const base = typeof location !== 'undefined' ? location.href : undefined;
    return { ...(await readUrl(rt, new URL(source, base), onProgress)), name: source };
  }
  throw new FxError('load(): source must be a Uint8Array, ArrayBuffer, Blob, Response, URL or string');
}
