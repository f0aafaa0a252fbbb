// @ts-check
/**
 * The tile art: manifest.json and every image it names (assets/tiles/, docs/tiles.md),
 * loaded once. Also what the renderer and picking derive from the pixels: alpha masks of
 * unit sprites for exact picking, and which base tiles rise above their face (trees,
 * houses) and so can hide a cell behind them. Images are drawn as they are: the canvas's
 * high-quality smoothing downsamples them (mipmapped) as well as pre-scaled copies did, and
 * faster (measured with scripts/bench_client.py).
 */

/** @typedef {import("./types.js").Manifest} Manifest */
/** @typedef {{manifest: Manifest, images: Record<string, HTMLImageElement>}} StartedArt what js/preload.js leaves in `window.taktikArt` */

/**
 * @typedef {{manifest: Manifest, images: Map<string, HTMLImageElement>, image: (name: string) => HTMLImageElement,
 *   mask: (name: string) => Mask, tall: (name: string) => boolean}} Assets
 * @typedef {{w: number, h: number, bits: Uint8Array}} Mask
 */

const MASK_SIZE = 96;

/**
 * Load the manifest and every image (rejects if any fails).
 * @param {string} [base]
 * @returns {Promise<Assets>}
 */
export async function loadAssets(base = "/assets/tiles/") {
  const early = /** @type {Window & {taktikArt?: Promise<StartedArt>}} */ (window).taktikArt;
  const { manifest, images: started } = early ? await early : await startLoading(base);
  /** @type {Map<string, HTMLImageElement>} */
  const images = new Map();
  await Promise.all(Object.entries(started).map(async ([name, img]) => {
    await img.decode();
    images.set(name, img);
  }));
  /** @type {Map<string, Mask>} */
  const masks = new Map();
  /** @type {Map<string, boolean>} */
  const tallness = new Map();
  const image = (/** @type {string} */ name) => /** @type {HTMLImageElement} */ (images.get(name));
  return {
    manifest,
    images,
    image,
    // Derived from the pixels on first use, so they cost nothing before the first paint.
    mask: (name) => {
      let mask = masks.get(name);
      if (!mask) masks.set(name, (mask = alphaMask(image(name))));
      return mask;
    },
    tall: (name) => {
      let tall = tallness.get(name);
      if (tall === undefined) tallness.set(name, (tall = risesAboveFace(image(name), manifest)));
      return tall;
    },
  };
}

/**
 * Fetch the manifest and start every image (what js/preload.js does early on board pages).
 * @param {string} base
 * @returns {Promise<StartedArt>}
 */
async function startLoading(base) {
  const response = await fetch(`${base}manifest.json`);
  if (!response.ok) throw new Error(`tile manifest: HTTP ${response.status}`);
  /** @type {Manifest} */
  const manifest = await response.json();
  /** @type {Record<string, HTMLImageElement>} */
  const images = {};
  for (const [name, entry] of Object.entries(manifest.images)) {
    images[name] = new Image();
    images[name].src = base + entry.file;
  }
  return { manifest, images };
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
