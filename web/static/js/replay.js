// @ts-check
/**
 * The replay viewer: any finished match (by id) or a record file, step by step with the
 * board, HUD and log as they were. The server replays the record (POST /api/replays) and
 * returns the view at every step, the events in words and its verification of the stored
 * hashes; this page scrubs, plays, forks a hot-seat match at the shown step ("continue from
 * here") and checks the revealed seed against the commitment in the browser.
 *
 * This module wires the parts together and does what takes time (requests, the play timer):
 * the view model is js/replaystate.js, the bar js/replaybar.js.
 */

import { playPath, rememberSeats, request } from "./api.js";
import { hideEvalGraph, markEvalGraph, mountEvalGraph, renderEvalGraph } from "./evalgraph.js";
import { esc } from "./labels.js";
import { bindBar, mountBar, renderDice, renderNotice, renderPlaying, renderStep, renderVerification } from "./replaybar.js";
import {
  atEnd, atStep, canVerifyDice, initialReplay, modelAt, modelFor, pagesToLoad, readRecordFile, stepDelay, targetStep,
  withPage, withPerspective, withPlaying, withRecord, withSpeed,
} from "./replaystate.js";
import { Screen } from "./screen.js";
import { select, setHover } from "./state.js";
import { verifyCommitment } from "./verify.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./api.js").ReplayPage} ReplayPage */
/** @typedef {import("./api.js").RecordView} RecordView */
/** @typedef {import("./api.js").MatchCreated} MatchCreated */

/** The viewer's keys: where to go, or play/pause. @type {Map<string, import("./replaystate.js").Go|"play">} */
const KEYS = new Map([["ArrowLeft", "prev"], ["ArrowRight", "next"], ["Home", "first"], ["End", "last"], [" ", "play"]]);

/**
 * @param {HTMLElement} root @param {import("./assets.js").Assets} assets
 * @param {{cards: Map<string, import("./types.js").CardInfo>, fullHp: Record<string, {hp: number, vp: number}>}} catalog
 * @param {string} id a match id, or "file"
 * @param {RecordView|import("./api.js").GameRecord} [fileData] the parsed record file
 */
export function startReplay(root, assets, catalog, id, fileData) {
  let replay = initialReplay(id);
  /** @type {Model} */
  let model = modelAt(replay, -1); // before the first step: an empty board
  /** @type {ReturnType<typeof setInterval>|null} */
  let timer = null;

  const screen = new Screen(root, assets, catalog.cards, catalog.fullHp, {
    onTap: (hit) => show(select(model, hit.unit && hit.unit !== model.sel.unit ? hit.unit : null)),
    onHover: (cell) => show(setHover(model, cell)),
    onRun: () => {},
    onCancel: () => show(select(model, null)),
    onKey: (key) => {
      const to = KEYS.get(key);
      if (to === undefined) return false;
      if (to === "play") togglePlay();
      else go(to);
      return true;
    },
  });
  screen.root.classList.add("replay-mode");
  const bar = mountBar(screen.extra);
  const graph = mountEvalGraph(bar.more);

  /** @param {Model} next */
  function show(next) {
    model = next;
    screen.show(model, null);
  }

  /** @param {import("./replaystate.js").Go} to */
  async function go(to) {
    const target = targetStep(replay, to);
    for (const start of pagesToLoad(replay, target)) {
      const page = await fetchPage(start); // read `replay` only after the wait: another step may have moved it
      replay = withPage(replay, page);
    }
    const before = model;
    const next = modelFor(replay, before, target);
    replay = atStep(replay, target);
    show({ ...next, hover: before.hover });
    if (target === before.version + 1) screen.animate(next.fresh, before.view?.units ?? []);
    renderStep(bar, replay, catalog.cards);
    markEvalGraph(graph, target);
    if (atEnd(replay)) stop();
  }

  /** @param {number} start @returns {Promise<ReplayPage>} */
  function fetchPage(start) {
    return request("/api/replays", { record: replay.record, view: replay.perspective, start, count: replay.pageSize });
  }

  /** The first page, which also tells how many steps there are and whether the hashes match. */
  async function loadFirstPage() {
    const page = await fetchPage(0);
    replay = withPage(replay, page);
    renderVerification(bar, replay);
  }

  async function open() {
    try {
      if (id === "file") {
        if (!fileData) throw new Error("open a record file from the lobby");
        const { revealed, record } = readRecordFile(fileData);
        replay = withRecord(replay, revealed, record);
      } else {
        /** @type {RecordView} */
        const revealed = await request(`/api/matches/${encodeURIComponent(id)}/record`);
        if (revealed.status !== "over") {
          renderNotice(bar, `This match is still being played: its record stays secret until the end. <a href="/watch/${encodeURIComponent(id)}">Watch it live</a>.`);
          return;
        }
        replay = withRecord(replay, revealed, revealed.record);
      }
      bar.verifyDice.hidden = !canVerifyDice(replay);
      await loadFirstPage();
      await go(Number(/^#step=(\d+)$/.exec(location.hash)?.[1] ?? 0)); // the end screen links to a turn's first step
      loadEvaluation();
    } catch (err) {
      renderNotice(bar, `<span class="error">${esc(/** @type {Error} */ (err).message)}</span>`);
    }
  }

  /** The bot's win estimate over the game (the graph stays hidden when the server has no bot to judge). */
  async function loadEvaluation() {
    try {
      const evaluation = await request("/api/replays/evaluation", { record: replay.record });
      renderEvalGraph(graph, evaluation, replay.total - 1, (step) => go(step));
      markEvalGraph(graph, replay.index);
    } catch (err) {
      hideEvalGraph(graph, /** @type {Error} */ (err).message);
    }
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    replay = withPlaying(replay, false);
    renderPlaying(bar, false);
  }

  function togglePlay() {
    if (timer) return stop();
    if (atEnd(replay)) go(0);
    replay = withPlaying(replay, true);
    renderPlaying(bar, true);
    timer = setInterval(() => go("next"), stepDelay(replay));
  }

  async function fork() {
    stop();
    try {
      /** @type {MatchCreated} */
      const created = id === "file"
        ? await request("/api/matches", { from_record: replay.record, step: replay.index, hotseat: true })
        : await request(`/api/matches/${encodeURIComponent(id)}/fork`, { step: replay.index, hotseat: true });
      const tokens = created.seats.map((s) => s.token);
      rememberSeats(created.match_id, tokens);
      location.assign(playPath(created.match_id, tokens));
    } catch (err) {
      renderNotice(bar, `<span class="error">Could not continue from here: ${esc(/** @type {Error} */ (err).message)}</span>`);
    }
  }

  bindBar(bar, {
    go,
    togglePlay,
    speed: (speed) => {
      replay = withSpeed(replay, speed);
      if (timer) {
        stop();
        togglePlay();
      }
    },
    perspective: async (perspective) => {
      const at = replay.index;
      replay = withPerspective(replay, perspective);
      await loadFirstPage();
      await go(at);
    },
    fork,
    // The button shows only when canVerifyDice, so the revealed seed is there.
    verifyDice: async () => renderDice(bar, await verifyCommitment(/** @type {RecordView} */ (replay.revealed))),
  });
  open();

  return {
    screen,
    model: () => model,
    extra: { replay: { go: (/** @type {number} */ i) => go(i), index: () => replay.index, total: () => replay.total } },
  };
}
