// @ts-check
/**
 * The replay viewer: any finished match (by id) or a record file, step by step with the
 * board, HUD and log as they were. The server replays the record (POST /api/replays) and
 * returns the view at every step, the events in words and its verification of the stored
 * hashes; this page scrubs, plays, forks a hot-seat match at the shown step ("continue from
 * here") and checks the revealed seed against the commitment in the browser.
 */

import { playPath, rememberSeats, request } from "./api.js";
import { esc, genericLabel, sideName } from "./labels.js";
import { Screen } from "./screen.js";
import { applyState, initialModel, select, setConn, setHover } from "./state.js";
import { verifyCommitment } from "./verify.js";

/** @typedef {import("./types.js").Model} Model */

const PAGE_SIZE = 500;
const SPEEDS = [1400, 700, 300, 120];

const BAR = `
<div class="replaybar">
  <button type="button" class="btn" data-go="first" title="First step (Home)" aria-label="First step">«</button>
  <button type="button" class="btn" data-go="prev" title="Previous step (←)" aria-label="Previous step">‹</button>
  <button type="button" class="btn primary" data-go="play" title="Play / pause (space)">Play</button>
  <button type="button" class="btn" data-go="next" title="Next step (→)" aria-label="Next step">›</button>
  <button type="button" class="btn" data-go="last" title="Last step (End)" aria-label="Last step">»</button>
  <input type="range" min="0" max="0" value="0" aria-label="Step">
  <select name="speed" title="Speed"><option value="0">slow</option><option value="1" selected>normal</option><option value="2">fast</option><option value="3">fastest</option></select>
  <select name="view" title="Whose cards to show"><option value="spectator">Spectator view</option><option value="full">All cards</option><option value="ATTACKER">Attacker's eyes</option><option value="DEFENDER">Defender's eyes</option></select>
  <button type="button" class="btn" data-go="fork" title="Start a new hot-seat match from this position">Continue from here</button>
  <button type="button" class="btn" data-go="verify" hidden>Verify dice</button>
  <span class="verify"></span>
  <div class="stepinfo"></div>
</div>`;

/**
 * @param {HTMLElement} root @param {import("./assets.js").Assets} assets
 * @param {{cards: Map<string, import("./types.js").CardInfo>, fullHp: Record<string, {hp: number}>}} catalog
 * @param {string} id a match id, or "file" @param {any} [fileData] the parsed record file
 */
