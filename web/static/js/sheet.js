// @ts-check
/**
 * The decision panel as a phone's bottom sheet: it collapses to one line while the player
 * aims at the board (a unit selected, a card or a pick being aimed), so every highlighted
 * target stays tappable, and opens again when the aim is done. The handle overrides the
 * automatic choice until the aim state changes. Wider screens dock the panel beside the
 * board and ignore the collapse (css/app.css).
 */

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./controls.js").Controls} Controls */

export class Sheet {
  constructor() {
    /** @type {boolean|null} the player's choice with the handle, until the aim state changes */
    this.override = null;
    this.aimed = false;
  }

  /**
   * Whether the player is aiming at the board now: a unit selected, or a card aimed at targets on
   * the board (a choice made with buttons only, such as a quarter, keeps the sheet open).
   * @param {Model} model @param {Controls|null} ctl
   */
  aiming(model, ctl) {
    const onBoard = !!ctl?.aiming && [...ctl.cellMarks.values()].includes("target");
    return !!ctl && (onBoard || !!model.sel.unit) && !model.busy;
  }

  /** Whether the sheet is collapsed for this model. @param {Model} model @param {Controls|null} ctl */
  collapsed(model, ctl) {
    const aiming = this.aiming(model, ctl);
    if (aiming !== this.aimed) {
      this.aimed = aiming;
      this.override = null;
    }
    return this.override ?? aiming;
  }

  /** The handle was pressed. @param {boolean} collapsedNow */
  toggle(collapsedNow) {
    this.override = !collapsedNow;
  }
}
