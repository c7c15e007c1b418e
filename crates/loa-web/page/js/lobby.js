// @ts-check
// The lobby: quick-pairing tiles (a seek, or the open seek that fits), the open seeks,
// live from the lobby's socket (take one, or withdraw one's own), and the way to the
// game once someone takes one's seek.

import { ApiError, api, errorMessage, socketUrl } from './api.js';
import { blockedNames, isBlocked } from './blocks.js';
import { h, modal, nameLink } from './dom.js';
import { capitalized, clockLabel, gameTitle, ratingText, sameClock, sameName, speedOf } from './format.js';
import { openSignIn } from './header.js';
import { forgetSeek, heldSeeks, keepSeek, seekToken } from './my-seeks.js';
import { navigate } from './navigate.js';
import { keepTokens } from './seats.js';
import { signedIn } from './session.js';
import { termsForm } from './terms-form.js';

/**
 * @typedef {import('./types.js').CreatedSeek} CreatedSeek
 * @typedef {import('./types.js').GameAnswer} GameAnswer
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Profile} Profile
 * @typedef {import('./types.js').Seek} Seek
 * @typedef {import('./types.js').Taken} Taken
 * @typedef {import('./types.js').Terms} Terms
 * @typedef {import('./types.js').TimeControl} TimeControl
 */

/** The quick-pairing tiles' clocks. @type {TimeControl[]} */
const TILES = [
  { kind: 'live', initial_s: 180, increment_s: 2 },
  { kind: 'live', initial_s: 300, increment_s: 3 },
  { kind: 'live', initial_s: 600, increment_s: 5 },
  { kind: 'live', initial_s: 900, increment_s: 10 },
  { kind: 'correspondence', days: 3 },
];
/** How far apart two ratings may be for a tile to take the other's seek. */
const RATING_RANGE = 300;
/** The variant the tiles seek, as last chosen. */
const VARIANT_KEY = 'loa-pairing-variant';

/**
 * Whether a seek (or the terms of one) offers the same game as these terms, colour
 * aside: a tile takes either.
 * @param {Pick<Terms, 'variant' | 'rules' | 'rated' | 'clock'>} seek
 * @param {Terms} terms
 */
function offers(seek, terms) {
  return seek.variant === terms.variant && seek.rules === terms.rules
    && seek.rated === terms.rated && sameClock(seek.clock, terms.clock);
}

/**
 * Keeps a seat's token in this browser, under the place the server says it holds.
 * @param {string} game
 * @param {string} token
 */
async function keepSeat(game, token) {
  /** @type {GameAnswer} */
  const seen = await api('GET', `/api/games/${game}?token=${encodeURIComponent(token)}`);
  if (seen.you) keepTokens(game, { [seen.you]: token });
}

/**
 * Opens a game just paired at one's seat: its token kept first (a token in the address
 * is an invitation's, which the game page takes only while the seat is free).
 * @param {string} game
 * @param {string | undefined} token
 */
async function openSeat(game, token) {
  if (token) await keepSeat(game, token).catch(() => {});
  navigate(`/game/${game}`);
}