export function startReplay(root, assets, catalog, id, fileData) {
  /** @type {Model} */
  let model = setConn(initialModel("replay", id), "replay");
  /** @type {any[]} */
  let steps = [];
  let total = 0;
  /** @type {import("./types.js").LegendEntry[]} */
  let legend = [];
  let index = 0;
  let perspective = "spectator";
  /** @type {any} */
  let revealed = null;
  /** @type {any} */
  let record = null;
  /** @type {ReturnType<typeof setInterval>|null} */
  let timer = null;
  const fromFile = id === "file";

  const screen = new Screen(root, assets, catalog.cards, catalog.fullHp, {
    onTap: (hit) => show(select(model, hit.unit && hit.unit !== model.sel.unit ? hit.unit : null)),
    onHover: (cell) => show(setHover(model, cell)),
    onRun: () => {},
    onCancel: () => show(select(model, null)),
    onKey: (key) => {
      if (key === "ArrowLeft") go(index - 1);
      else if (key === "ArrowRight") go(index + 1);
      else if (key === "Home") go(0);
      else if (key === "End") go(total - 1);
      else if (key === " ") togglePlay();
      else return false;
      return true;
    },
  });
  screen.root.classList.add("replay-mode");
  screen.extra.innerHTML = BAR;
  const bar = /** @type {HTMLElement} */ (screen.extra.querySelector(".replaybar"));
  const slider = /** @type {HTMLInputElement} */ (bar.querySelector("input[type=range]"));
  const info = /** @type {HTMLElement} */ (bar.querySelector(".stepinfo"));
  const verifyOut = /** @type {HTMLElement} */ (bar.querySelector(".verify"));
  const field = (/** @type {string} */ name) => /** @type {HTMLSelectElement} */ (bar.querySelector(`[name=${name}]`));

  /** @param {Model} next */
  function show(next) {
    model = next;
    screen.show(model, null);
  }

  /** The model at step i, folded from the start so the log and traces are as they were. @param {number} i */
  function modelAt(i) {
    let m = setConn(initialModel("replay", id), "replay");
    for (let k = 0; k <= i && steps[k]; k++) m = applyState(m, stateMsg(k), 0);
    return m;
  }

  /** @param {number} k */
  function stateMsg(k) {
    const s = steps[k];
    const over = s.state.phase === "VICTORY";
    return { type: "state", match_id: id, version: k, status: over ? "over" : "live", seat: null, to_act: s.to_act,
      legal_actions: [], last_seq: 0, view: s.state, events: s.events, decision: s.decision, legend, broken_reason: null };
  }

  /** @param {number} i */
  async function go(i) {
    const target = Math.max(0, Math.min(total - 1, i));
    if (!steps[target]) await loadUpTo(target);
    const before = model;
    const next = target === index + 1 && before.version === index ? applyState(before, stateMsg(target), 0) : modelAt(target);
    index = target;
    show({ ...next, hover: before.hover });
    if (target === before.version + 1) screen.animate(next.fresh, before.view?.units ?? []);
    slider.value = String(index);
    describe();
    if (index >= total - 1) stop();
  }

  function describe() {
    const s = steps[index];
    const prev = steps[index - 1];
    const who = prev ? sideName(prev.to_act) : "";
    const what = s?.action ? `${who}: ${genericLabel(s.action)}` : "Starting position";
    const texts = (s?.events ?? []).filter((/** @type {any} */ e) => e.event.kind !== "phase_entered").map((/** @type {any} */ e) => e.text);
    info.innerHTML = `<b>Step ${index} of ${Math.max(0, total - 1)}</b> · ${esc(what)}${texts.length ? ` — ${esc(texts.slice(0, 3).join("; "))}` : ""}`;
    /** @type {HTMLButtonElement} */ (bar.querySelector("[data-go=fork]")).disabled = !record || steps[index]?.state.phase === "VICTORY";
  }

  /** @param {number} start */
  async function fetchPage(start) {
    return request("/api/replays", { record, view: perspective, start, count: PAGE_SIZE });
  }

  /** @param {number} i */
  async function loadUpTo(i) {
    for (let start = 0; start <= i; start += PAGE_SIZE) {
      if (steps[start] && steps[Math.min(total - 1, start + PAGE_SIZE - 1)]) continue;
      const page = await fetchPage(start);
      for (const s of page.steps) steps[s.step] = s;
    }
  }

  async function load() {
    const page = await fetchPage(0);
    total = page.total;
    legend = page.legend;
    steps = [];
    for (const s of page.steps) steps[s.step] = s;
    slider.max = String(total - 1);
    const v = page.verification;
    const verdict = v.status === "verified" ? `<span class="ok">✓ replay verified</span> (${v.actions} actions, every state hash matches)`
      : v.status === "unverified" ? `<span class="muted">replays, but the record has no hashes to check</span>`
      : `<span class="bad">✗ ${esc(v.error)}</span>`;
    verifyOut.innerHTML = verdict;
    verifyOut.dataset.status = v.status;
  }

  async function open() {
    try {
      if (fromFile) {
        if (!fileData) throw new Error("open a record file from the lobby");
        revealed = fileData.record ? fileData : null;
        record = fileData.record ?? fileData;
      } else {
        revealed = await request(`/api/matches/${encodeURIComponent(id)}/record`);
        if (revealed.status !== "over") {
          info.innerHTML = `This match is still being played: its record stays secret until the end. <a href="/watch/${encodeURIComponent(id)}">Watch it live</a>.`;
          return;
        }
        record = revealed.record;
      }
      /** @type {HTMLElement} */ (bar.querySelector("[data-go=verify]")).hidden = !(revealed && revealed.seed !== null && revealed.salt);
      await load();
      await go(0);
    } catch (err) {
      info.innerHTML = `<span class="error">${esc(/** @type {Error} */ (err).message)}</span>`;
    }
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    /** @type {HTMLElement} */ (bar.querySelector("[data-go=play]")).textContent = "Play";
  }

  function togglePlay() {
    if (timer) return stop();
    if (index >= total - 1) go(0);
    /** @type {HTMLElement} */ (bar.querySelector("[data-go=play]")).textContent = "Pause";
    timer = setInterval(() => go(index + 1), SPEEDS[Number(field("speed").value)] ?? 700);
  }

  async function fork() {
    stop();
    try {
      const created = fromFile
        ? await request("/api/matches", { from_record: record, step: index, hotseat: true })
        : await request(`/api/matches/${encodeURIComponent(id)}/fork`, { step: index, hotseat: true });
      const tokens = created.seats.map((/** @type {any} */ s) => s.token);
      rememberSeats(created.match_id, tokens);
      location.assign(playPath(created.match_id, tokens));
    } catch (err) {
      info.innerHTML = `<span class="error">Could not continue from here: ${esc(/** @type {Error} */ (err).message)}</span>`;
    }
  }

  async function verifyDice() {
    const result = await verifyCommitment(revealed);
    const out = `<span class="${result.ok ? "ok" : "bad"}">${result.ok ? "✓ dice verified" : "✗ dice NOT verified"}</span>: ${esc(result.reason)}`;
    verifyOut.innerHTML = `${verifyOut.innerHTML} · ${out}`;
    verifyOut.dataset.dice = result.ok ? "ok" : "bad";
  }

  bar.addEventListener("click", (e) => {
    const what = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (e.target).closest("[data-go]"))?.dataset.go;
    if (what === "first") go(0);
    else if (what === "prev") go(index - 1);
    else if (what === "next") go(index + 1);
    else if (what === "last") go(total - 1);
    else if (what === "play") togglePlay();
    else if (what === "fork") fork();
    else if (what === "verify") verifyDice();
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  field("speed").addEventListener("change", () => {
    if (timer) {
      stop();
      togglePlay();
    }
  });
  field("view").addEventListener("change", async () => {
    perspective = field("view").value;
    const at = index;
    await load();
    index = -1;
    await go(at);
  });
  open();

  return {
    screen,
    model: () => model,
    extra: { replay: { go: (/** @type {number} */ i) => go(i), index: () => index, total: () => total } },
  };
}
