// @ts-check
/**
 * A classic (non-module) script, run as soon as it arrives: on board pages it starts fetching
 * the tile manifest and the tile atlas (every image in one file, docs/tiles.md) side by side
 * while the ES modules are still loading. js/assets.js picks the requests up from
 * `window.taktikArt` instead of starting its own. A manifest without an atlas (an older tile
 * set) falls back to one request per image.
 */
(() => {
  /** @param {string} url */
  const fetchAtlas = (url) => {
    const img = new Image();
    img.src = url;
    return img;
  };
  if (location.pathname === "/" || location.pathname.startsWith("/static/")) return;
  const base = "/assets/tiles/";
  const atlas = fetchAtlas(`${base}atlas.png`); // asked for at once, beside the manifest
  /** @type {Window & {taktikArt?: Promise<import("./assets.js").StartedArt>}} */ (window).taktikArt = fetch(`${base}manifest.json`)
    .then((response) => {
      if (!response.ok) throw new Error(`tile manifest: HTTP ${response.status}`);
      return response.json();
    })
    .then((/** @type {import("./types.js").Manifest} */ manifest) => {
      /** @type {Record<string, HTMLImageElement>} */
      const images = {};
      if (manifest.atlas) {
        return { manifest, images, atlas: manifest.atlas.file === "atlas.png" ? atlas : fetchAtlas(base + manifest.atlas.file) };
      }
      atlas.src = ""; // a tile set without an atlas
      for (const [name, entry] of Object.entries(manifest.images)) {
        const img = new Image();
        img.src = base + entry.file;
        images[name] = img;
      }
      return { manifest, images, atlas: null };
    });
})();
