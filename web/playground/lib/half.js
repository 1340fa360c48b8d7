// float16 / bfloat16 bits → numbers. The package holds these dtypes as Uint16Array of raw bits; the
// playground converts so that output previews and stats show real values (the other way, numbers → bits,
// is the package's: web/src/half.js, used by randomTensor).

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function bfloat16ToNumber(bits) {
  u32[0] = bits << 16;
  return f32[0];
}

export function float16ToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Values of a tensor's data as numbers (bigints stay bigints), decoding half-precision bits. */
export function decodeHalf(data, dtype) {
  if (dtype === 'float16') return Float64Array.from(data, float16ToNumber);
  if (dtype === 'bfloat16') return Float64Array.from(data, bfloat16ToNumber);
  return data;
}
