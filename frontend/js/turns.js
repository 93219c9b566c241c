// The player's unfinished games (MYGAME, docs/protocol.md §7) and which of them wait for their move: one store
// for the lobby's "Your turn" card and the header's badge on every page. It is fed by a lobby socket's
// `snapshot` (`my_games`) and `my_game` messages: the lobby page's own socket while it is shown (it claims the
// feed), else one the header keeps open for a signed-in player, subscribed to the player's own news only.
import { LobbySocket } from "./protocol.js";
import { currentUser, isAnonymous, onUserChange } from "./session.js";

const games = new Map(); // id -> MYGAME
const listeners = new Set();
let claims = 0;
let socket = null;

export function isYourTurn(game, user = currentUser()) {
  return Boolean(user && game.to_move && game.players[game.to_move] && game.players[game.to_move].id === user.id);
}

/** How many unfinished games the player has (0 for an anonymous visitor: it has none). */
export function unfinishedCount() {
  return games.size;
}

/** The games waiting for the player's move, the nearest deadline first (a paused clock last). */
export function waitingGames() {
  return [...games.values()].filter((g) => isYourTurn(g)).sort((a, b) => (a.deadline ?? Infinity) - (b.deadline ?? Infinity));
}

/** Calls fn(game, before) after each change (game: the MYGAME that changed, null after a snapshot). */
export function onTurns(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** A lobby socket message: keeps the store and tells the listeners; other messages are ignored. */
export function feedTurns(msg) {
  if (msg.t === "snapshot") {
    games.clear();
    for (const g of msg.my_games || []) games.set(g.id, g);
    for (const fn of listeners) fn(null, null);
  } else if (msg.t === "my_game" && msg.game) {
    const g = msg.game;
    const before = games.get(g.id) || null;
    if (before && before.v > g.v) return;
    if (g.status === "finished") games.delete(g.id);
    else games.set(g.id, g);
    for (const fn of listeners) fn(g, before);
  }
}

function syncSocket() {
  const user = currentUser();
  const wanted = claims === 0 && !isAnonymous(user);
  if (socket && (!wanted || socket.userId !== user.id)) {
    socket.stop();
    socket = null;
  }
  if (wanted && !socket) {
    socket = new LobbySocket({ onMessage: feedTurns, feed: "mine" }); // its games' news only, not the whole lobby
    socket.userId = user.id;
    socket.start();
  }
  if (isAnonymous(user)) {
    games.clear();
    for (const fn of listeners) fn(null, null);
  }
}

/** The lobby page feeds the store from its own socket while it is shown: the header's socket closes meanwhile. */
export function claimFeed() {
  claims += 1;
  syncSocket();
  return () => {
    claims -= 1;
    syncSocket();
  };
}

/** Started once by the shell: the header's socket follows the signed-in user. */
export function watchTurns() {
  onUserChange(syncSocket);
  syncSocket();
}