export class Lobby {
  /**
   * @param {Meta} meta
   * @param {(opponent: string) => void} openNewGame opens the new game form, the opponent chosen
   */
  constructor(meta, openNewGame) {
    this.meta = meta;
    /** The open seeks, as the socket last sent them. @type {Seek[]} */
    this.seeks = [];
    /** The seeks made on this visit: their taker's game opens at once. @type {Map<string, Terms>} */
    this.waiting = new Map();
    /** Held seeks being looked up. @type {Set<string>} */
    this.checking = new Set();
    /** The signed-in person's ratings, to match seeks near them. @type {Profile['ratings']} */
    this.ratings = {};
    /** @type {WebSocket | null} */
    this.socket = null;
    this.closed = false;
    this.received = false;
    const stored = localStorage.getItem(VARIANT_KEY);
    this.variant = h('select', { 'data-testid': 'pairing-variant', 'aria-label': 'variant to pair for' },
      meta.variants.map((v) => h('option', { value: v.id, selected: v.id === stored }, v.title)));
    this.variant.addEventListener('change', () => {
      localStorage.setItem(VARIANT_KEY, this.variant.value);
      this.drawTiles();
    });
    this.tiles = h('div', { class: 'tiles', 'data-testid': 'tiles' });
    this.error = h('p', { class: 'error', role: 'alert', 'data-testid': 'lobby-error' });
    this.notice = h('div', { 'data-testid': 'lobby-notice' });
    this.seeksEl = h('div', { class: 'seeks', 'data-testid': 'seeks' }, h('p', { class: 'muted' }, 'Loading…'));
    const me = signedIn();
    this.el = h('section', { class: 'lobby' },
      h('div', { class: 'pairing' },
        h('div', { class: 'row spread' }, h('h2', {}, 'Quick pairing'), this.variant),
        this.tiles,
        h('p', { class: 'muted small' }, me
          ? `Rated games, as ${me.name}. A tile takes an open seek of the same game within ${RATING_RANGE} points of you, or makes one.`
          : 'Casual games. Sign in to play rated ones. A tile takes an open seek of the same game, or makes one.'),
        h('div', { class: 'row' },
          h('button', { class: 'big', 'data-testid': 'play-computer', onclick: () => openNewGame('engine') }, 'Play the computer'),
          h('button', { class: 'big', 'data-testid': 'play-friend', onclick: () => openNewGame('online') }, 'Play a friend')),
        this.error,
        this.notice),
      h('div', { class: 'open-seeks' }, h('h2', {}, 'Open seeks'), this.seeksEl));
    this.onPageHide = () => this.withdrawWaiting(true);
    window.addEventListener('pagehide', this.onPageHide);
    this.drawTiles();
  }

  async start() {
    const me = signedIn();
    if (me) {
      api('GET', `/api/players/${encodeURIComponent(me.name)}`)
        .then((/** @type {Profile} */ profile) => { this.ratings = profile.ratings; })
        .catch(() => {});
    }
    await blockedNames();
    this.connect();
  }

  dispose() {
    this.closed = true;
    window.removeEventListener('pagehide', this.onPageHide);
    if (this.socket) this.socket.close();
    this.withdrawWaiting(false);
  }

