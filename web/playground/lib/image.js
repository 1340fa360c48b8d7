// An image file as a CNN input: resized (cover, centre crop) to the input's H×W, laid out as
// [N, C, H, W] float32 (the same image in each of the input's N batch rows). Three channels get
// torchvision's ImageNet normalisation (what resnet18 and mobilenet_v2 expect); one channel is grey in
// [0, 1], inverted when the picture is mostly light (so dark ink on paper becomes light strokes on
// black, as scikit-learn's digits are).

const FLOAT = /^(b?float)/;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/** True for an input shaped like a batch of images: [N, 1 or 3, H, W] floats with H, W ≥ 8. */
export function isImageSpec(spec) {
  const s = spec?.shape;
  return Array.isArray(s) && s.length === 4 && (s[1] === 1 || s[1] === 3) && s[2] >= 8 && s[3] >= 8 &&
    FLOAT.test(spec.dtype ?? '');
}

/** RGBA pixels of `source` (an ImageBitmap or canvas) drawn to width×height, cropped to fill. */
export function pixelsOf(source, width, height) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const scale = Math.max(width / source.width, height / source.height);
  const w = source.width * scale;
  const h = source.height * scale;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, (width - w) / 2, (height - h) / 2, w, h);
  return ctx.getImageData(0, 0, width, height).data;
}

/** CHW float32 values from RGBA pixels (see the module comment for the scaling). */
export function pixelsToChw(rgba, channels, count) {
  const out = new Float32Array(channels * count);
  if (channels === 3) {
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < 3; c++) out[c * count + i] = (rgba[i * 4 + c] / 255 - MEAN[c]) / STD[c];
    }
    return out;
  }
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const a = rgba[i * 4 + 3] / 255; // transparent pixels count as black
    const grey = ((0.299 * rgba[i * 4] + 0.587 * rgba[i * 4 + 1] + 0.114 * rgba[i * 4 + 2]) / 255) * a;
    out[i] = grey;
    sum += grey;
  }
  if (sum / count > 0.5) for (let i = 0; i < count; i++) out[i] = 1 - out[i];
  return out;
}

/** Reads an image file into a tensor for `spec` ([N, C, H, W]: the image is repeated in every batch row). */
export async function imageToTensor(fxwasm, file, spec) {
  const [batch, channels, height, width] = spec.shape;
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error('not an image the browser can decode');
  }
  const rgba = pixelsOf(bitmap, width, height);
  bitmap.close?.();
  const one = pixelsToChw(rgba, channels, width * height);
  const n = Math.max(1, batch); // the core checks inputs against the placeholder's static shape
  const data = new Float32Array(n * one.length);
  for (let b = 0; b < n; b++) data.set(one, b * one.length);
  return fxwasm.tensor(data, [n, channels, height, width], 'float32');
}
