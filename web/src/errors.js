// The one error type of the package. Core failures arrive from the wasm side as data ({ok:false, message,
// node}) and are turned into FxError here, so no C++ exception or wasm abort ever reaches users raw.
export class FxError extends Error {
  /**
   * @param {string} message what went wrong (the core's message names the node when there is one)
   * @param {{node?: string|null, cause?: unknown}} [options]
   */
  constructor(message, options = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FxError';
    this.node = options.node ?? null;
  }
}

/** Parses a JSON reply of the bindings and throws FxError when it reports a failure. */
export function unwrapReply(text) {
  const reply = JSON.parse(text);
  if (!reply.ok) throw new FxError(reply.message, { node: reply.node || null });
  return reply;
}
