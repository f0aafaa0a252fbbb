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
 *   tap: (x: number, y: number, pointer: string) => void,
 *   hover: (x: number, y: number) => void,
 *   leave: () => void,
 *   resize: (w: number, h: number) => void,
 * }} BoardHandlers
 */

const TAP_SLOP = 7; // CSS px a press may wander and still be a tap

/** @typedef {(e: {clientX: number, clientY: number}) => [number, number]} ToLocal */
/** @typedef {{x: number, y: number, x0: number, y0: number}} Press where a pointer is and where it went down */
/**
 * The pointers pressed on the board now, whether this gesture has moved beyond a tap, and
 * whether a pinch is under way (its starting spread; 0: no pinch).
 * @typedef {{down: Map<number, Press>, moved: boolean, pinch: number}} Gesture
 */

/**
 * Bind the board: pointers (drag, pinch, tap), hover, the wheel and resizes.
 * @param {HTMLElement} el @param {BoardHandlers} on
 * @returns {() => void} unbind
 */
export function bindBoard(el, on) {
  const bounds = trackBounds(el);
  /** @type {Gesture} */
  const gesture = { down: new Map(), moved: false, pinch: 0 };
  const unbinds = [
    bounds.unbind,
    bindGestures(el, bounds.local, gesture, on),
    bindHover(el, bounds.local, gesture, on),
    bindWheel(el, bounds.local, on),
    bindResize(el, bounds.forget, on),
  ];
  return () => {
    for (const unbind of unbinds) unbind();
  };
}

/**
 * Client → element coordinates, with the element's bounds memoized until the page scrolls
 * or resizes (or `forget` is called).
 * @param {HTMLElement} el @returns {{local: ToLocal, forget: () => void, unbind: () => void}}
 */
function trackBounds(el) {
  /** @type {DOMRect|null} */
  let bounds = null;
  /** @type {ToLocal} */
  const local = (e) => {
    bounds ??= el.getBoundingClientRect();
    return [e.clientX - bounds.left, e.clientY - bounds.top];
  };
  const forget = () => {
    bounds = null;
  };
  window.addEventListener("scroll", forget, true);
  window.addEventListener("resize", forget);
  return {
    local,
    forget,
    unbind: () => {
      window.removeEventListener("scroll", forget, true);
      window.removeEventListener("resize", forget);
    },
  };
}

/**
 * Pressed pointers: one drags to pan (past TAP_SLOP) or else taps when released, two pinch
 * to zoom and pan together.
 * @param {HTMLElement} el @param {ToLocal} local @param {Gesture} gesture @param {BoardHandlers} on
 * @returns {() => void} unbind
 */
function bindGestures(el, local, gesture, on) {
  const { down } = gesture;
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
    if (down.size === 1) gesture.moved = false;
    if (down.size === 2) {
      gesture.moved = true;
      gesture.pinch = spread(down).d;
    }
  };
  /** @param {PointerEvent} e */
  const onMove = (e) => {
    const p = down.get(e.pointerId);
    if (!p) return;
    const [x, y] = local(e);
    if (down.size >= 2) pinchTo(gesture, p, x, y, on);
    else dragTo(gesture, p, x, y, on);
  };
  /** @param {PointerEvent} e */
  const onUp = (e) => {
    const p = down.get(e.pointerId);
    if (!p) return;
    down.delete(e.pointerId);
    if (down.size === 0 && !gesture.moved) on.tap(p.x, p.y, e.pointerType);
    if (down.size < 2) gesture.pinch = 0;
  };
  /** @param {PointerEvent} e */
  const onCancel = (e) => {
    down.delete(e.pointerId);
    gesture.moved = true;
  };
  el.addEventListener("pointerdown", onDown);
  el.addEventListener("pointermove", onMove);
  el.addEventListener("pointerup", onUp);
  el.addEventListener("pointercancel", onCancel);
  return () => {
    el.removeEventListener("pointerdown", onDown);
    el.removeEventListener("pointermove", onMove);
    el.removeEventListener("pointerup", onUp);
    el.removeEventListener("pointercancel", onCancel);
  };
}

