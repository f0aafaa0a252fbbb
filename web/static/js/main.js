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
  // The art, the card texts and the rest of the code load side by side.
  const view = page === "replay" ? import("./replay.js") : import("./game.js");
  const [assets, catalog, module] = await Promise.all([loadAssets(), loadCatalog(), view]);
  if ("startReplay" in module) return exposeHooks(module.startReplay(root, assets, catalog, id));
  const game = new module.Game(root, assets, catalog, id, page === "play" ? seatTokens() : []);
  exposeHooks({ screen: game.screen, model: () => game.model, drop: () => game.drop(), extra: game.assist.hooks(() => game.model) });
}

main().catch((err) => {
  root.innerHTML = `<div class="fatal"><h1>Taktik</h1><p>Something went wrong: <span></span></p><p><a href="/">Back to the lobby</a></p></div>`;
  /** @type {HTMLElement} */ (root.querySelector(".fatal span")).textContent = String(err?.message ?? err);
  console.error(err);
});
