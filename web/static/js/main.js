// @ts-check
/**
 * Composition root: read the route, load the art and card data, start the page.
 *   /               lobby
 *   /play/<id>#<t>  play the seat of token t (two tokens joined by "." = hot-seat)
 *   /watch/<id>     spectate
 *   /replay/<id>    replay viewer (/replay/file: open a record file)
 * Exposes `window.taktik`, a few read-only hooks for tests and benchmarks (docs/client.md).
 */

import { loadCatalog, rememberSeats, storedSeats } from "./api.js";
import { loadAssets } from "./assets.js";
import { exposeHooks } from "./hooks.js";
import { openSockets } from "./net.js";
import { eventText } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
const [, page = "", id = ""] = location.pathname.split("/").map(decodeURIComponent);

/** Seat tokens from the fragment (remembered for reconnection), else the remembered ones. */
function seatTokens() {
  const fragment = location.hash.slice(1);
  const tokens = fragment.split(".").filter((t) => /^[A-Za-z0-9_-]{16,256}$/.test(t));
  if (tokens.length) rememberSeats(id, tokens);
  return tokens.length ? tokens : storedSeats()[id] ?? [];
}

async function main() {
  if (!page) {
    const { startLobby } = await import("./lobby.js");
    return startLobby(root);
  }
  if (page === "replay") {
    const [assets, catalog, { startReplay }] = await Promise.all([loadAssets(), loadCatalog(), import("./replay.js")]);
    return exposeHooks({ ...startReplay(root, assets, catalog, id), words: (entry) => eventText(entry, catalog.cards) });
  }
  // The match's sockets open first (this module and its few imports come before the rest of
  // the code: server/seatpage.py); the art, the card texts and the rest of the code load meanwhile.
  const tokens = page === "play" ? seatTokens() : [];
  const sockets = openSockets(id, tokens);
  const [assets, catalog, module] = await Promise.all([loadAssets(), loadCatalog(), import("./game.js")])
    .catch((err) => {
      for (const socket of sockets) socket.close(); // no page to show them
      throw err;
    });
  const game = new module.Game(root, assets, catalog, id, tokens, sockets);
  exposeHooks({ screen: game.screen, model: () => game.model, drop: () => game.drop(), extra: game.assist.hooks(() => game.model),
    words: (entry) => eventText(entry, catalog.cards) });
}

main().catch((err) => {
  root.innerHTML = `<div class="fatal"><h1>Taktik</h1><p>Something went wrong: <span></span></p><p><a href="/">Back to the lobby</a></p></div>`;
  /** @type {HTMLElement} */ (root.querySelector(".fatal span")).textContent = String(err?.message ?? err);
  console.error(err);
});
