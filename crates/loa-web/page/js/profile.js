// @ts-check
// A player's profile (/@/NAME): title, BOT mark, ratings by variant and speed, the
// rating history chart, medals, results against each opponent, the games with filters,
// and a challenge to play.

import { api, errorMessage } from './api.js';
import { blockedNames, isBlocked, setBlocked } from './blocks.js';
import { followChallenge } from './challenges.js';
import { categoryName, ratingChart } from './chart.js';
import { app, h, modal, nameLink } from './dom.js';
import { SPEEDS, accountOf, capitalized, clockLabel, gameTitle, ratingText, sameName, shortDate, sideName } from './format.js';
import { signedIn } from './session.js';
import { termsForm } from './terms-form.js';

/**
 * @typedef {import('./types.js').Challenge} Challenge
 * @typedef {import('./types.js').GameSummary} GameSummary
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Opponent} Opponent
 * @typedef {import('./types.js').Profile} Profile
 */

/** How many games the profile lists at a time. */
const PAGE = 20;

/** The games' filters, as the API and the page's address take them. */
const FILTERS = /** @type {const} */ (['vs', 'result', 'rated', 'variant']);

/**
 * A title's mark before a name: `GM`, `IM`, `CM`.
 * @param {Profile['title']} title
 */
export function titleMark(title) {
  return title ? h('span', { class: 'title', title: { GM: 'Grandmaster', IM: 'International Master', CM: 'Candidate Master' }[title] }, title) : null;
}

export class ProfilePage {
  /**
   * @param {Meta} meta
   * @param {string} name
   */
  constructor(meta, name) {
    this.meta = meta;
    this.name = name;
    /** @type {(() => void) | null} */
    this.stopChart = null;
  }

  dispose() {
    if (this.stopChart) this.stopChart();
  }

  async start() {
    const path = `/api/players/${encodeURIComponent(this.name)}`;
    /** @type {[Profile, Opponent[]]} */
    const [profile, opponents] = await Promise.all([api('GET', path), api('GET', `${path}/opponents`)]);
    const me = signedIn();
    const self = me !== null && sameName(me.name, profile.name);
    await blockedNames();
    const sentNote = h('p', { class: 'muted', 'data-testid': 'challenge-sent' });
    const head = h('div', { class: 'row spread profile-head' },
      h('h1', { 'data-testid': 'profile-name' }, titleMark(profile.title), profile.name,
        profile.bot ? h('span', { class: 'bot', title: 'A program plays this account' }, 'BOT') : null),
      me && !self && !profile.deleted ? this.actions(profile, sentNote) : null);
    const { gold, silver, bronze } = profile.medals;
    const facts = h('p', { class: 'muted' }, `Joined ${shortDate(profile.created_at)}`,
      gold + silver + bronze > 0 ? ` · Medals: ${gold} gold, ${silver} silver, ${bronze} bronze` : '',
      self ? [' · ', h('a', { href: '/account' }, 'Account settings')] : null);
    const chart = profile.history.length > 0 ? ratingChart(this.meta, profile.history, Math.min(profile.created_at, ...profile.history.map((p) => p.at))) : null;
    this.stopChart = chart ? chart.dispose : null;
    const games = h('div', { 'data-testid': 'profile-games' });
    const filters = this.filters(profile, opponents, games);
    app.replaceChildren(
      head,
      profile.deleted ? h('p', { class: 'offer' }, 'This account was closed. Its games stay, under this anonymous name.') : '',
      facts,
      this.levelNote(profile),
      sentNote,
      h('h2', {}, 'Ratings'),
      this.ratings(profile),
      h('h2', {}, 'Rating history'),
      chart ? chart.el : h('p', { class: 'muted' }, 'No rated games yet.'),
      opponents.length > 0 ? h('h2', {}, 'Opponents') : '',
      opponents.length > 0 ? this.opponents(opponents, filters) : '',
      h('h2', {}, 'Games'),
      filters.el,
      games);
    await filters.show();
  }

  /**
   * Challenge and Block, or Unblock for a player the person blocks.
   * @param {Profile} profile
   * @param {HTMLElement} sentNote
   */
  actions(profile, sentNote) {
    const el = h('div', { class: 'row' });
    const show = () => {
      const blocked = isBlocked(profile.name);
      el.replaceChildren(
        blocked ? '' : h('button', { class: 'primary', 'data-testid': 'challenge-button', onclick: () => this.challenge(profile, sentNote) }, 'Challenge'),
        h('button', {
          'data-testid': 'block-button',
          title: blocked ? '' : 'They cannot challenge you or be paired with you; their chat lines and seeks are not shown to you',
          onclick: async () => {
            if (!blocked && !window.confirm(`Block ${profile.name}? They will not be able to challenge you or be paired with you, and you will not see their chat lines and seeks.`)) return;
            try {
              await setBlocked(profile.name, !blocked);
              sentNote.textContent = blocked ? `${profile.name} is no longer blocked.` : `${profile.name} is blocked. Your account page lists whom you block.`;
            } catch (err) {
              sentNote.textContent = errorMessage(err);
            }
            show();
          },
        }, blocked ? 'Unblock' : 'Block'));
    };
    show();
    return el;
  }

