// @ts-check
// Telling a person it is their move when they are not looking: the tab's title, a short
// sound (can be switched off) and, if they allowed it, a browser notification.

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

/**
 * The tab's title: "(1) Your move" while it is the person's move.
 * @param {boolean} yourMove
 * @param {string} [what] the game, after the mark
 */
export function showTurn(yourMove, what) {
  const rest = what ? `${what} · ${BASE_TITLE}` : BASE_TITLE;
  document.title = yourMove ? `(1) Your move · ${rest}` : rest;
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
  if (soundOn()) chime();
  if (document.hidden && 'Notification' in window && Notification.permission === 'granted') {
    try {
      const note = new Notification('loa: your move', { body: text, tag: location.pathname });
      note.onclick = () => { window.focus(); note.close(); };
    } catch {
      // Some browsers allow notifications only from a service worker.
    }
  }
}
