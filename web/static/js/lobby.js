// @ts-check
/**
 * The lobby: start a match (against a person, the bot, or hot-seat on this device, with a
 * clock and an optional seed, board size and round limit), share its links, list it as an
 * open challenge, join someone else's, resume or watch recent matches, and open a record
 * file in the replay viewer.
 */

import { playPath, rememberSeats, request, storedSeats } from "./api.js";
import { showBotSeat } from "./botseat.js";
import { CLOCK_FIELDS, chosenClock, joinChallenge, listChallenges, wantsOpenChallenge } from "./challenges.js";
import { describeClock } from "./clock.js";
import { ago, esc, sideName } from "./labels.js";
import { eventText, phaseName } from "./words.js";

/** @typedef {import("./api.js").MatchCreated} MatchCreated */
/** @typedef {import("./api.js").MatchSummary} MatchSummary */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./iso.js").Grid} Grid */

const CHALLENGE_REFRESH_MS = 10000;

const PAGE = `
<div class="lobby">
  <header><h1>Taktik</h1><span class="muted">Two-player tactics with cards and dice</span></header>
  <div class="invite box" hidden></div>
  <canvas class="showcase" aria-hidden="true"></canvas>
  <div class="grid">
    <section class="box">
      <h2>New game</h2>
      <div class="clockfields">${CLOCK_FIELDS}</div>
      <div class="modes">
        <button type="button" class="mode" data-mode="human"><span class="icon">⇄</span><div><b>Against a person</b><span>Get two seat links to share, and a link for spectators</span></div></button>
        <button type="button" class="mode" data-mode="bot"><span class="icon">◎</span><div><b>Against the bot</b><span>Play one side; the server plays the other</span></div></button>
        <button type="button" class="mode" data-mode="hotseat"><span class="icon">⟲</span><div><b>Hot-seat on this device</b><span>Both sides in this tab, passing the device between turns</span></div></button>
        <button type="button" class="mode" data-mode="outside_bot"><span class="icon">⌘</span><div><b>Against your own bot</b><span>Get a link your program plays with <code>taktik join</code>; you play the other side</span></div></button>
      </div>
      <details class="advanced"><summary>Advanced: seed, board size, length, bot</summary>
        <div class="fields">
          <label>Seed <input name="seed" type="number" min="0" max="4294967295" placeholder="random"></label>
          <label>Columns <input name="width" type="number" min="8" max="40" placeholder="20"></label>
          <label>Rows <input name="height" type="number" min="9" max="60" placeholder="30"></label>
          <label>Rounds <input name="rounds" type="number" min="1" max="50" placeholder="25"></label>
          <label>You play (vs a bot, or your open challenge) <select name="side"><option value="ATTACKER">Attacker</option><option value="DEFENDER">Defender</option></select></label>
          <label class="wide">Bot <select name="bot"><option value="">The server's default</option></select><small class="about muted"></small></label>
          <label class="wide">Rules file (cards or a variant, docs/cards.md) <input type="file" name="rules" accept=".json,application/json"><small class="rules-summary muted"></small></label>
        </div>
      </details>
      <p class="error" hidden></p>
      <div class="created"></div>
    </section>
    <section class="box">
      <h2>Open challenges <button type="button" class="btn ghost small" data-refresh title="Look again">↻</button></h2>
      <div class="challenges-list"><p class="muted">Loading…</p></div>
      <h2 class="recent-title">Recent matches</h2>
      <div class="recent"><p class="muted">Loading…</p></div>
      <label class="file-drop">Open a record file in the replay viewer <input type="file" name="record" accept=".json,application/json"></label>
    </section>
  </div>
</div>`;

/**
 * Fill the bot picker from the server's policies, its default first and selected. An option
 * names the bot ("Greedy", the words before the colon of its description) so it fits a phone's
 * width; the whole description shows under the picker for the bot chosen.
 * @param {HTMLSelectElement} select
 */
async function listBots(select) {
  const about = /** @type {HTMLElement} */ (select.nextElementSibling);
  /** @type {Map<string, string>} */
  const described = new Map();
  const describe = () => { about.textContent = described.get(select.value) ?? ""; };
  try {
    const { default: chosen, bots } = await request("/api/bots");
    select.innerHTML = bots.map((/** @type {{name: string, about: string}} */ b) => {
      described.set(b.name, b.about);
      const title = b.about.includes(":") ? b.about.slice(0, b.about.indexOf(":")) : b.about;
      return `<option value="${esc(b.name)}"${b.name === chosen ? " selected" : ""}>${esc(title)}</option>`;
    }).join("");
    select.addEventListener("change", describe);
    describe();
  } catch {
    // the server's default option stays
  }
}

