// @ts-check
// Where the link at the foot of every e-mail leads (/mail/unsubscribe/{secret}): a button
// that stops them all. The link alone changes nothing, as a mail program that opens links
// to look at them must not unsubscribe anyone.

import { api, errorMessage } from './api.js';
import { app, h } from './dom.js';
import { capitalized } from './format.js';

/** @typedef {import('./types.js').Unsubscribed} Unsubscribed */

export class UnsubscribePage {
  /** @param {string} secret the link's */
  constructor(secret) {
    this.secret = secret;
  }

  dispose() {}

  start() {
    const said = h('p', { role: 'status', 'data-testid': 'unsubscribe-said' });
    const button = h('button', { class: 'primary', 'data-testid': 'unsubscribe' }, 'Stop the e-mails');
    button.addEventListener('click', async () => {
      button.disabled = true;
      said.className = '';
      said.textContent = '';
      try {
        /** @type {Unsubscribed} */
        const done = await api('POST', `/mail/unsubscribe/${encodeURIComponent(this.secret)}`);
        button.remove();
        said.className = 'notice';
        said.replaceChildren(`Done: loa sends no more e-mails to ${done.name}. To have them again, choose them on `,
          h('a', { href: '/account' }, 'your account page'), '.');
      } catch (err) {
        said.className = 'error';
        said.textContent = capitalized(errorMessage(err));
        button.disabled = false;
      }
    });
    app.replaceChildren(
      h('h1', {}, 'Stop the e-mails from loa?'),
      h('p', {}, 'With the button, neither an e-mail at each move nor the daily digest is sent any more to this account\'s address. Until you press it, nothing changes.'),
      h('div', { class: 'row' }, button),
      said);
  }
}
