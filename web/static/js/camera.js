// @ts-check
/**
 * Pan and zoom as a small value: `{cx, cy, zoom}` is the world point shown at the centre of
 * the viewport and the CSS pixels per world unit. Every function returns a new camera.
 * Pure: the viewport size is passed in.
 */

/** @typedef {import("./types.js").Camera} Camera */
/** @typedef {{x: number, y: number, w: number, h: number}} Rect */

export const MAX_ZOOM = 3;

/**
 * CSS pixel of a world point.
 * @param {Camera} cam @param {number} vw @param {number} vh @param {number} wx @param {number} wy
 * @returns {[number, number]}
 */
export function worldToView(cam, vw, vh, wx, wy) {
  return [(wx - cam.cx) * cam.zoom + vw / 2, (wy - cam.cy) * cam.zoom + vh / 2];
}

/**
 * World point under a CSS pixel.
 * @param {Camera} cam @param {number} vw @param {number} vh @param {number} px @param {number} py
 * @returns {[number, number]}
 */
export function viewToWorld(cam, vw, vh, px, py) {
  return [(px - vw / 2) / cam.zoom + cam.cx, (py - vh / 2) / cam.zoom + cam.cy];
}

/**
 * The world rectangle the viewport shows.
 * @param {Camera} cam @param {number} vw @param {number} vh
 * @returns {Rect}
 */
export function visibleRect(cam, vw, vh) {
  return { x: cam.cx - vw / 2 / cam.zoom, y: cam.cy - vh / 2 / cam.zoom, w: vw / cam.zoom, h: vh / cam.zoom };
}

/**
 * The camera that shows all of `bounds` in the viewport, with a margin.
 * @param {Rect} bounds @param {number} vw @param {number} vh @param {number} [margin]
 * @returns {Camera}
 */
export function fit(bounds, vw, vh, margin = 16) {
  const zoom = Math.min((vw - 2 * margin) / bounds.w, (vh - 2 * margin) / bounds.h);
  return { cx: bounds.x + bounds.w / 2, cy: bounds.y + bounds.h / 2, zoom: Math.max(0.05, Math.min(MAX_ZOOM, zoom)) };
}

/**
 * The smallest zoom worth allowing: half of what fits the board.
 * @param {Rect} bounds @param {number} vw @param {number} vh
 */
export function minZoom(bounds, vw, vh) {
  return Math.min(0.5, fit(bounds, vw, vh).zoom * 0.5);
}

/**
 * Keep the centre over the board so it can never be lost off-screen.
 * @param {Camera} cam @param {Rect} bounds
 * @returns {Camera}
 */
export function clamp(cam, bounds) {
  return {
    cx: Math.min(bounds.x + bounds.w, Math.max(bounds.x, cam.cx)),
    cy: Math.min(bounds.y + bounds.h, Math.max(bounds.y, cam.cy)),
    zoom: cam.zoom,
  };
}

/**
 * Move the view by a drag of (dx, dy) CSS pixels.
 * @param {Camera} cam @param {number} dx @param {number} dy
 * @returns {Camera}
 */
export function panBy(cam, dx, dy) {
  return { cx: cam.cx - dx / cam.zoom, cy: cam.cy - dy / cam.zoom, zoom: cam.zoom };
}

/**
 * Zoom by `factor` keeping the world point under CSS pixel (px, py) where it is.
 * @param {Camera} cam @param {number} factor @param {number} px @param {number} py
 * @param {number} vw @param {number} vh @param {number} lo smallest zoom
 * @returns {Camera}
 */
export function zoomAt(cam, factor, px, py, vw, vh, lo) {
  const zoom = Math.max(lo, Math.min(MAX_ZOOM, cam.zoom * factor));
  const [wx, wy] = viewToWorld(cam, vw, vh, px, py);
  return { cx: wx - (px - vw / 2) / zoom, cy: wy - (py - vh / 2) / zoom, zoom };
}

/**
 * A camera part of the way from `a` to `b` (0 ≤ t ≤ 1), for gliding to a spot.
 * @param {Camera} a @param {Camera} b @param {number} t
 * @returns {Camera}
 */
export function lerp(a, b, t) {
  return { cx: a.cx + (b.cx - a.cx) * t, cy: a.cy + (b.cy - a.cy) * t, zoom: a.zoom + (b.zoom - a.zoom) * t };
}
