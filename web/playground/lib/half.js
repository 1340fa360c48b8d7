// float16 / bfloat16 <-> number. The package holds these dtypes as Uint16Array of raw bits; the
// playground converts so that random inputs and output previews/stats show real values.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function bfloat16ToNumber(bits) {
  u32[0] = bits << 16;
  return f32[0];
}

export function numberToBfloat16(x) {
  f32[0] = x;
  const b = u32[0];
  if (Number.isNaN(x)) return 0x7fc0;
  return ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) & 0xffff; // round to nearest even
}

export function float16ToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

export function numberToFloat16(x) {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -24 / 2) return sign;
  if (a < 2 ** -14) return sign | Math.round(a / 2 ** -24);
  let exp = Math.floor(Math.log2(a));
  let frac = Math.round((a / 2 ** exp - 1) * 1024);
  if (frac === 1024) { frac = 0; exp += 1; }
  return sign | ((exp + 15) << 10) | frac;
}

/** Values of a tensor's data as numbers (bigints stay bigints), decoding half-precision bits. */
export function decodeHalf(data, dtype) {
  if (dtype === 'float16') return Float64Array.from(data, float16ToNumber);
  if (dtype === 'bfloat16') return Float64Array.from(data, bfloat16ToNumber);
  return data;
}
