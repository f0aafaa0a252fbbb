// @ts-check
/**
 * `window.taktik`: read-only hooks for browser tests and the client benchmark. They expose
 * the projection and the model the page already shows, never a seat token.
 */

import { resultWordAlpha } from "./pieces.js";

/** @typedef {import("./screen.js").Screen} Screen */
/** @typedef {import("./types.js").Model} Model */

/**
 * @param {{screen: Screen, model: () => Model, words: (entry: import("./types.js").LogEntry) => string, drop?: () => void,
 *   extra?: Record<string, unknown>}} page `words`: a log line as the page shows it
 */
export function exposeHooks(page) {
  const { screen } = page;
  const hooks = {
    /** @param {string} cell client coordinates of a cell's top-face centre */
    cellToClient: (cell) => screen.cellToClient(cell),
    /** @param {string} unit client coordinates of a unit (the centre of its cell's face) */
    unitToClient: (unit) => {
      const cell = page.model().view?.units.find((u) => u.id === unit)?.cell;
      return cell ? screen.cellToClient(cell) : null;
    },
    state: () => {
      const m = page.model();
      return {
        version: m.version, status: m.status, seat: m.seat, toAct: m.toAct, phase: m.view?.phase ?? null,
        turn: m.view?.turn ?? 0, legal: m.legal.map((a) => a.type), busy: m.busy, conn: m.conn,
        selected: m.sel.unit, aiming: screen.ctl?.aiming?.key ?? null, notice: m.notice?.text ?? null,
        log: m.log.map(page.words),
      };
    },
    /** @param {string} cell centre the view on a cell */
    reveal: (cell) => screen.reveal(cell),
    legal: () => page.model().legal,
    units: () => page.model().view?.units ?? [],
    firstPaint: () => screen.firstPaint,
    frames: () => screen.renderer.frames,
    paintTimes: () => screen.paintTimes.slice(),
    camera: () => ({ ...screen.camera }),
    /** @param {boolean} on */
    setAnimations: (on) => screen.anim.setEnabled(on),
    /** the unit tags of the last frame, in CSS px of the canvas */
    tags: () => screen.renderer.tagBoxes.map((b) => ({ ...b })),
    /** the choice under the pointer or focus on the panel's buttons (a quarter of the board), or null */
    pointed: () => screen.pointed,
    /** how visible the last attack's HIT / MISS word is now (0: gone) */
    resultWord: () => resultWordAlpha(page.model(), performance.now()),
    drop: () => page.drop?.(),
    ...(page.extra ?? {}),
  };
  Object.assign(window, { taktik: hooks });
}
