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
/**
 * What the page's first script (index.html) leaves in `window.taktikArt`: the manifest and
 * either the bytes of the half-size atlas being fetched, or (a tile set without an atlas) one
 * image per name.
 * @typedef {{manifest: Manifest, images: Record<string, HTMLImageElement>, atlas: Promise<Blob>|null}} StartedArt
 */
/**
 * One image of the set, decoded: an image of its own, or its rectangle of the atlas with
 * bitmaps cut from it at full, half, quarter and eighth size (`levels`, largest first).
 * @typedef {{src: HTMLImageElement|ImageBitmap, x: number, y: number, w: number, h: number, levels: ImageBitmap[]}} Picture
 */

const LEVELS = 4; // full size and three halvings: the board never shows a tile smaller than 1/8
const FRAME_GROUPS = /^(light|mechanized|special)_[ab]$|^badge_|^highlight_/; // drawn every frame, not cached in chunks
/**
 * `detail`: atlas pixels per image pixel (0.5 while the half-size atlas is in use, else 1).
 * `sharpen()` loads the whole atlas (once) and draws from it from then on; it resolves true
 * when the pictures changed (the renderer then rebuilds its cached terrain).
 * @typedef {{manifest: Manifest, images: Map<string, Picture>, detail: number, sharpen: () => Promise<boolean>,
 *   draw: (ctx: CanvasRenderingContext2D, name: string, dx: number, dy: number, dw: number, dh: number) => void,
 *   mask: (name: string) => Mask, tall: (name: string) => boolean}} Assets
 * @typedef {{w: number, h: number, bits: Uint8Array}} Mask
 */

const MASK_SIZE = 96;

/**
 * Load the manifest and every image (rejects if any fails). With an atlas (docs/tiles.md) that
 * is one image request, of the half-size atlas when the set has one; each image is drawn from
 * its rectangle there. The atlas is drawn as an <img>, whose decoded pixels and mipmaps the
 * canvas keeps (a bitmap's it does not: drawing terrain from one is several times slower).
 * @param {string} [base]
 * @returns {Promise<Assets>}
 */
export async function loadAssets(base = "/assets/tiles/") {
  const early = /** @type {Window & {taktikArt?: Promise<StartedArt>}} */ (window).taktikArt;
  const { manifest, images: started, atlas } = early ? await early : await startLoading(base);
  /** @type {Map<string, Picture>} */
  const images = new Map();
  /** @type {(() => void)|null} cuts the per-frame bitmaps from the atlas in use: after the next frame */
  let cut = null;
  const whole = manifest.atlas;
  let detail = 1;
  if (atlas && whole) {
    detail = whole.half ? 0.5 : 1;
    cut = placeInAtlas(images, manifest, await atlasImages(await atlas), detail);
  } else {
    await Promise.all(Object.entries(started).map(async ([name, img]) => {
      await img.decode();
      images.set(name, { src: img, x: 0, y: 0, w: img.naturalWidth, h: img.naturalHeight, levels: [] });
    }));
  }
  /** @type {Map<string, Mask>} */
  const masks = new Map();
  /** @type {Map<string, boolean>} */
  const tallness = new Map();
  const image = (/** @type {string} */ name) => /** @type {Picture} */ (images.get(name));
  /** @type {Promise<boolean>|null} */
  let sharpening = null;
  /** @type {Assets} */
  const assets = {
    manifest,
    images,
    detail,
    sharpen: () => {
      if (!whole || detail === 1) return Promise.resolve(false);
      sharpening ??= (async () => {
        cut = placeInAtlas(images, manifest, await atlasImages(await fetchBytes(base + whole.file)), 1);
        assets.detail = detail = 1;
        return true;
      })().catch(() => false); // the half-size art stays: sharper tiles are a nicety
      return sharpening;
    },
    draw: (ctx, name, dx, dy, dw, dh) => {
      const p = image(name);
      if (p.levels.length) {
        const t = ctx.getTransform();
        const shown = Math.abs(dw * Math.hypot(t.a, t.b)); // device pixels across
        let level = 0;
        while (level + 1 < p.levels.length && p.levels[level + 1].width >= shown) level += 1;
        ctx.drawImage(p.levels[level], dx, dy, dw, dh);
      } else {
        ctx.drawImage(p.src, p.x, p.y, p.w, p.h, dx, dy, dw, dh);
      }
      if (cut) whenIdle(cut); // a frame is being drawn: once it is on screen
      cut = null;
    },
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
  return assets;
}

/**
 * The atlas as an <img> to draw from, and its bytes (the per-frame bitmaps are cut from them).
 * @param {Blob} bytes
 * @returns {Promise<{image: HTMLImageElement, bytes: Blob}>}
 */
async function atlasImages(bytes) {
  const url = URL.createObjectURL(bytes);
  const image = new Image();
  try {
    await new Promise((loaded, failed) => { // loaded, not decoded: the canvas decodes its own copy (warmUp)
      image.onload = loaded;
      image.onerror = () => failed(new Error("the tile atlas is not an image this browser can show"));
      image.src = url;
    });
  } finally {
    URL.revokeObjectURL(url); // the loaded image keeps its bytes
  }
  return { image, bytes };
}

/**
 * Point every picture at its rectangle of the atlas (drawn at `detail` atlas pixels per image
 * pixel). Terrain is drawn into cached chunks straight from the atlas's <img>. Once the page is
 * idle (the first paint waits for the match's state and the rest of the code), the canvas's copy
 * of the atlas is decoded, which it would otherwise do in the first frame (about 90 ms on a slow
 * machine). Returns the cut: what is drawn every frame (units, badge, highlights) gets bitmaps of
 * its own with smaller copies, since a deep downscale of a small bitmap is slow; the first frame
 * does without them, so they are cut after it, from a decode of the bytes off the page's thread.
 * @param {Map<string, Picture>} images @param {Manifest} manifest
 * @param {{image: HTMLImageElement, bytes: Blob}} atlas @param {number} detail
 * @returns {() => void}
 */
function placeInAtlas(images, manifest, atlas, detail) {
  /** @type {Map<string, Picture>} */
  const placed = new Map();
  for (const [name, entry] of Object.entries(manifest.images)) {
    if (!entry.rect) throw new Error(`tile manifest: ${name} has no place in the atlas`);
    const [x, y, w, h] = entry.rect.map((v) => v * detail);
    placed.set(name, { src: atlas.image, x, y, w, h, levels: [] });
  }
  for (const [name, p] of placed) {
    const before = images.get(name);
    if (before) Object.assign(before, { ...p, levels: before.levels }); // keep the old bitmaps until the new ones are cut
    else images.set(name, p);
  }
  whenIdle(() => warmUp(atlas.image));
  return () => {
    cutFrameImages(atlas.image, atlas.bytes, images).catch(() => undefined); // without them: drawn from the atlas, slower
  };
}

/** @param {() => void} run */
function whenIdle(run) {
  if ("requestIdleCallback" in window) requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 0);
}

