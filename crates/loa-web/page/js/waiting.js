// @ts-check
// The games waiting for the signed-in player's move (GET /api/me/waiting), on every page:
// counted in the tab's title, listed on the home page. Sent on the person's socket as
// they change, and asked when a page opens, every half minute (a hidden tab too: its
// title is what tells of a move there) and when the tab is seen again.

import { onAccountNews } from './account-socket.js';
import { ApiError, api } from './api.js';
import { setAccountWaiting } from './notify.js';
import { signedIn } from './session.js';

/** @typedef {import('./types.js').WaitingGame} WaitingGame */

const POLL_MS = 30000;

/** The games as last asked, and when (their times left are from then). */
let games = /** @type {WaitingGame[]} */ ([]);
let askedAt = 0;
/** @type {Set<(games: WaitingGame[], askedAt: number) => void>} */
const listeners = new Set();
/** The latest request: an answer overtaken by a later request is dropped. */
let asked = 0;

/** @param {WaitingGame[]} found */
function keep(found) {
  games = found;
  askedAt = Date.now();
  setAccountWaiting(found.map((g) => g.id));
  for (const listener of listeners) listener(games, askedAt);
}

/** Asks again now (none when signed out). */
export async function refreshWaiting() {
  const ask = ++asked;
  if (!signedIn()) {
    keep([]);
    return;
  }
  try {
    /** @type {WaitingGame[]} */
    const found = await api('GET', '/api/me/waiting');
    if (ask === asked) keep(found);
  } catch (err) {
    // Signed out elsewhere: nothing waits here. Another failure keeps what was known.
    if (ask === asked && err instanceof ApiError && err.status === 401) keep([]);
  }
}

/** Asks every little while from now on; each page's opening asks too (refreshWaiting). */
export function startWaiting() {
  onAccountNews((news) => {
    if (!news.waiting) return;
    // An answer asked for before this news is older than it.
    asked += 1;
    keep(news.waiting);
  });
  setInterval(refreshWaiting, POLL_MS);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshWaiting(); });
}

/**
 * Hears the games each time they are asked, and at once the ones known.
 * @param {(games: WaitingGame[], askedAt: number) => void} listener
 * @returns {() => void} stops hearing
 */
export function onWaiting(listener) {
  listeners.add(listener);
  listener(games, askedAt);
  return () => { listeners.delete(listener); };
}
