// @ts-check
/**
 * A match against the player's own bot (`opponent: "outside_bot"`): the player's seat to open
 * here, and the bot's seat as the `taktik join` command that plays it from any machine
 * (docs/client-api.md). The server plays neither seat; the bot's link is a secret like any
 * seat link, so it is shown once, here, to the person who made the match.
 */

import { esc, sideName } from "./labels.js";

/** @typedef {import("./api.js").MatchCreated} MatchCreated */
/** @typedef {import("./types.js").Side} Side */

/**
 * The command that plays a seat with one of the lab's bots. The link goes in single quotes
 * for the shell: `#` would start a comment, and a seat link never holds a quote.
 * @param {string} url @param {string} bot
 */
export function joinCommand(url, bot) {
  return `taktik join '${url}' --bot ${bot}`;
}

/**
 * Show the links of a new match against the player's bot.
 * @param {HTMLElement} el @param {MatchCreated} created @param {string} mine the seat the player keeps
 * @param {string} bot the bot the command names
 */
export function showBotSeat(el, created, mine, bot) {
  const own = created.seats.find((s) => s.seat === mine);
  const theirs = created.seats.find((s) => s.seat !== mine);
  if (!own || !theirs) throw new Error("the server did not send both seat links");
  const command = joinCommand(theirs.url, bot);
  const side = (/** @type {Side} */ seat) => `<span class="side-${seat}">${esc(sideName(seat))}</span>`;
  el.innerHTML = `<h2 style="margin-top:18px">Match ${esc(created.match_id)}</h2>
    <p class="muted">Run this where your bot lives (with Taktik installed): it plays ${side(theirs.seat)} to the end and reconnects by itself. Your own code plays with <code style="white-space:nowrap">--policy module:function</code> instead (docs/client-api.md). The link is the seat's secret key: keep it to yourself.</p>
    <div class="links">
      <div class="link bot-seat"><b>Your bot: ${side(theirs.seat)}</b><code title="secret: it plays this seat">${esc(command)}</code><button type="button" class="btn" data-copy="${esc(command)}">Copy</button></div>
      <div class="link"><b>You: ${side(own.seat)}</b><code title="secret: your seat">${esc(own.url)}</code><button type="button" class="btn" data-copy="${esc(own.url)}">Copy</button><a class="btn" href="${esc(own.url)}">Open</a></div>
      <div class="link"><b>Spectators</b><code title="anyone may watch">${esc(created.spectator.url)}</code><button type="button" class="btn" data-copy="${esc(created.spectator.url)}">Copy</button><a class="btn" href="${esc(created.spectator.url)}">Open</a></div>
    </div>`;
}