/** @param {HTMLElement} root */
export function startLobby(root) {
  root.innerHTML = PAGE;
  const q = (/** @type {string} */ s) => /** @type {HTMLElement} */ (root.querySelector(s));
  const error = q(".error");
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (root.querySelector(`[name=${name}]`)).value.trim();

  const config = () => {
    /** @type {{seed?: number, width?: number, height?: number, victory?: {round_limit: {max_rounds: number}}}} */
    const c = {};
    if (value("seed")) c.seed = Number(value("seed"));
    if (value("width")) c.width = Number(value("width"));
    if (value("height")) c.height = Number(value("height"));
    if (value("rounds")) c.victory = { round_limit: { max_rounds: Number(value("rounds")) } };
    return c;
  };

  root.addEventListener("click", async (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    const mode = /** @type {HTMLElement|null} */ (t.closest("[data-mode]"))?.dataset.mode;
    const join = /** @type {HTMLElement|null} */ (t.closest("[data-join]"))?.dataset.join;
    if (join) return joinAndPlay(join);
    if (t.closest("[data-refresh]")) return listChallenges(q(".challenges-list"), new Set(Object.keys(storedSeats())));
    const copy = /** @type {HTMLElement|null} */ (t.closest("[data-copy]"));
    if (copy) {
      await copyText(copy.dataset.copy ?? "");
      copy.textContent = "Copied";
      setTimeout(() => { copy.textContent = "Copy"; }, 1500);
    }
    if (!mode) return;
    error.hidden = true;
    const mine = value("side") === "DEFENDER" ? "DEFENDER" : "ATTACKER";
    const opponent = mode === "bot" || mode === "outside_bot" ? mode : "human";
    /** @type {{config: object, opponent: string, hotseat: boolean, bot_side: string, bot?: string, clock?: object, open?: boolean, side?: string, rules?: object, rules_name?: string}} */
    const body = { config: config(), opponent, hotseat: mode === "hotseat",
      bot_side: mine === "ATTACKER" ? "DEFENDER" : "ATTACKER" };
    if (mode === "bot" && value("bot")) body.bot = value("bot");
    const clock = chosenClock(root);
    if (clock) body.clock = clock;
    if (rules) Object.assign(body, { rules: rules.data, rules_name: rules.name });
    // An open challenge: the server hands out only our seat; a stranger takes the other from the lobby.
    const open = mode === "human" && wantsOpenChallenge(root);
    if (open) Object.assign(body, { open: true, side: mine });
    try {
      /** @type {MatchCreated} */
      const created = await request("/api/matches", body);
      const tokens = created.seats.map((s) => s.token);
      if (open) {
        rememberSeats(created.match_id, tokens);
        location.assign(playPath(created.match_id, tokens));
      } else if (mode === "human") {
        showLinks(q(".created"), created); // each link remembers its own seat when it is opened
        listRecent(q(".recent"));
      } else if (mode === "outside_bot") {
        showBotSeat(q(".created"), created, mine, value("bot") || "greedy");
        listRecent(q(".recent"));
      } else {
        rememberSeats(created.match_id, tokens);
        location.assign(playPath(created.match_id, tokens));
      }
    } catch (err) {
      error.hidden = false;
      error.textContent = `Could not create the match: ${/** @type {Error} */ (err).message}`;
    }
  });

  // A rules file to play with: checked by the server now (every problem with its JSON path), sent with the match.
  /** @type {{data: object, name: string}|null} */
  let rules = null;
  const rulesInput = /** @type {HTMLInputElement} */ (root.querySelector("[name=rules]"));
  const rulesSummary = q(".rules-summary");
  rulesInput.addEventListener("change", async () => {
    rules = null;
    rulesSummary.textContent = "";
    error.hidden = true;
    const chosen = rulesInput.files?.[0];
    if (!chosen) return;
    const name = chosen.name.replace(/\.json$/i, "");
    try {
      const data = JSON.parse(await chosen.text());
      /** @type {{name: string, cards: {name: string, warning?: string|null}[], abilities: string[], removed: string[]}} */
      const summary = await request(`/api/rules/check?name=${encodeURIComponent(name)}`, data);
      rules = { data, name };
      const warned = summary.cards.filter((c) => c.warning).length;
      const count = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) => `${n} ${n === 1 ? one : many}`;
      rulesSummary.textContent = `${summary.name}: ${count(summary.cards.length, "card", "cards")}, `
        + `${count(summary.abilities.length, "ability", "abilities")}`
        + `${summary.removed.length ? `, ${summary.removed.length} removed` : ""}${warned ? `, ${warned} with a warning` : ""}. New matches play with it.`;
    } catch (err) {
      rulesInput.value = "";
      error.hidden = false;
      error.textContent = `That rules file cannot be played:\n${/** @type {Error} */ (err).message}`;
    }
  });

  const file = /** @type {HTMLInputElement} */ (root.querySelector("[name=record]"));
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    try {
      const data = JSON.parse(await chosen.text());
      const [{ loadAssets }, { loadCatalog }, { startReplay }, { exposeHooks }] = await Promise.all([
        import("./assets.js"), import("./api.js"), import("./replay.js"), import("./hooks.js")]);
      const [assets, catalog] = await Promise.all([loadAssets(), loadCatalog()]);
      history.pushState({}, "", "/replay/file");
      exposeHooks({ ...startReplay(root, assets, catalog, "file", data), words: (entry) => eventText(entry, catalog.cards) });
    } catch (err) {
      error.hidden = false;
      error.textContent = `That file is not a Taktik record: ${/** @type {Error} */ (err).message}`;
    }
  });

  /** Take the free seat of an open challenge and play it. @param {string} matchId */
  async function joinAndPlay(matchId) {
    error.hidden = true;
    try {
      const joined = await joinChallenge(matchId);
      const tokens = joined.seats.map((s) => s.token);
      rememberSeats(matchId, tokens);
      location.assign(playPath(matchId, tokens));
    } catch (err) {
      error.hidden = false;
      error.textContent = `Could not join that challenge: ${/** @type {Error} */ (err).message}`;
      listChallenges(q(".challenges-list"), new Set(Object.keys(storedSeats())));
    }
  }

  showInvite(q(".invite"));
  listBots(/** @type {HTMLSelectElement} */ (root.querySelector("[name=bot]")));
  const challenges = q(".challenges-list");
  listChallenges(challenges, new Set(Object.keys(storedSeats())));
  // Strangers post challenges while this page is open: look again now and then, until the page changes.
  const watch = setInterval(() => {
    if (!challenges.isConnected) clearInterval(watch);
    else listChallenges(challenges, new Set(Object.keys(storedSeats())));
  }, CHALLENGE_REFRESH_MS);
  listRecent(q(".recent"));
  showcase(/** @type {HTMLCanvasElement} */ (q(".showcase"))).catch((err) => {
    // Without its art the scene stays an empty band of the same height: the page does not jump.
    console.warn("lobby scene:", err);
  });
}

