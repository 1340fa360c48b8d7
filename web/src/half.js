// float16 / bfloat16 bits from numbers. The package holds these dtypes as Uint16Array of raw bits;
// randomTensor draws numbers and stores them this way (the playground's lib/half.js reads them back).

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The bfloat16 bits nearest to x (round to nearest even; NaN stays NaN). */
export function numberToBfloat16(x) {
  f32[0] = x;
  const b = u32[0];
  if (Number.isNaN(x)) return 0x7fc0;
  return ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) & 0xffff;
}

/** The float16 bits nearest to x (±Infinity beyond 65504, subnormals below 2^-14). */
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
