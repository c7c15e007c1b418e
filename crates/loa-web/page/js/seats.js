// @ts-check
// The seats this browser holds: each game's seat tokens, kept in localStorage so that the
// person who made or joined a game comes back to their seat after closing the tab. Only a
// token lets one act in a game; the id alone lets one watch.

const KEY = 'loa-seats';
/** The most games remembered; the oldest are forgotten first. */
const MAX_GAMES = 200;

/**
 * @typedef {{ tokens: Record<string, string>, links?: Record<string, string>, at: number }} HeldGame
 * @typedef {Record<string, HeldGame>} Held
 */

/** @returns {Held} */
function load() {
  try {
    const held = JSON.parse(localStorage.getItem(KEY) || '{}');
    return held && typeof held === 'object' ? held : {};
  } catch {
    return {};
  }
}

/** @param {Held} held */
function save(held) {
  const ids = Object.keys(held).sort((a, b) => held[b].at - held[a].at);
  for (const id of ids.slice(MAX_GAMES)) delete held[id];
  try {
    localStorage.setItem(KEY, JSON.stringify(held));
  } catch {
    // Storage full or refused (a private window): the seat lasts as long as the tab.
  }
}

/**
 * The tokens this browser holds for a game, by seat (`black`, `white`, `black2`, `white2`).
 * @param {string} id
 * @returns {Record<string, string>}
 */
export function tokensOf(id) {
  const game = load()[id];
  return game ? { ...game.tokens } : {};
}

/**
 * Keeps seat tokens for a game (added to those already held).
 * @param {string} id
 * @param {Record<string, string>} tokens
 */
export function keepTokens(id, tokens) {
  const held = load();
  const game = held[id] || { tokens: {}, at: Date.now() };
  game.tokens = { ...game.tokens, ...tokens };
  game.at = Date.now();
  held[id] = game;
  save(held);
}

/**
 * The invitation links of an online game this browser made, to show again.
 * @param {string} id
 * @returns {Record<string, string> | null}
 */
export function linksOf(id) {
  const game = load()[id];
  return (game && game.links) || null;
}

/**
 * @param {string} id
 * @param {Record<string, string>} links
 */
export function keepLinks(id, links) {
  const held = load();
  const game = held[id] || { tokens: {}, at: Date.now() };
  game.links = links;
  held[id] = game;
  save(held);
}

/**
 * The games this browser plays, the most recently touched first.
 * @returns {string[]}
 */
export function heldGames() {
  const held = load();
  return Object.keys(held)
    .filter((id) => Object.keys(held[id].tokens).length > 0)
    .sort((a, b) => held[b].at - held[a].at);
}