/**
 * An invitation link (`/?join=<match>`, from a waiting challenge's page): the challenge it
 * names with its Join button, or why it can no longer be joined.
 * @param {HTMLElement} el
 */
async function showInvite(el) {
  const wanted = new URLSearchParams(location.search).get("join");
  if (!wanted) return;
  el.hidden = false;
  el.innerHTML = `<p class="muted">Looking for the game you were invited to…</p>`;
  /** @type {MatchSummary|undefined} */
  let found;
  try {
    found = (await request("/api/challenges")).challenges.find((/** @type {MatchSummary} */ c) => c.match_id === wanted);
  } catch (err) {
    el.innerHTML = `<p class="error">${esc(/** @type {Error} */ (err).message)}</p>`;
    return;
  }
  el.innerHTML = found
    ? `<h2>You are invited to a game</h2><p>Take the <b class="side-${esc(found.open_seat ?? "")}">${esc(sideName(found.open_seat))}</b>
      seat of match <code>${esc(found.match_id.slice(0, 8))}</code> · ${esc(describeClock(found.clock))}.</p>
      <div class="btns"><button type="button" class="btn primary" data-join="${esc(found.match_id)}">Join and play</button></div>`
    : `<h2>That invitation is no longer open</h2><p class="muted">Someone took the seat already, or the game is over. Start a game of your own below.</p>`;
}

/** A little scene drawn with the game's own renderer and art, to set the mood. */
const SCENE = {
  rows: ["..ff=...", ".fff=.h.", "~~~~#~~~", "..u.=...", ".uu.==..", "....f..."],
  // The picture's own key: it never meets a server board (those come with their legend).
  key: [["PLAIN", "."], ["FOREST", "f"], ["URBAN", "u"], ["HILL", "h"]].map(([terrain, char]) => ({ char, terrain, road: false, river: false }))
    .concat([{ char: "=", terrain: "PLAIN", road: true, river: false }, { char: "~", terrain: "PLAIN", road: false, river: true },
      { char: "#", terrain: "PLAIN", road: true, river: true }]),
  units: [["A7", "ATTACKER", "MECHANIZED", "C2"], ["A1", "ATTACKER", "LIGHT_INFANTRY", "F2"], ["A10", "ATTACKER", "SPECIAL", "G1"],
    ["D1", "DEFENDER", "LIGHT_INFANTRY", "D4"], ["D9", "DEFENDER", "MECHANIZED", "F5"], ["D14", "DEFENDER", "SPECIAL", "B5"]],
};

