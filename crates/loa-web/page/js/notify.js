// @ts-check
// Telling a person it is their move, or that someone challenges them, when they are not
// looking: the tab's title (with the count of the games waiting for them), a short sound
// (can be switched off) and, if they allowed it, a browser notification.

const SOUND_KEY = 'loa-sound';
const BASE_TITLE = 'loa: Lines of Action';

/** @returns {boolean} */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== 'off';
}

/** @param {boolean} on */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

/** The page's own part of the title, after any "Your move". */
let pageTitle = BASE_TITLE;
/**
 * The games the page shows, by id: whether each waits for this person's move. The page
 * hears its games at once, the list of the account's waiting games only every little
 * while: for a game it shows, the page is believed.
 * @type {Map<string, boolean>}
 */
let pageGames = new Map();
/** The games the signed-in account is to move in, as last asked. @type {Set<string>} */
let accountGames = new Set();
/** Whether a challenge to the person waits for an answer. */
let challenged = false;

function drawTitle() {
  const waiting = new Set([...accountGames].filter((id) => pageGames.get(id) !== false));
  for (const [id, yourMove] of pageGames) if (yourMove) waiting.add(id);
  const yourMoveHere = [...pageGames.values()].some(Boolean);
  const marked = challenged ? `Challenge · ${pageTitle}` : pageTitle;
  const text = yourMoveHere ? `Your move · ${marked}` : marked;
  document.title = waiting.size > 0 ? `(${waiting.size}) ${text}` : text;
}

/**
 * The tab's title: "(2) Your move · what · loa: Lines of Action", counting the games
 * waiting for this person, the page's and the account's.
 * @param {Record<string, boolean>} games the games the page shows, by id: whether each is
 *   this person's move
 * @param {string} [what] the page, after the mark
 */
export function showTurn(games, what) {
  pageGames = new Map(Object.entries(games));
  pageTitle = what ? `${what} · ${BASE_TITLE}` : BASE_TITLE;
  drawTitle();
}

/**
 * The games the signed-in account is to move in (none when signed out), counted in the title.
 * @param {string[]} ids
 */
export function setAccountWaiting(ids) {
  accountGames = new Set(ids);
  drawTitle();
}

/**
 * Whether challenges to the person wait for an answer, marked in the title.
 * @param {boolean} waiting
 */
export function setChallenged(waiting) {
  challenged = waiting;
  drawTitle();
}

/** A short two-note chime, made on the spot (no file to fetch). */
function chime() {
  const AudioContext = window.AudioContext;
  if (!AudioContext) return;
  try {
    const audio = new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.22);
    });
    setTimeout(() => audio.close(), 600);
  } catch {
    // No sound where the browser refuses it.
  }
}

/** Whether notifications may be asked for (not yet granted or refused). */
export function canAskToNotify() {
  return 'Notification' in window && Notification.permission === 'default';
}

/** Asks the browser for leave to notify; answers whether it was given. */
export async function askToNotify() {
  if (!('Notification' in window)) return false;
  return (await Notification.requestPermission()) === 'granted';
}

/**
 * It has just become the person's move: a sound, and a notification if the page is hidden.
 * @param {string} text what to say, e.g. "Your move against Black"
 */
export function yourMoveNow(text) {
  tell('loa: your move', text, location.pathname);
}

/**
 * Someone has just challenged the person: a sound, and a notification if the page is hidden.
 * @param {string} text what to say, e.g. "Ann challenges you: Standard · 5+3 blitz"
 */
export function challengedNow(text) {
  tell('loa: a challenge', text, 'challenge');
}

/**
 * @param {string} title
 * @param {string} text
 * @param {string} tag a notification replaces the last of the same tag
 */
function tell(title, text, tag) {
  if (soundOn()) chime();
  if (document.hidden && 'Notification' in window && Notification.permission === 'granted') {
    try {
      const note = new Notification(title, { body: text, tag });
      note.onclick = () => { window.focus(); note.close(); };
    } catch {
      // Some browsers allow notifications only from a service worker.
    }
  }
}
