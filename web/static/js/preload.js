// @ts-check
/**
 * A classic (non-module) script, run as soon as it arrives: on board pages it starts fetching
 * the tile manifest and every image while the ES modules are still loading. js/assets.js
 * picks the requests up from `window.taktikArt` instead of starting its own.
 */
(() => {
  if (location.pathname === "/" || location.pathname.startsWith("/static/")) return;
  const base = "/assets/tiles/";
  /** @type {Window & {taktikArt?: Promise<import("./assets.js").StartedArt>}} */ (window).taktikArt = fetch(`${base}manifest.json`)
    .then((response) => {
      if (!response.ok) throw new Error(`tile manifest: HTTP ${response.status}`);
      return response.json();
    })
    .then((/** @type {import("./types.js").Manifest} */ manifest) => {
      /** @type {Record<string, HTMLImageElement>} */
      const images = {};
      for (const [name, entry] of Object.entries(manifest.images)) {
        const img = new Image();
        img.src = base + entry.file;
        images[name] = img;
      }
      return { manifest, images };
    });
})();
