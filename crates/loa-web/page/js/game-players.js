// @ts-check
// Who plays a game, as the game page names them: an account is a link to its profile,
// with its title, BOT mark and rating in the game's category as the game began, and
// once a rated game has ended, the rating's change; and the game's terms (clock, speed,
// rated or casual).

import { api } from './api.js';
import { h } from './dom.js';
import { accountOf, capitalized, changeText, clockLabel, ratingText, sideName, speedOf } from './format.js';
import { titleMark } from './profile.js';

/**
 * @typedef {import('./types.js').GameView} GameView
 * @typedef {import('./types.js').Profile} Profile
 * @typedef {'black' | 'white'} Side
 */

/** @type {Side[]} */
const SIDES = ['black', 'white'];

export class GamePlayers {
  constructor() {
    /** The accounts' profiles, once read. @type {Record<Side, Profile | null>} */
    this.profiles = { black: null, white: null };
    this.termsEl = h('p', { class: 'muted terms-line', 'data-testid': 'game-terms' });
  }

  /**
   * Reads the accounts' profiles; a profile that cannot be read leaves the name alone.
   * @param {GameView} game
   */
  async load(game) {
    await Promise.all(SIDES.map(async (side) => {
      const account = accountOf(game, side);
      if (!account) return;
      try {
        this.profiles[side] = await api('GET', `/api/players/${encodeURIComponent(account)}`);
      } catch {
        // Named without a rating.
      }
    }));
  }

  /**
   * A player's rating as the game began, in its category: read back from the rating
   * after it once it counted.
   * @param {GameView} g
   * @param {Side} side
   */
  ratingBefore(g, side) {
    const profile = this.profiles[side];
    if (!profile || !g.clock) return null;
    const speed = speedOf(g.clock.control);
    const now = profile.ratings[g.variant]?.[speed];
    const after = profile.history.find((p) => p.game === g.id && p.category === `${g.variant}/${speed}`);
    const change = g.rating_changes?.[side === 'black' ? 0 : 1];
    // A rating provisional now was so before this game too, as games settle it (unless a
    // long absence since unsettled it: then the mark errs on the side of caution).
    if (after && change !== undefined) return `${after.rating - change}${now?.provisional ? '?' : ''}`;
    return now ? ratingText(now) : '1500?';
  }

  /**
   * A side's label: its colour, who plays it, their rating and its change.
   * @param {GameView} g
   * @param {Side} side
   * @param {boolean} you whether it is the person's own (and only) side
   */
  label(g, side, you) {
    const account = accountOf(g, side);
    const profile = this.profiles[side];
    const who = account
      ? h('a', { href: `/@/${account}`, class: 'player-name', 'data-testid': `player-${side}` },
        titleMark(profile?.title ?? null), account, profile?.bot ? h('span', { class: 'bot' }, 'BOT') : null)
      : sideName(g, side);
    const rating = account ? this.ratingBefore(g, side) : null;
    const change = g.rating_changes ? g.rating_changes[side === 'black' ? 0 : 1] : null;
    return h('span', {}, h('strong', {}, side === 'black' ? '● Black' : '○ White'), ' ', who,
      rating ? h('span', { class: 'muted', 'data-testid': `rating-${side}` }, ` ${rating}`) : null,
      change !== null
        ? h('span', { class: change >= 0 ? 'change up' : 'change down', 'data-testid': `rating-change-${side}` }, ` ${changeText(change)}`)
        : null,
      you ? ' (you)' : '');
  }

  /**
   * The line under the title: `5+3 · Blitz · Rated`.
   * @param {GameView} g
   */
  drawTerms(g) {
    this.termsEl.textContent = [
      g.clock ? `${clockLabel(g.clock.control)} · ${capitalized(speedOf(g.clock.control))}` : null,
      accountOf(g, 'black') || accountOf(g, 'white') ? (g.rated ? 'Rated' : 'Casual') : null,
    ].filter(Boolean).join(' · ');
  }
}
