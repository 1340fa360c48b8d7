// JSON for messages to the core. JSON.stringify refuses BigInt; a BigInt argument (an int64 beyond 2^53,
// e.g. torch.iinfo(torch.int64).min) must reach the core as the exact integer, never rounded to a double.
const MARK = '\u0000fxwasm-bigint:';
const MARKED = /"\\u0000fxwasm-bigint:(-?\d+)"/g;

/** JSON.stringify that writes BigInt values as plain JSON integers, digit for digit. */
export function stringify(value) {
  try {
    // Without a replacer first: a replacer costs a call per key, more than a small run's whole message
    // takes to write; only a value holding a BigInt (JSON.stringify's TypeError) needs it.
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? MARK + v.toString() : v)).replace(MARKED, '$1');
}
