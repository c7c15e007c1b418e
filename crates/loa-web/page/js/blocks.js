// @ts-check
// The players the signed-in account blocks (GET /api/me/blocks): read once for the
// session and kept as the page changes it. The server refuses their challenges and
// pairings; the page does not show their chat lines and seeks.

import { api } from './api.js';
import { onAccountChange, signedIn } from './session.js';

/** @typedef {import('./types.js').Block} Block */

/** The blocked names, lower-cased, once read. @type {Set<string> | null} */
let blocked = null;
/** @type {Promise<Set<string>> | null} */
let reading = null;

onAccountChange(() => {
  blocked = null;
  reading = null;
});

/**
 * The blocked names, lower-cased (none for a person not signed in).
 * @returns {Promise<Set<string>>}
 */
export function blockedNames() {
  if (!signedIn()) return Promise.resolve(new Set());
  if (blocked) return Promise.resolve(blocked);
  if (!reading) {
    reading = api('GET', '/api/me/blocks')
      .then((/** @type {Block[]} */ list) => (blocked = new Set(list.map((b) => b.name.toLowerCase()))))
      .catch(() => {
        // Read again next time, rather than keep an empty list.
        reading = null;
        return new Set();
      });
  }
  return reading;
}

/**
 * Whether `name` is blocked, as far as the page has read (false before it has).
 * @param {string | null | undefined} name
 */
export function isBlocked(name) {
  return Boolean(blocked && name && blocked.has(name.toLowerCase()));
}

/**
 * Blocks or unblocks `name`.
 * @param {string} name
 * @param {boolean} block
 */
export async function setBlocked(name, block) {
  await api(block ? 'PUT' : 'DELETE', `/api/me/blocks/${encodeURIComponent(name)}`);
  const names = await blockedNames();
  if (block) names.add(name.toLowerCase());
  else names.delete(name.toLowerCase());
}
