// @ts-check
/**
 * DOM input → intents. Pointer drags pan, a two-finger pinch zooms and pans, the wheel zooms
 * at the pointer, a press without movement is a tap, hovering reports the point, keys are
 * shortcuts, and the element's size is watched. Every binder returns its `unbind`.
 * Coordinates are CSS pixels relative to the element (bounds memoized, cleared on resize/scroll).
 */

/**
 * @typedef {{
 *   pan: (dx: number, dy: number) => void,
 *   zoom: (factor: number, x: number, y: number) => void,
 *   tap: (x: number, y: number) => void,
 *   hover: (x: number, y: number) => void,
 *   leave: () => void,
 *   resize: (w: number, h: number) => void,
 * }} BoardHandlers
 */

const TAP_SLOP = 7; // CSS px a press may wander and still be a tap

/**
 * @param {HTMLElement} el @param {BoardHandlers} on
 * @returns {() => void} unbind
 */
export function bindBoard(el, on) {
  /** @type {DOMRect|null} */
  let bounds = null;
  const local = (/** @type {{clientX: number, clientY: number}} */ e) => {
    bounds ??= el.getBoundingClientRect();
    return [e.clientX - bounds.left, e.clientY - bounds.top];
  };
  /** @type {Map<number, {x: number, y: number, x0: number, y0: number}>} */
  const down = new Map();
  let moved = false;
  let pinch = 0;

  const spread = () => {
    const [a, b] = [...down.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  };

  /** @param {PointerEvent} e */
  const onDown = (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    try {
      el.setPointerCapture(e.pointerId); // keep the drag when the pointer leaves the canvas
    } catch {
      // not an active pointer (synthetic events): dragging still works inside the canvas
    }
    const [x, y] = local(e);
    down.set(e.pointerId, { x, y, x0: x, y0: y });
    if (down.size === 1) moved = false;
    if (down.size === 2) {
      moved = true;
      pinch = spread().d;
    }
  };
  /** @param {PointerEvent} e */
  const onMove = (e) => {
    const [x, y] = local(e);
    const p = down.get(e.pointerId);
    if (!p) {
      if (e.pointerType === "mouse") on.hover(x, y);
      return;
    }
    if (down.size >= 2) {
      const before = spread();
      p.x = x;
      p.y = y;
      const after = spread();
      if (pinch > 0 && after.d > 0) on.zoom(after.d / before.d, after.mx, after.my);
      on.pan(after.mx - before.mx, after.my - before.my);
      return;
    }
    const dx = x - p.x;
    const dy = y - p.y;
    p.x = x;
    p.y = y;
    if (!moved && Math.hypot(x - p.x0, y - p.y0) > TAP_SLOP) {
      moved = true;
      on.pan(x - p.x0, y - p.y0);
      return;
    }
    if (moved) on.pan(dx, dy);
  };
  /** @param {PointerEvent} e */
  const onUp = (e) => {
    const p = down.get(e.pointerId);
    if (!p) return;
    down.delete(e.pointerId);
    if (down.size === 0 && !moved) on.tap(p.x, p.y);
    if (down.size < 2) pinch = 0;
  };
  /** @param {PointerEvent} e */
  const onCancel = (e) => {
    down.delete(e.pointerId);
    moved = true;
  };
  /** @param {WheelEvent} e */
  const onWheel = (e) => {
    e.preventDefault();
    const [x, y] = local(e);
    const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const speed = e.ctrlKey ? 0.01 : 0.0016; // ctrl+wheel is a trackpad pinch
    on.zoom(Math.exp(-e.deltaY * lines * speed), x, y);
  };
  const onLeave = () => {
    if (!down.size) on.leave();
  };
  const forget = () => {
    bounds = null;
  };
  const observer = new ResizeObserver(() => {
    bounds = null;
    on.resize(el.clientWidth, el.clientHeight);
  });
  observer.observe(el);
  el.addEventListener("pointerdown", onDown);
  el.addEventListener("pointermove", onMove);
  el.addEventListener("pointerup", onUp);
  el.addEventListener("pointercancel", onCancel);
  el.addEventListener("pointerleave", onLeave);
  el.addEventListener("wheel", onWheel, { passive: false });
  window.addEventListener("scroll", forget, true);
  window.addEventListener("resize", forget);
  return () => {
    observer.disconnect();
    el.removeEventListener("pointerdown", onDown);
    el.removeEventListener("pointermove", onMove);
    el.removeEventListener("pointerup", onUp);
    el.removeEventListener("pointercancel", onCancel);
    el.removeEventListener("pointerleave", onLeave);
    el.removeEventListener("wheel", onWheel);
    window.removeEventListener("scroll", forget, true);
    window.removeEventListener("resize", forget);
  };
}

/**
 * Keyboard shortcuts, ignored while typing in a form field or with a modifier held.
 * @param {(key: string, e: KeyboardEvent) => void} onKey
 * @returns {() => void} unbind
 */
export function bindKeys(onKey) {
  /** @param {KeyboardEvent} e */
  const handler = (e) => {
    const target = /** @type {HTMLElement|null} */ (e.target);
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (target && target.tagName === "BUTTON" && (e.key === "Enter" || e.key === " ")) return;
    onKey(e.key.length === 1 ? e.key.toLowerCase() : e.key, e);
  };
  window.addEventListener("keydown", handler);
  return () => window.removeEventListener("keydown", handler);
}
