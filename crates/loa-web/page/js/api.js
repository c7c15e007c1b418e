// @ts-check
// The API client: every request the page makes (docs/web.md), the banner shown while the
// server cannot be reached, the sockets' addresses, and what is asked once and kept (the
// server's offer, the positions described).

import { h } from './dom.js';

/**
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').PositionAnswer} PositionAnswer
 */

/** What "Retry now" does: set when the banner is placed. */
let retry = () => {};

// A banner while the server cannot be reached; the game's socket keeps trying, and
// "Retry now" opens the page again.
const offlineBanner = h('div', { class: 'banner hidden', role: 'alert', 'data-testid': 'offline' },
  'The server cannot be reached; trying again… ',
  h('button', { onclick: () => retry() }, 'Retry now'));

/**
 * Puts the banner at the top of the page.
 * @param {() => void} onRetry opens the page again
 */
export function placeOfflineBanner(onRetry) {
  retry = onRetry;
  document.body.prepend(offlineBanner);
}

/** @param {boolean} reachable */
export function setReachable(reachable) {
  offlineBanner.classList.toggle('hidden', reachable);
}

/** A refusal by the API: its message, and the status to tell refusals apart (401, 409...). */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * A request to the API: its answer, or an ApiError with the API's message.
 * @template T the answer's type, as the caller declares it
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['content-type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    setReachable(false);
    throw new Error('the server cannot be reached; nothing was sent');
  }
  setReachable(true);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    throw new ApiError((data && data.error) || `${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

/**
 * What a failure says.
 * @param {unknown} err
 */
export function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

/** @param {string} path */
export function socketUrl(path) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${path}`;
}

/**
 * A promise kept once it is kept, forgotten if it fails so that the next call asks again.
 * @template T
 * @param {Map<string, Promise<T>>} cache
 * @param {string} key
 * @param {() => Promise<T>} ask
 * @returns {Promise<T>}
 */
async function remembered(cache, key, ask) {
  let answer = cache.get(key);
  if (!answer) {
    answer = ask();
    cache.set(key, answer);
  }
  try {
    return await answer;
  } catch (err) {
    cache.delete(key);
    throw err;
  }
}

/** @type {Map<string, Promise<Meta>>} */
const metaCache = new Map();

/**
 * What the server offers (variants, levels, rule sets, limits), asked once.
 * @returns {Promise<Meta>}
 */
export function meta() {
  return remembered(metaCache, '', () => api('GET', '/api/meta'));
}

/** @type {Map<string, Promise<PositionAnswer>>} */
const positionCache = new Map();

/**
 * A position as the server describes it (its pieces and legal moves), asked once.
 * @param {string} variant
 * @param {string} rules
 * @param {string | undefined} position the variant's start when undefined
 * @returns {Promise<PositionAnswer>}
 */
export function describe(variant, rules, position) {
  return remembered(positionCache, `${variant}|${rules}|${position}`,
    () => api('POST', '/api/position', { variant, rules, position }));
}