  /**
   * What an engine level's bot account plays and how strong it was measured to be.
   * @param {Profile} profile
   */
  levelNote(profile) {
    const match = profile.bot ? /^loa-level-(\d+)$/.exec(profile.name) : null;
    const level = match ? this.meta.levels.find((l) => l.level === Number(match[1])) : undefined;
    if (!level) return '';
    return h('p', { class: 'level-note', 'data-testid': 'level-note' },
      `The engine at level ${level.level}: ${level.description}. Measured about ${level.elo.toLocaleString('en')} Elo above a player of random moves`,
      level.beginner ? '. The lowest level: a beginner who knows the rules can beat it.' : '.');
  }

  /**
   * The games' filters, read from and kept in the page's address (`?vs=bob&result=win`),
   * and the list they choose, a page at a time.
   * @param {Profile} profile
   * @param {Opponent[]} opponents
   * @param {HTMLElement} list
   */
  filters(profile, opponents, list) {
    const params = new URLSearchParams(location.search);
    /** @param {string} label @param {string} name @param {[string, string][]} options */
    const select = (label, name, options) => {
      const el = /** @type {HTMLSelectElement} */ (h('select', { 'data-testid': `filter-${name}`, onchange: () => show() },
        h('option', { value: '' }, `Any ${label}`), options.map(([value, text]) => h('option', { value }, text))));
      el.value = options.some(([value]) => value === params.get(name)) ? /** @type {string} */ (params.get(name)) : '';
      return el;
    };
    const named = new Set(opponents.map((o) => o.name));
    const vsParam = params.get('vs');
    if (vsParam) named.add(vsParam);
    const fields = {
      vs: select('opponent', 'vs', [...named].map((n) => [n, `vs ${n}`])),
      result: select('result', 'result', [['win', 'Won'], ['loss', 'Lost'], ['draw', 'Drawn'], ['playing', 'Playing']]),
      rated: select('mode', 'rated', [['true', 'Rated'], ['false', 'Casual']]),
      variant: select('variant', 'variant', this.meta.variants.map((v) => [v.id, v.title])),
    };
    let shown = 0;
    const more = h('button', { 'data-testid': 'more-games', onclick: () => show(true) }, 'More games');
    const show = async (next = false) => {
      const query = new URLSearchParams();
      for (const name of FILTERS) if (fields[name].value) query.set(name, fields[name].value);
      const address = query.toString();
      history.replaceState(history.state, '', `${location.pathname}${address ? `?${address}` : ''}`);
      const offset = next ? shown : 0;
      query.set('limit', String(PAGE));
      query.set('offset', String(offset));
      try {
        /** @type {GameSummary[]} */
        const page = await api('GET', `/api/players/${encodeURIComponent(profile.name)}/games?${query}`);
        shown = offset + page.length;
        const table = this.games(profile, page, offset > 0);
        if (offset === 0) list.replaceChildren(table);
        else list.querySelector('tbody')?.append(...table.querySelectorAll('tbody tr'));
        more.hidden = page.length < PAGE;
        if (!more.isConnected) list.after(more);
      } catch (err) {
        list.replaceChildren(h('p', { class: 'error', role: 'alert' }, errorMessage(err)));
      }
    };
    /** @param {string} name */
    const showOpponent = (name) => {
      fields.vs.value = name;
      void show();
      list.scrollIntoView({ behavior: 'smooth', block: 'start' });
    };
    const el = h('div', { class: 'row filters', 'data-testid': 'game-filters' }, FILTERS.map((name) => fields[name]));
    return { el, show, showOpponent };
  }

