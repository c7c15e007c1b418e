// @ts-check
// The signed-in account: asked once when the page opens (GET /api/me), changed by
// signing up, in or out. The session itself is an HttpOnly cookie the page never reads;
// pages that show something else to a signed-in person hear the change.

import { ApiError, api } from './api.js';

/** @typedef {import('./types.js').Me} Me */

/** @type {Me | null} */
let account = null;
/** @type {Set<(me: Me | null) => void>} */
const listeners = new Set();

/** The signed-in account, or null. */
export function signedIn() {
  return account;
}

/**
 * Asks the server who is signed in. A server that cannot be reached leaves the page
 * signed out; its banner says so.
 * @returns {Promise<Me | null>}
 */
export async function loadAccount() {
  try {
    account = await api('GET', '/api/me');
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) console.warn('GET /api/me:', err);
    account = null;
  }
  return account;
}

/**
 * Hears every change of the signed-in account.
 * @param {(me: Me | null) => void} listener
 */
export function onAccountChange(listener) {
  listeners.add(listener);
}

/** @param {Me | null} me */
export function setAccount(me) {
  account = me;
  for (const listener of listeners) listener(me);
}

/**
 * @param {string} name
 * @param {string} password
 */
export async function signIn(name, password) {
  /** @type {Me} */
  const me = await api('POST', '/api/session', { name, password });
  setAccount(me);
}

/**
 * @param {string} name
 * @param {string} password
 * @param {string} email empty for none
 */
export async function signUp(name, password, email) {
  /** @type {Me} */
  const me = await api('POST', '/api/accounts', email ? { name, password, email } : { name, password });
  setAccount(me);
}

/** Signs this browser out (`everywhere`: every session of the account). */
export async function signOut(everywhere = false) {
  await api('DELETE', everywhere ? '/api/sessions' : '/api/session');
  setAccount(null);
}