/**
 * Have the canvas decode the atlas now: draw it once, at a quarter of its size (about what a
 * first view at devicePixelRatio 1 draws the half atlas at, so that mipmap is made too), into a
 * one-pixel canvas, and read that pixel.
 * @param {HTMLImageElement} image
 */
function warmUp(image) {
  const canvas = document.createElement("canvas");
  canvas.width = 1;
  canvas.height = 1;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(image, 0, 0, image.naturalWidth / 4, image.naturalHeight / 4);
  ctx.getImageData(0, 0, 1, 1);
}

/**
 * Give the images drawn every frame their own bitmaps (full size and three halvings).
 * @param {HTMLImageElement} atlas the pictures' source @param {Blob} bytes its file
 * @param {Map<string, Picture>} images
 */
async function cutFrameImages(atlas, bytes, images) {
  const sheet = await createImageBitmap(bytes);
  await Promise.all([...images.entries()].map(async ([name, p]) => {
    if (!FRAME_GROUPS.test(name) || p.src !== atlas) return;
    const { x, y, w, h } = p;
    const levels = await Promise.all(Array.from({ length: LEVELS }, (_, i) => createImageBitmap(sheet, x, y, w, h,
      { resizeWidth: Math.max(1, Math.round(w / 2 ** i)), resizeHeight: Math.max(1, Math.round(h / 2 ** i)),
        resizeQuality: "high" })));
    if (p.src === atlas) p.levels = levels;
  }));
  sheet.close();
}

/**
 * The bytes of a file.
 * @param {string} url
 * @returns {Promise<Blob>}
 */
async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.blob();
}

/**
 * Fetch the manifest, then start the atlas (or every image): what index.html's first script
 * does early, and side by side, on board pages.
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
  if (manifest.atlas) return { manifest, images, atlas: fetchBytes(base + (manifest.atlas.half ?? manifest.atlas).file) };
  for (const [name, entry] of Object.entries(manifest.images)) {
    images[name] = new Image();
    images[name].src = base + entry.file;
  }
  return { manifest, images, atlas: null };
}

/** @param {Picture} img @returns {Mask} */
function alphaMask(img) {
  const canvas = document.createElement("canvas");
  canvas.width = MASK_SIZE;
  canvas.height = MASK_SIZE;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { willReadFrequently: true }));
  ctx.drawImage(img.src, img.x, img.y, img.w, img.h, 0, 0, MASK_SIZE, MASK_SIZE);
  const data = ctx.getImageData(0, 0, MASK_SIZE, MASK_SIZE).data;
  const bits = new Uint8Array(MASK_SIZE * MASK_SIZE);
  for (let i = 0; i < bits.length; i++) bits[i] = data[i * 4 + 3] > 60 ? 1 : 0;
  return { w: MASK_SIZE, h: MASK_SIZE, bits };
}

/**
 * Whether an opaque pixel of the tile lies above its top face (in the image's top corners).
 * @param {Picture} img @param {Manifest} manifest
 */
function risesAboveFace(img, manifest) {
  const { image_w: w, image_h: h, face_centre: [fx, fy] } = manifest.tile;
  const canvas = document.createElement("canvas");
  canvas.width = w / 4;
  canvas.height = h / 4;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { willReadFrequently: true }));
  ctx.drawImage(img.src, img.x, img.y, img.w, img.h, 0, 0, canvas.width, canvas.height);
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