/** @param {HTMLCanvasElement} canvas */
async function showcase(canvas) {
  const [{ loadAssets }, { Renderer }, { Animator }, { boardBounds }, { fit }, { initialModel }] = await Promise.all([
    import("./assets.js"), import("./render.js"), import("./anim.js"), import("./iso.js"), import("./camera.js"), import("./state.js")]);
  const assets = await loadAssets();
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  const units = SCENE.units.map(([id, side, type, cell]) => ({ id, side, type, cell, hp: id === "D9" ? 1 : type === "LIGHT_INFANTRY" ? 1 : 2,
    has_moved: false, has_attacked: false }));
  // A partial view, cast on purpose: the renderer reads only these fields of a still scene.
  const view = /** @type {View} */ (/** @type {unknown} */ ({ board: { width: 8, height: 6, rows: SCENE.rows }, units, attack_queue: [],
    pending_attack: { attacker: "A7", target: "D1" }, phase: "DICE_RESOLUTION", turn: 1, effects: [] }));
  const model = { ...initialModel("replay", ""), view, lastMove: { unit: "A1", from: "E3", to: "F2", version: 0 } };
  const renderer = new Renderer(canvas, assets);
  renderer.setBoard(view, SCENE.key);
  const camera = fit(boardBounds(/** @type {Grid} */ (renderer.grid), 60), width, height, 4);
  renderer.draw({ camera, vw: width, vh: height, dpr, model, ctl: null, anim: new Animator(), now: 0,
    fullHp: { LIGHT_INFANTRY: { hp: 1 }, MECHANIZED: { hp: 2 }, SPECIAL: { hp: 2 } } });
}

/**
 * The links of a match against a person: one per seat (secret) and one for spectators.
 * @param {HTMLElement} el @param {MatchCreated} created
 */
function showLinks(el, created) {
  const row = (/** @type {string} */ who, /** @type {string} */ url, /** @type {string} */ note) =>
    `<div class="link"><b>${who}</b><code title="${esc(note)}">${esc(url)}</code><button type="button" class="btn" data-copy="${esc(url)}">Copy</button><a class="btn" href="${esc(url)}">Open</a></div>`;
  const seats = created.seats.map((s) =>
    row(`<span class="side-${s.seat}">${esc(sideName(s.seat))}</span>`, s.url, "secret: give it only to this player")).join("");
  el.innerHTML = `<h2 style="margin-top:18px">Match ${esc(created.match_id)}</h2>
    <p class="muted">Each seat link is secret: send it only to the person who plays that side. Open yours here, send the other.</p>
    <div class="links">${seats}${row("Spectators", created.spectator.url, "anyone may watch")}</div>`;
}

/** @param {string} text */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

/**
 * A match's status in words; one played under other rules is read only, not broken.
 * @param {{status: string, rules_version: string}} m
 */
function statusCell(m) {
  if (m.status !== "other_rules") return `<td class="status-${esc(m.status)}">${esc(m.status)}</td>`;
  return `<td class="status-other_rules" title="played under rules version ${esc(m.rules_version)}">other rules —<br><span class="muted">read only</span></td>`;
}

/** @param {HTMLElement} el */
async function listRecent(el) {
  /** @type {MatchSummary[]} */
  let rows;
  try {
    rows = await request("/api/matches?limit=20");
  } catch (err) {
    el.innerHTML = `<p class="error">${esc(/** @type {Error} */ (err).message)}</p>`;
    return;
  }
  if (!rows.length) {
    el.innerHTML = `<p class="muted">No matches yet. Start one!</p>`;
    return;
  }
  const seats = storedSeats();
  const now = Date.now() / 1000;
  const lines = rows.map((m) => {
    const id = encodeURIComponent(m.match_id);
    const mine = seats[m.match_id];
    const actions = [];
    if (m.status === "live" && mine?.length) actions.push(`<a class="btn primary" href="${esc(`/play/${id}#${mine.join(".")}`)}">Resume</a>`);
    if (m.status === "live" || m.status === "other_rules") actions.push(`<a class="btn" href="/watch/${id}">Watch</a>`);
    if (m.status === "over") actions.push(`<a class="btn" href="/replay/${id}">Replay</a>`);
    const state = m.status === "over" ? `${esc(sideName(m.winner))} won` : `T${m.turn} · ${esc(phaseName(m.phase))}`;
    return `<tr data-match="${esc(m.match_id)}"><td><code>${esc(m.match_id.slice(0, 8))}</code></td><td${m.clock ? ` title="${esc(describeClock(m.clock))}"` : ""}>${esc(m.mode.replace("_", " "))}</td>
      ${statusCell(m)}<td>${state}</td><td class="muted">${esc(ago(m.updated_at, now))}</td><td>${actions.join(" ")}</td></tr>`;
  });
  el.innerHTML = `<table class="matches"><thead><tr><th>Match</th><th>Mode</th><th>Status</th><th>Where</th><th>Updated</th><th></th></tr></thead><tbody>${lines.join("")}</tbody></table>`;
}