  /**
   * Live seeks made on this visit are withdrawn when the person leaves the lobby: nobody
   * would be there to play. A correspondence seek stays.
   * @param {boolean} leaving the tab goes away: the request outlives it
   */
  withdrawWaiting(leaving) {
    for (const [id, terms] of this.waiting) {
      if (terms.clock.kind !== 'live') continue;
      this.waiting.delete(id);
      const token = seekToken(id);
      forgetSeek(id);
      fetch(`/api/seeks/${id}`, {
        method: 'DELETE', keepalive: leaving,
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }),
      }).catch(() => {});
    }
  }

  connect(delay = 1000) {
    if (this.closed) return;
    const socket = new WebSocket(socketUrl('/api/lobby/socket'));
    this.socket = socket;
    let opened = false;
    socket.onopen = () => { opened = true; };
    socket.onmessage = (e) => {
      const message = JSON.parse(e.data);
      if (Array.isArray(message.seeks)) this.seeksChanged(message.seeks);
    };
    socket.onclose = () => {
      if (this.closed) return;
      const next = opened ? 1000 : Math.min(delay * 2, 15000);
      setTimeout(() => this.connect(next), opened ? 500 : delay);
    };
  }

  /** @param {Seek[]} seeks */
  seeksChanged(seeks) {
    // The seeks of a player the person blocks are not offered (nor taken by a tile).
    this.seeks = seeks.filter((seek) => !isBlocked(seek.name));
    this.received = true;
    const open = new Set(seeks.map((s) => s.id));
    // One's own seeks that left the list: taken (then the game), withdrawn or expired
    // (from this tab or another, which may have forgotten them in this browser already).
    for (const id of new Set([...heldSeeks(), ...this.waiting.keys()])) {
      if (!open.has(id) && !this.checking.has(id)) this.check(id);
    }
    this.drawTiles();
    this.drawSeeks();
  }

  /** @param {string} id a seek of this browser's that is no longer open */
  async check(id) {
    this.checking.add(id);
    try {
      /** @type {Seek} */
      const seek = await api('GET', `/api/seeks/${id}`);
      if (seek.game) await this.taken(id, seek.game);
      else {
        forgetSeek(id);
        this.waiting.delete(id);
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        forgetSeek(id);
        this.waiting.delete(id);
      }
    } finally {
      this.checking.delete(id);
      // A tile that waited with it is free again.
      if (!this.closed) this.drawTiles();
    }
  }

  /**
   * Someone took one's seek: its game opens at one's seat if the seek was made on this
   * visit; an older one's game is kept under "My games" and named here.
   * @param {string} id
   * @param {string} game
   */
  async taken(id, game) {
    const token = seekToken(id);
    const now = this.waiting.has(id);
    this.waiting.delete(id);
    forgetSeek(id);
    if (this.closed) return;
    if (now) {
      await openSeat(game, token);
      return;
    }
    if (token) await keepSeat(game, token);
    this.notice.append(h('p', { class: 'offer' }, 'Someone took your seek. ', h('a', { href: `/game/${game}` }, 'Go to the game')));
  }

  /**
   * The terms of a tile: rated when signed in.
   * @param {TimeControl} clock
   * @returns {Terms}
   */
  tileTerms(clock) {
    return { variant: this.variant.value, rules: this.meta.rules[0] ?? 'draw', clock, rated: Boolean(signedIn()), color: 'random' };
  }

  /** @param {Seek} seek */
  isMine(seek) {
    const me = signedIn();
    return this.waiting.has(seek.id) || seekToken(seek.id) !== undefined || (me !== null && sameName(seek.name, me.name));
  }

  drawTiles() {
    const tiles = TILES.map((clock) => {
      const terms = this.tileTerms(clock);
      // A seek of this visit, or one's own open one from before (a correspondence seek
      // stays; another tab's): the tile waits with it rather than making a second.
      const kept = this.seeks.find((seek) => this.isMine(seek) && offers(seek, terms));
      const mine = [...this.waiting].find(([, t]) => offers(t, terms)) ?? (kept ? [kept.id, terms] : undefined);
      return h('button', {
        class: mine ? 'tile waiting' : 'tile', 'data-testid': 'tile', 'data-clock': clockLabel(clock),
        'aria-pressed': mine ? 'true' : 'false',
        title: mine ? 'Waiting for an opponent: click to withdraw the seek' : `Play ${clockLabel(clock)}`,
        onclick: () => (mine ? this.withdraw(mine[0]) : this.pair(terms)),
      },
      h('span', { class: 'tile-clock' }, clockLabel(clock)),
      h('span', { class: 'tile-speed' }, mine ? 'Waiting…' : capitalized(speedOf(clock))));
    });
    tiles.push(h('button', { class: 'tile', 'data-testid': 'tile-custom', onclick: () => this.custom() },
      h('span', { class: 'tile-clock' }, 'Custom'), h('span', { class: 'tile-speed' }, 'Any clock, colour')));
    this.tiles.replaceChildren(...tiles);
  }

  /** A seek of one's own terms, in a dialog. */
  custom() {
    const form = termsForm(this.meta);
    const error = h('p', { class: 'error', role: 'alert' });
    const dialog = modal('Make a seek', 'seek-dialog', h('form', {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        const terms = form.read();
        if (typeof terms === 'string') {
          error.textContent = terms;
          return;
        }
        dialog.close();
        await this.seek(terms);
      },
    }, form.el, error, h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'make-seek' }, 'Make the seek'))));
  }

  /**
   * The open seek of someone else that fits, the oldest first: the same game, and for a
   * rated one a rating within the range of one's own.
   * @param {Terms} terms
   */
  fitting(terms) {
    const category = this.ratings[terms.variant]?.[speedOf(terms.clock)];
    const mine = category ? category.rating : 1500;
    return this.seeks.find((seek) => !this.isMine(seek) && offers(seek, terms)
      && (!terms.rated || Math.abs((seek.rating ?? 1500) - mine) <= RATING_RANGE));
  }

  /**
   * Quick pairing: the server takes the open seek that fits (the rating gap widening
   * while a seek waits), or makes a seek to wait with.
   * @param {Terms} terms
   */
  async pair(terms) {
    this.error.textContent = '';
    try {
      /** @type {Taken | CreatedSeek} */
      const paired = await api('POST', '/api/pairing', terms);
      if ('game' in paired) {
        await openSeat(paired.game, paired.token);
        return;
      }
      keepSeek(paired.id, paired.token);
      this.waiting.set(paired.id, terms);
      this.drawTiles();
      this.drawSeeks();
    } catch (err) {
      this.error.textContent = errorMessage(err);
    }
  }

  /**
   * Takes the open seek that fits, or makes one and waits.
   * @param {Terms} terms
   */
  async seek(terms) {
    this.error.textContent = '';
    const fit = this.fitting(terms);
    if (fit && await this.accept(fit, true)) return;
    try {
      /** @type {CreatedSeek} */
      const made = await api('POST', '/api/seeks', terms);
      keepSeek(made.id, made.token);
      this.waiting.set(made.id, terms);
      this.drawTiles();
      this.drawSeeks();
    } catch (err) {
      this.error.textContent = errorMessage(err);
    }
  }

  /**
   * Takes a seek: its game opens at one's seat. False if someone took it first.
   * @param {Seek} seek
   * @param {boolean} quietly a tile's try: a seek taken first is no error
   */
  async accept(seek, quietly = false) {
    this.error.textContent = '';
    if (seek.rated && !signedIn()) {
      this.error.replaceChildren('A rated game needs an account: ',
        h('button', { class: 'link', onclick: () => openSignIn('in') }, 'sign in'), ' or ',
        h('button', { class: 'link', onclick: () => openSignIn('up') }, 'sign up'), '.');
      return false;
    }
    try {
      /** @type {Taken} */
      const taken = await api('POST', `/api/seeks/${seek.id}/accept`);
      // Leaving the lobby withdraws one's live seeks: this game is the one played.
      await openSeat(taken.game, taken.token);
      return true;
    } catch (err) {
      if (!(quietly && err instanceof ApiError && (err.status === 409 || err.status === 404))) {
        this.error.textContent = errorMessage(err);
      }
      return false;
    }
  }

  /** @param {string} id one's own seek */
  async withdraw(id) {
    this.error.textContent = '';
    // The socket's list without it may come first: it is not to be looked up meanwhile.
    this.checking.add(id);
    try {
      await api('DELETE', `/api/seeks/${id}`, { token: seekToken(id) });
      forgetSeek(id);
      this.waiting.delete(id);
      this.drawTiles();
    } catch (err) {
      // Taken meanwhile: the game is looked up below. Gone (withdrawn from another tab,
      // expired): nothing to say, the tile is free.
      if (!(err instanceof ApiError && err.status === 404)) this.error.textContent = errorMessage(err);
    } finally {
      this.checking.delete(id);
    }
    if (!this.seeks.some((s) => s.id === id)) this.check(id);
  }

  drawSeeks() {
    if (!this.received) return;
    if (this.seeks.length === 0) {
      this.seeksEl.replaceChildren(h('p', { class: 'muted' }, 'No open seeks. A tile makes one; it shows here for others to take.'));
      return;
    }
    const me = signedIn();
    const rows = this.seeks.map((seek) => {
      const mine = this.isMine(seek);
      const locked = seek.rated && !me;
      const colour = seek.color === 'random' ? '◐' : seek.color === 'black' ? '●' : '○';
      const colourTitle = seek.color === 'random' ? 'random colours' : `the maker plays ${seek.color}`;
      return h('tr', {
        class: mine ? 'mine' : locked ? 'locked' : 'takeable', 'data-testid': 'seek', 'data-seek': seek.id,
        title: mine ? 'Your seek' : locked ? 'Rated: sign in to play' : 'Click to play',
        onclick: mine ? null : (/** @type {Event} */ e) => {
          if (!(e.target instanceof HTMLButtonElement)) this.accept(seek);
        },
      },
      h('td', { class: 'color', title: colourTitle }, colour),
      h('td', {}, seek.name ? nameLink(seek.name) : h('span', { class: 'muted' }, 'Anonymous')),
      h('td', {}, seek.rating !== null ? ratingText({ rating: seek.rating, provisional: seek.provisional }) : ''),
      h('td', {}, clockLabel(seek.clock)),
      h('td', {}, seek.rated ? 'Rated' : 'Casual',
        h('span', { class: 'narrow muted', 'data-testid': 'seek-variant-narrow' }, gameTitle(this.meta, seek.variant))),
      h('td', { class: 'wide' }, gameTitle(this.meta, seek.variant)),
      h('td', {}, mine
        ? h('button', { 'data-testid': 'cancel-seek', onclick: () => this.withdraw(seek.id) }, 'Cancel')
        : h('button', { 'data-testid': 'accept-seek', disabled: locked, onclick: () => this.accept(seek) }, 'Play')));
    });
    this.seeksEl.replaceChildren(h('table', {},
      h('thead', {}, h('tr', {}, ['', 'Player', 'Rating', 'Time', 'Mode', 'Variant', ''].map((t) => h('th', { class: t === 'Variant' ? 'wide' : null }, t)))),
      h('tbody', {}, rows)));
  }
}