/** The distance between the two pressed pointers and their midpoint. @param {Map<number, Press>} down */
function spread(down) {
  const [a, b] = [...down.values()];
  return { d: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
}

/**
 * One of two pinching pointers moved to (x, y): zoom by the change of their spread, pan by
 * the move of their midpoint.
 * @param {Gesture} gesture @param {Press} p @param {number} x @param {number} y @param {BoardHandlers} on
 */
function pinchTo(gesture, p, x, y, on) {
  const before = spread(gesture.down);
  p.x = x;
  p.y = y;
  const after = spread(gesture.down);
  if (gesture.pinch > 0 && after.d > 0) on.zoom(after.d / before.d, after.mx, after.my);
  on.pan(after.mx - before.mx, after.my - before.my);
}

/**
 * The one pressed pointer moved to (x, y): once it has wandered past TAP_SLOP the press is a
 * drag, and the board follows it from where it went down.
 * @param {Gesture} gesture @param {Press} p @param {number} x @param {number} y @param {BoardHandlers} on
 */
function dragTo(gesture, p, x, y, on) {
  const dx = x - p.x;
  const dy = y - p.y;
  p.x = x;
  p.y = y;
  if (!gesture.moved && Math.hypot(x - p.x0, y - p.y0) > TAP_SLOP) {
    gesture.moved = true;
    on.pan(x - p.x0, y - p.y0);
    return;
  }
  if (gesture.moved) on.pan(dx, dy);
}

/**
 * A mouse moving with no button pressed hovers; leaving the board ends the hover unless a
 * drag is under way.
 * @param {HTMLElement} el @param {ToLocal} local @param {Gesture} gesture @param {BoardHandlers} on
 * @returns {() => void} unbind
 */
function bindHover(el, local, gesture, on) {
  /** @param {PointerEvent} e */
  const onMove = (e) => {
    if (e.pointerType !== "mouse" || gesture.down.has(e.pointerId)) return;
    const [x, y] = local(e);
    on.hover(x, y);
  };
  /** @param {PointerEvent} e */
  const onLeave = (e) => {
    // A lifted finger "leaves" too: a touch keeps what it pointed at (its tip, its preview).
    if (e.pointerType === "mouse" && !gesture.down.size) on.leave();
  };
  el.addEventListener("pointermove", onMove);
  el.addEventListener("pointerleave", onLeave);
  return () => {
    el.removeEventListener("pointermove", onMove);
    el.removeEventListener("pointerleave", onLeave);
  };
}

/**
 * The wheel zooms at the pointer; ctrl+wheel is how a trackpad pinch arrives, so it zooms faster.
 * @param {HTMLElement} el @param {ToLocal} local @param {BoardHandlers} on
 * @returns {() => void} unbind
 */
function bindWheel(el, local, on) {
  /** @param {WheelEvent} e */
  const onWheel = (e) => {
    e.preventDefault();
    const [x, y] = local(e);
    const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const speed = e.ctrlKey ? 0.01 : 0.0016;
    on.zoom(Math.exp(-e.deltaY * lines * speed), x, y);
  };
  el.addEventListener("wheel", onWheel, { passive: false });
  return () => el.removeEventListener("wheel", onWheel);
}

/**
 * Report the element's new size (and drop the memoized bounds) whenever it changes.
 * @param {HTMLElement} el @param {() => void} forget @param {BoardHandlers} on
 * @returns {() => void} unbind
 */
function bindResize(el, forget, on) {
  const observer = new ResizeObserver(() => {
    forget();
    on.resize(el.clientWidth, el.clientHeight);
  });
  observer.observe(el);
  return () => observer.disconnect();
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