  /**
   * Results against each opponent; a name's games are a click away.
   * @param {Opponent[]} opponents
   * @param {{ showOpponent: (name: string) => void }} filters
   */
  opponents(opponents, filters) {
    return h('table', { class: 'opponents', 'data-testid': 'opponents' },
      h('thead', {}, h('tr', {}, ['Opponent', 'Games', 'Won', 'Drawn', 'Lost', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, opponents.map((o) => h('tr', { 'data-testid': 'opponent-row' },
        h('td', {}, nameLink(o.name),
          o.bot ? h('span', { class: 'bot' }, 'BOT') : null),
        h('td', {}, o.games),
        h('td', { class: 'result won' }, o.wins),
        h('td', {}, o.draws),
        h('td', { class: 'result lost' }, o.losses),
        h('td', {}, h('button', { class: 'link', 'data-testid': `games-vs-${o.name}`, onclick: () => filters.showOpponent(o.name) }, 'Games'))))));
  }

  /** @param {Profile} profile */
  ratings(profile) {
    const cards = [];
    for (const variant of this.meta.variants) {
      const speeds = profile.ratings[variant.id];
      if (!speeds) continue;
      for (const speed of SPEEDS) {
        const r = speeds[speed];
        if (!r) continue;
        cards.push(h('div', {
          class: 'rating-card', 'data-testid': `rating-${variant.id}-${speed}`,
          title: `deviation ${r.deviation}${r.provisional ? ': provisional until it is 110 or less' : ''}`,
        },
        h('span', { class: 'muted small' }, capitalized(categoryName(this.meta, `${variant.id}/${speed}`))),
        h('strong', {}, ratingText(r)),
        h('span', { class: 'muted small' }, `${r.games} ${r.games === 1 ? 'game' : 'games'}`)));
      }
    }
    if (cards.length === 0) return h('p', { class: 'muted' }, 'No rating yet: a rated game gives one.');
    return h('div', { class: 'rating-cards' }, cards,
      cards.some((c) => c.textContent?.includes('?')) ? h('p', { class: 'muted small note' }, '? marks a provisional rating: too few games to be sure of it yet.') : null);
  }

  /**
   * @param {Profile} profile
   * @param {GameSummary[]} games
   * @param {boolean} more a further page of the list: rows only, never the empty note
   */
  games(profile, games, more) {
    if (games.length === 0 && !more) return h('p', { class: 'muted' }, 'No games here.');
    const rows = games.map((g) => {
      /** @type {'black' | 'white' | null} */
      let side = sameName(accountOf(g, 'black'), profile.name) ? 'black' : sameName(accountOf(g, 'white'), profile.name) ? 'white' : null;
      // A rated game against a level names the level's bot account on the engine's side.
      if (!side && profile.bot) side = sameName(g.names[0], profile.name) ? 'black' : sameName(g.names[1], profile.name) ? 'white' : null;
      // A game at this browser's board names nobody: against the engine, the person's
      // side is the one a person plays.
      const people = /** @type {('black' | 'white')[]} */ (['black', 'white']).filter((s) => g.players[s] === 'human');
      if (!side && !profile.bot && !g.online && people.length === 1) side = people[0];
      const other = side === 'black' ? 'white' : 'black';
      const opponent = side ? accountOf(g, other) : null;
      let outcome = g.result ? `${g.result} ${g.reason ?? ''}` : 'playing';
      /** @type {string | null} */
      let mark = null;
      if (g.reason === 'aborted') {
        outcome = 'Aborted';
      } else if (g.result && side) {
        const won = (g.result === '1-0' && side === 'black') || (g.result === '0-1' && side === 'white');
        const lost = (g.result === '1-0' && side === 'white') || (g.result === '0-1' && side === 'black');
        mark = won ? 'won' : lost ? 'lost' : 'draw';
        outcome = `${won ? 'Won' : lost ? 'Lost' : 'Draw'} · ${g.reason ?? ''}`;
      }
      return h('tr', { 'data-testid': 'profile-game' },
        h('td', {}, h('a', { href: `/game/${g.id}` }, shortDate(g.created_at))),
        // The dot is the colour of the opponent named after it, as in a pairing.
        h('td', { title: side ? `${profile.name} played ${side === 'black' ? 'Black' : 'White'}` : null }, side ? (other === 'black' ? '● ' : '○ ') : '',
          opponent ? nameLink(opponent)
            : h('span', { class: 'name-cut' }, side ? sideName(g, other) : g.online ? `${sideName(g, 'black')} – ${sideName(g, 'white')}` : 'At one board')),
        h('td', { class: mark ? `result ${mark}` : 'result' }, outcome),
        h('td', {}, g.rated ? 'Rated' : 'Casual'),
        h('td', { class: 'wide' }, gameTitle(this.meta, g.variant)),
        h('td', { class: 'wide' }, g.moves));
    });
    return h('table', { class: 'profile-games' },
      h('thead', {}, h('tr', {}, ['Date', 'Opponent', 'Result', 'Mode', 'Variant', 'Moves'].map((t) => h('th', { class: t === 'Variant' || t === 'Moves' ? 'wide' : null }, t)))),
      h('tbody', {}, rows));
  }

  /**
   * The challenge form, in a dialog; once sent, the inbox follows it.
   * @param {Profile} profile
   * @param {HTMLElement} sentNote
   */
  challenge(profile, sentNote) {
    const form = termsForm(this.meta);
    const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'challenge-error' });
    const dialog = modal(`Challenge ${profile.name}`, 'challenge-dialog', h('form', {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        const terms = form.read();
        if (typeof terms === 'string') {
          error.textContent = terms;
          return;
        }
        try {
          /** @type {Challenge} */
          const sent = await api('POST', '/api/challenges', { to: profile.name, ...terms });
          dialog.close();
          followChallenge(sent);
          sentNote.textContent = `Challenge sent to ${profile.name} (${clockLabel(sent.clock)}, ${sent.rated ? 'rated' : 'casual'}): the game opens when they accept.`;
        } catch (err) {
          error.textContent = errorMessage(err);
        }
      },
    }, form.el, error, h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'send-challenge' }, 'Send the challenge'))));
  }
}
