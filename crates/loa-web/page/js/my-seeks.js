// @ts-check
// The seeks this browser made, kept in localStorage as js/seats.js keeps seat tokens:
// each seek's token is its maker's seat in the game to come (a person not signed in acts
// with it) and withdraws the seek.

const KEY = 'loa-seeks';
/** A seek older than this is forgotten (a correspondence seek lasts two weeks). */
const MAX_AGE_MS = 15 * 24 * 3600 * 1000;

/**
 * @typedef {{ token: string, at: number }} HeldSeek
 * @typedef {Record<string, HeldSeek>} HeldSeeks
 */

/** @returns {HeldSeeks} */
function load() {
  try {
    const held = JSON.parse(localStorage.getItem(KEY) || '{}');
    return held && typeof held === 'object' ? held : {};
  } catch {
    return {};
  }
}

/** @param {HeldSeeks} held */
function save(held) {
  const now = Date.now();
  for (const [id, seek] of Object.entries(held)) {
    if (!seek || now - seek.at > MAX_AGE_MS) delete held[id];
  }
  try {
    localStorage.setItem(KEY, JSON.stringify(held));
  } catch {
    // Storage refused (a private window): the seek lasts as long as the tab.
  }
}

/**
 * @param {string} id
 * @param {string} token
 */
export function keepSeek(id, token) {
  const held = load();
  held[id] = { token, at: Date.now() };
  save(held);
}

/** @param {string} id */
export function forgetSeek(id) {
  const held = load();
  delete held[id];
  save(held);
}

/**
 * The token of a seek this browser made, if it did.
 * @param {string} id
 * @returns {string | undefined}
 */
export function seekToken(id) {
  return load()[id]?.token;
}

/**
 * The seeks this browser made, by id.
 * @returns {string[]}
 */
export function heldSeeks() {
  return Object.keys(load());
}
