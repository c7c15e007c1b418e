// @ts-check
// A game's chat: what its players said, for everyone watching, and a line to say for a
// seat this browser holds. The lines come in the game's view; each is shown as text.
// Anyone may hide it (kept in this browser).

import { api, errorMessage } from './api.js';
import { blockedNames, isBlocked } from './blocks.js';
import { h } from './dom.js';

/** @typedef {import('./types.js').GameView} GameView */
/** @typedef {import('./types.js').ChatLine} ChatLine */

const HIDDEN_KEY = 'loa-chat-hidden';

export class GameChat {
  /**
   * @param {string} id the game's id
   * @param {() => { token?: string } | null} speaker the token to speak with (none:
   *   the session), or null when this browser holds no seat
   */
  constructor(id, speaker) {
    this.id = id;
    this.speaker = speaker;
    /** The game last shown. @type {GameView | null} */
    this.game = null;
    blockedNames().then(() => { if (this.game) this.update(this.game); });
    this.hidden = localStorage.getItem(HIDDEN_KEY) === '1';
    this.linesEl = h('ol', { class: 'chat-lines', 'data-testid': 'chat-lines' });
    this.input = /** @type {HTMLInputElement} */ (h('input', {
      type: 'text', maxlength: '140', placeholder: 'Say something', 'aria-label': 'chat line', 'data-testid': 'chat-input',
    }));
    this.error = h('p', { class: 'error', 'data-testid': 'chat-error' });
    this.form = h('form', { class: 'row', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.say(); } },
      this.input, h('button', { type: 'submit' }, 'Say'));
    this.toggle = h('button', { class: 'link', 'data-testid': 'chat-toggle', onclick: () => this.setHidden(!this.hidden) });
    this.body = h('div', {}, this.linesEl, this.form, this.error);
    this.el = h('section', { class: 'chat', 'data-testid': 'chat' },
      h('div', { class: 'row spread' }, h('h2', {}, 'Chat'), this.toggle), this.body);
    this.setHidden(this.hidden);
  }

  /** @param {boolean} hidden */
  setHidden(hidden) {
    this.hidden = hidden;
    localStorage.setItem(HIDDEN_KEY, hidden ? '1' : '0');
    this.body.classList.toggle('hidden', hidden);
    this.toggle.textContent = hidden ? 'Show' : 'Hide';
  }

  /** @param {GameView} game */
  update(game) {
    this.game = game;
    // A game at one board or against the engine has nobody to talk to.
    this.el.classList.toggle('hidden', !game.online);
    // The lines of a player the person blocks are not shown to them.
    const lines = (game.chat || []).filter((line) => !isBlocked(line.name));
    this.linesEl.replaceChildren(...lines.map((line) =>
      h('li', {}, h('b', {}, line.name || line.slot), ' ', line.text)));
    this.linesEl.scrollTop = this.linesEl.scrollHeight;
    this.form.classList.toggle('hidden', this.speaker() === null);
  }

  async say() {
    const speaker = this.speaker();
    const text = this.input.value.trim();
    if (!speaker || !text) return;
    this.error.textContent = '';
    try {
      await api('POST', `/api/games/${this.id}/chat`, { text, ...speaker });
      this.input.value = '';
    } catch (err) {
      this.error.textContent = errorMessage(err);
    }
  }
}
