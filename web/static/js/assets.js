// @ts-check
/**
 * The tile art: manifest.json and every image it names (assets/tiles/, docs/tiles.md),
 * loaded once. Also what the renderer and picking derive from the pixels: pre-scaled copies
 * for crisp drawing at the current zoom, alpha masks of unit sprites for exact picking, and
 * which base tiles rise above their face (trees, houses) and so can hide a cell behind them.
 */

/** @typedef {import("./types.js").Manifest} Manifest */

/**
 * @typedef {{manifest: Manifest, images: Map<string, HTMLImageElement>, masks: Map<string, Mask>,
 *   tall: Set<string>, scaled: (name: string, width: number) => CanvasImageSource}} Assets
 * @typedef {{w: number, h: number, bits: Uint8Array}} Mask
 */

const MASK_SIZE = 96;
const CACHE_LIMIT = 600;

/**
 * Load the manifest and every image (rejects if any fails).
 * @param {string} [base]
 * @returns {Promise<Assets>}
 */
export async function loadAssets(base = "/assets/tiles/") {
  const response = await fetch(`${base}manifest.json`);
  if (!response.ok) throw new Error(`tile manifest: HTTP ${response.status}`);
  /** @type {Manifest} */
  const manifest = await response.json();
  const images = new Map();
  await Promise.all(Object.entries(manifest.images).map(async ([name, entry]) => {
    const img = new Image();
    img.src = base + entry.file;
    await img.decode();
    images.set(name, img);
  }));
  const masks = new Map();
  const tall = new Set();
  for (const [name, entry] of Object.entries(manifest.images)) {
    const img = images.get(name);
    if (entry.group === "unit") masks.set(name, alphaMask(img));
    if (entry.group === "terrain" && risesAboveFace(img, manifest)) tall.add(name);
  }
  /** @type {Map<string, HTMLCanvasElement>} */
  const cache = new Map();
  const scaled = (/** @type {string} */ name, /** @type {number} */ width) => {
    const w = Math.max(1, Math.round(width));
    const key = `${name}@${w}`;
    let canvas = cache.get(key);
    if (!canvas) {
      if (cache.size > CACHE_LIMIT) cache.clear();
      canvas = resample(images.get(name), w);
      cache.set(key, canvas);
    }
    return canvas;
  };
  return { manifest, images, masks, tall, scaled };
}

/**
 * A copy of `img` `width` pixels wide, downscaled in halving steps for a clean result.
 * @param {HTMLImageElement} img @param {number} width
 */
function resample(img, width) {
  /** @type {CanvasImageSource} */
  let source = img;
  let sw = img.naturalWidth;
  let sh = img.naturalHeight;
  while (sw / 2 >= width * 1.5) {
    const half = document.createElement("canvas");
    half.width = Math.round(sw / 2);
    half.height = Math.round(sh / 2);
    const hctx = /** @type {CanvasRenderingContext2D} */ (half.getContext("2d"));
    hctx.imageSmoothingQuality = "high";
    hctx.drawImage(source, 0, 0, half.width, half.height);
    source = half;
    sw = half.width;
    sh = half.height;
  }
  const out = document.createElement("canvas");
  out.width = width;
  out.height = Math.max(1, Math.round((img.naturalHeight * width) / img.naturalWidth));
  const ctx = /** @type {CanvasRenderingContext2D} */ (out.getContext("2d"));
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(source, 0, 0, out.width, out.height);
  return out;
}

/** @param {HTMLImageElement} img @returns {Mask} */
function alphaMask(img) {
  const canvas = document.createElement("canvas");
  canvas.width = MASK_SIZE;
  canvas.height = MASK_SIZE;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { willReadFrequently: true }));
  ctx.drawImage(img, 0, 0, MASK_SIZE, MASK_SIZE);
  const data = ctx.getImageData(0, 0, MASK_SIZE, MASK_SIZE).data;
  const bits = new Uint8Array(MASK_SIZE * MASK_SIZE);
  for (let i = 0; i < bits.length; i++) bits[i] = data[i * 4 + 3] > 60 ? 1 : 0;
  return { w: MASK_SIZE, h: MASK_SIZE, bits };
}

/**
 * Whether an opaque pixel of the tile lies above its top face (in the image's top corners).
 * @param {HTMLImageElement} img @param {Manifest} manifest
 */
function risesAboveFace(img, manifest) {
  const { image_w: w, image_h: h, face_centre: [fx, fy] } = manifest.tile;
  const canvas = document.createElement("canvas");
  canvas.width = w / 4;
  canvas.height = h / 4;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { willReadFrequently: true }));
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  for (let y = 0; y < fy / 4; y++) {
    for (let x = 0; x < canvas.width; x++) {
      const outside = Math.abs(x * 4 - fx) / fx + Math.abs(y * 4 - fy) / fy > 1.08;
      if (outside && data[(y * canvas.width + x) * 4 + 3] > 80) return true;
    }
  }
  return false;
}

/**
 * Whether point (u, v), in 0..1 sprite coordinates, is on an opaque pixel of the mask.
 * @param {Mask} mask @param {number} u @param {number} v
 */
export function maskHit(mask, u, v) {
  if (u < 0 || v < 0 || u >= 1 || v >= 1) return false;
  return mask.bits[Math.floor(v * mask.h) * mask.w + Math.floor(u * mask.w)] === 1;
}
