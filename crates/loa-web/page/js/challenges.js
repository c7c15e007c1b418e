// @ts-check
// Challenges, on every page while signed in: those sent to the person (Accept, Decline),
// and their own waiting for an answer (Cancel), whose game opens once accepted. The
// person's socket brings them as they change; while it is closed, the page asks every
// few seconds.

import { accountSocketOpen, onAccountNews, onAccountSocket } from './account-socket.js';
import { api, errorMessage } from './api.js';
import { h } from './dom.js';
import { capitalized, clockLabel, gameTitle, sameName, speedOf } from './format.js';
import { navigate } from './navigate.js';
import { challengedNow, setChallenged } from './notify.js';
import { onAccountChange, signedIn } from './session.js';

/**
 * @typedef {import('./types.js').Challenge} Challenge
 * @typedef {import('./types.js').Meta} Meta
 */

/** How often the challenges are asked for without the socket; more often while one's own waits. */
const POLL_MS = 10000;
const WAITING_POLL_MS = 2000;

const inbox = h('div', { class: 'inbox hidden', 'data-testid': 'inbox', 'aria-live': 'polite' });
/** The open challenges, as last asked. @type {Challenge[]} */
let open = [];
/** One's own challenges waiting for an answer, to follow until answered. @type {Map<string, Challenge>} */
const sent = new Map();
/** What became of one's own challenges, until dismissed. @type {HTMLElement[]} */
let notes = [];
/** The challenges to the person seen so far, so that only a new one is announced; null
 * before the first list. @type {Set<string> | null} */
let seenIncoming = null;
/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;
/** What the server offers, for the variants' names. @type {Meta | null} */
let offer = null;
let asking = false;
/** The lists received, taken in turn. */
let taking = Promise.resolve();

/**
 * Places the inbox under the header and starts asking while someone is signed in.
 * @param {Meta} meta
 */
export function startInbox(meta) {
  offer = meta;
  document.querySelector('header')?.after(inbox);
  onAccountChange(() => {
    open = [];
    sent.clear();
    notes = [];
    seenIncoming = null;
    poll();
  });
  document.addEventListener('visibilitychange', () => { if (!document.hidden && !accountSocketOpen()) poll(); });
  onAccountNews((news) => { if (news.challenges) take(news.challenges); });
  onAccountSocket(() => schedule());
  if (!accountSocketOpen()) poll();
}

/**
 * A challenge just made: followed until its player answers.
 * @param {Challenge} challenge
 */
export function followChallenge(challenge) {
  sent.set(challenge.id, challenge);
  open = [...open.filter((c) => c.id !== challenge.id), challenge];
  draw();
  schedule();
}

function schedule() {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!signedIn() || accountSocketOpen()) return;
  timer = setTimeout(poll, sent.size > 0 ? WAITING_POLL_MS : POLL_MS);
}

async function poll() {
  const me = signedIn();
  if (!me) {
    draw();
    schedule();
    return;
  }
  if (asking) return;
  asking = true;
  try {
    await take(await api('GET', '/api/challenges'));
  } catch {
    // The server away: the banner says so; the next turn asks again.
  } finally {
    asking = false;
    schedule();
  }
}

/**
 * The open challenges as the server now lists them, asked or sent on the socket: one's
 * own that left the list were answered.
 * @param {Challenge[]} list
 */
function take(list) {
  taking = taking.then(async () => {
    const me = signedIn();
    if (!me) return;
    open = list;
    const incoming = open.filter((c) => sameName(c.to, me.name));
    if (seenIncoming) {
      for (const c of incoming) {
        if (!seenIncoming.has(c.id)) challengedNow(`${c.from} challenges you: ${challengeTerms(c, true)}`);
      }
    }
    seenIncoming = new Set(incoming.map((c) => c.id));
    for (const c of open) if (sameName(c.from, me.name)) sent.set(c.id, c);
    const still = new Set(open.map((c) => c.id));
    for (const [id, challenge] of sent) {
      if (!still.has(id)) {
        // What became of it, asked; the next list asks again if the server is away.
        await answered(challenge).then(() => sent.delete(id), () => {});
      }
    }
    draw();
  });
  return taking;
}

/**
 * One's own challenge left the open ones: its game opens, or its refusal is told.
 * @param {Challenge} challenge
 */
async function answered(challenge) {
  /** @type {Challenge} */
  const now = await api('GET', `/api/challenges/${challenge.id}`);
  if (now.status === 'accepted' && now.game) {
    navigate(`/game/${now.game}`);
  } else if (now.status === 'declined' || now.status === 'expired') {
    const note = h('div', { class: 'challenge', 'data-testid': `challenge-${now.status}` },
      h('span', {}, now.status === 'declined' ? `${now.to} declined your challenge.` : `Your challenge to ${now.to} expired unanswered.`),
      h('button', { class: 'link', onclick: () => { notes = notes.filter((n) => n !== note); draw(); } }, 'Dismiss'));
    notes.push(note);
  }
}

/**
 * What a challenge offers, in words.
 * @param {Challenge} c
 * @param {boolean} toMe whether the colour is told to the challenged player
 */
function challengeTerms(c, toMe) {
  const colour = c.color === 'random' ? 'random colours'
    : toMe ? `you play ${c.color === 'black' ? 'White' : 'Black'}` : `you play ${capitalized(c.color)}`;
  const variant = offer ? gameTitle(offer, c.variant) : c.variant;
  return `${variant} · ${clockLabel(c.clock)} ${speedOf(c.clock)} · ${c.rated ? 'rated' : 'casual'} · ${colour}`;
}

/**
 * @param {Challenge} c
 * @param {'accept' | 'decline'} answer
 */
async function answer(c, answer) {
  try {
    /** @type {Challenge} */
    const view = await api('POST', `/api/challenges/${c.id}/${answer}`);
    open = open.filter((o) => o.id !== c.id);
    sent.delete(c.id);
    draw();
    if (view.game) navigate(`/game/${view.game}`);
  } catch (err) {
    window.alert(errorMessage(err));
    poll();
  }
}

function draw() {
  const me = signedIn();
  setChallenged(Boolean(me) && open.some((c) => sameName(c.to, me?.name)));
  if (!me) {
    inbox.replaceChildren();
    inbox.classList.add('hidden');
    return;
  }
  const rows = open.map((c) => {
    if (sameName(c.to, me.name)) {
      return h('div', { class: 'challenge', 'data-testid': 'challenge', 'data-challenge': c.id },
        h('span', {}, h('a', { href: `/@/${c.from}` }, c.from), ' challenges you: ', challengeTerms(c, true)),
        h('span', { class: 'row' },
          h('button', { class: 'primary', 'data-testid': 'accept-challenge', onclick: () => answer(c, 'accept') }, 'Accept'),
          h('button', { 'data-testid': 'decline-challenge', onclick: () => answer(c, 'decline') }, 'Decline')));
    }
    return h('div', { class: 'challenge', 'data-testid': 'sent-challenge', 'data-challenge': c.id },
      h('span', {}, 'Your challenge to ', h('a', { href: `/@/${c.to}` }, c.to), `: ${challengeTerms(c, false)} · waiting for an answer…`),
      h('button', { 'data-testid': 'cancel-challenge', onclick: () => answer(c, 'decline') }, 'Cancel'));
  });
  inbox.replaceChildren(...rows, ...notes);
  inbox.classList.toggle('hidden', rows.length + notes.length === 0);
}
