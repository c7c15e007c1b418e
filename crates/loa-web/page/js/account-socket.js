// @ts-check
// The signed-in person's socket (GET /api/me/socket): their open challenges and the
// games waiting for their move, sent when it opens and again as they change, so that a
// challenge shows at once on every page. Open while someone is signed in; while it is
// closed, the modules that hear it ask the server by themselves.

import { ApiError, api, socketUrl } from './api.js';
import { onAccountChange, setAccount, signedIn } from './session.js';

/**
 * @typedef {import('./types.js').Challenge} Challenge
 * @typedef {import('./types.js').WaitingGame} WaitingGame
 * @typedef {{ challenges?: Challenge[], waiting?: WaitingGame[] }} AccountNews
 */

/** The socket of the person signed in, if any. @type {WebSocket | null} */
let socket = null;
let opened = false;
/** The latest news of each kind, for a listener that comes later. @type {AccountNews} */
let latest = {};
/** @type {Set<(news: AccountNews) => void>} */
const newsListeners = new Set();
/** @type {Set<(open: boolean) => void>} */
const stateListeners = new Set();

/** Whether the socket is open: the news comes by itself. */
export function accountSocketOpen() {
  return opened;
}

/**
 * Hears each message, and at once what is known.
 * @param {(news: AccountNews) => void} listener
 */
export function onAccountNews(listener) {
  newsListeners.add(listener);
  if (latest.challenges || latest.waiting) listener(latest);
}

/**
 * Hears the socket open and close.
 * @param {(open: boolean) => void} listener
 */
export function onAccountSocket(listener) {
  stateListeners.add(listener);
}

/** @param {boolean} open */
function setOpen(open) {
  if (opened === open) return;
  opened = open;
  for (const listener of stateListeners) listener(open);
}

/** Opens the socket for whoever is signed in, now and after every change of account. */
export function startAccountSocket() {
  onAccountChange(() => {
    disconnect();
    connect();
  });
  connect();
}

function disconnect() {
  const old = socket;
  socket = null;
  latest = {};
  old?.close();
  setOpen(false);
}

/** A socket open this long was well: the next, after it closes, is opened at once. */
const WELL_MS = 10000;

/** @param {number} delay the wait before the next try, if this one fails */
function connect(delay = 1000) {
  if (!signedIn() || socket) return;
  const mine = new WebSocket(socketUrl('/api/me/socket'));
  socket = mine;
  let openedAt = 0;
  mine.onopen = () => {
    openedAt = Date.now();
    setOpen(true);
  };
  mine.onmessage = (e) => {
    /** @type {AccountNews} */
    const news = JSON.parse(e.data);
    latest = { ...latest, ...news };
    for (const listener of newsListeners) listener(news);
  };
  mine.onclose = () => {
    // Closed for a change of account: the next socket is someone else's.
    if (socket !== mine) return;
    socket = null;
    setOpen(false);
    const well = openedAt > 0 && Date.now() - openedAt >= WELL_MS;
    if (!openedAt) checkSignedIn();
    const next = well ? 1000 : Math.min(delay * 2, 30000);
    setTimeout(() => connect(next), well ? 1000 : delay);
  };
}

/** A socket refused: signed out elsewhere (the session ended) shows here too. */
async function checkSignedIn() {
  try {
    await api('GET', '/api/me');
  } catch (err) {
    // Only the server's word signs the page out: a server away keeps it as it is.
    if (err instanceof ApiError && err.status === 401 && signedIn()) setAccount(null);
  }
}
