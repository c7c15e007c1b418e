// @ts-check
// The signed-in person's account (/account): the e-mail address and what is sent to it,
// vacations from correspondence games, the password, signing out everywhere, API tokens, their games to download, becoming a
// bot, and closing the account.

import { ApiError, api, errorMessage } from './api.js';
import { setBlocked } from './blocks.js';
import { app, h, nameLink } from './dom.js';
import { capitalized, dateAndTime, shortDate } from './format.js';
import { openSignIn } from './header.js';
import { navigate } from './navigate.js';
import { setAccount, signOut, signedIn } from './session.js';

/**
 * @typedef {import('./types.js').Block} Block
 * @typedef {import('./types.js').CreatedToken} CreatedToken
 * @typedef {import('./types.js').MailSettings} MailSettings
 * @typedef {import('./types.js').Me} Me
 * @typedef {import('./types.js').Notices} Notices
 * @typedef {import('./types.js').TokenView} TokenView
 * @typedef {import('./types.js').Vacation} Vacation
 */

/**
 * A form that does one thing: its fields, its button, and where it says how it went.
 * @param {string} testid
 * @param {(HTMLElement | string)[]} fields
 * @param {HTMLButtonElement} button
 * @param {(said: HTMLElement) => Promise<void>} act says what it did in `said`
 */
function actionForm(testid, fields, button, act) {
  const said = h('p', { role: 'status', 'data-testid': `${testid}-said` });
  return h('form', {
    'data-testid': testid, novalidate: true,
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      said.className = '';
      said.textContent = '';
      button.disabled = true;
      try {
        await act(said);
      } catch (err) {
        said.className = 'error';
        said.textContent = capitalized(errorMessage(err));
      } finally {
        button.disabled = false;
      }
    },
  }, fields, h('div', { class: 'row' }, button), said);
}

/**
 * The elements there are, for replaceChildren (which takes no null).
 * @param {(HTMLElement | null)[]} elements
 */
function present(elements) {
  return elements.filter((el) => el !== null);
}

/** The choices of what is e-mailed, in the order shown. @type {[Notices, string][]} */
const NOTICES = [['each', 'An e-mail at each move'], ['digest', 'A daily digest'], ['off', 'None']];

/**
 * What a verification link did, when it brought the person here (`?email=verified` or
 * `?email=link-expired`); the address then forgets it, so that a reload does not say it again.
 * @param {boolean} signedInNow
 */
function verificationBanner(signedInNow) {
  const outcome = new URLSearchParams(location.search).get('email');
  if (outcome !== 'verified' && outcome !== 'link-expired') return null;
  history.replaceState(null, '', location.pathname);
  if (outcome === 'verified') return h('p', { class: 'notice verified-banner', role: 'status', 'data-testid': 'email-banner' }, 'Your address is verified.');
  return h('p', { class: 'offer', role: 'status', 'data-testid': 'email-banner' },
    'That link has expired or was used already. ',
    signedInNow ? 'Ask for a new one below if the address is not verified yet.' : 'Sign in to ask for a new one.');
}

export class AccountPage {
  dispose() {}

  async start() {
    const me = signedIn();
    const banner = verificationBanner(Boolean(me));
    if (!me) {
      app.replaceChildren(...present([banner]), h('h1', {}, 'Account'),
        h('p', {}, 'Sign in to see your account.'),
        h('div', { class: 'row' },
          h('button', { class: 'primary', onclick: () => openSignIn('in') }, 'Sign in'),
          h('button', { onclick: () => openSignIn('up') }, 'Sign up')));
      return;
    }
    this.tokenList = h('div', { 'data-testid': 'tokens' });
    this.blockList = h('div', { 'data-testid': 'blocks' });
    this.mailPanel = h('section', { class: 'panel', 'data-testid': 'mail' }, h('h2', {}, 'E-mail'), h('p', { class: 'muted' }, 'Loading…'));
    this.vacationPanel = h('section', { class: 'panel', 'data-testid': 'vacation' }, h('h2', {}, 'Vacation'), h('p', { class: 'muted' }, 'Loading…'));
    this.botPanel = h('section', { class: 'panel', 'data-testid': 'bot' }, h('h2', {}, 'Bot account'), h('p', { class: 'muted' }, 'Loading…'));
    app.replaceChildren(...present([banner]),
      h('h1', {}, 'Account'),
      h('p', {}, 'Signed in as ', h('a', { href: `/@/${me.name}` }, me.name),
        me.bot ? h('span', { class: 'bot' }, 'BOT') : null,
        h('span', { class: 'muted' }, ` · since ${shortDate(me.created_at)}`)),
      this.mailPanel,
      this.vacationPanel,
      h('section', { class: 'panel' }, h('h2', {}, 'Password'),
        h('p', { class: 'muted' }, 'A new password signs out your other sessions and revokes your API tokens.'),
        this.passwordForm()),
      h('section', { class: 'panel' }, h('h2', {}, 'Sessions'),
        h('p', { class: 'muted' }, 'Signs out every browser and device signed in to this account, this one too.'),
        this.everywhereForm()),
      h('section', { class: 'panel' }, h('h2', {}, 'API tokens'),
        h('p', { class: 'muted' }, 'A program acts as you with a token: send it as "Authorization: Bearer TOKEN". '
          + 'Anyone holding it can play as you; revoke it when it is no longer used.'),
        this.tokenList, this.tokenForm()),
      h('section', { class: 'panel' }, h('h2', {}, 'Blocked players'),
        h('p', { class: 'muted' }, 'A player you block cannot challenge you or be paired with you, and their chat lines and seeks are not shown to you. '
          + 'Block one from their profile.'),
        this.blockList),
      h('section', { class: 'panel' }, h('h2', {}, 'Your games'),
        h('p', {}, h('a', { href: '/api/me/games.pgn', download: `loa-${me.name}.pgn`, 'data-testid': 'download-games' }, 'Download every game (PGN)'))),
      this.botPanel,
      h('section', { class: 'panel danger' }, h('h2', {}, 'Close the account'), this.deleteForm()));
    await Promise.all([this.loadTokens(), this.loadBlocks(), this.loadMail(), this.loadVacation(), this.loadBot(me)]);
  }

  async loadMail() {
    const panel = this.mailPanel;
    if (!panel) return;
    try {
      /** @type {MailSettings} */
      const mail = await api('GET', '/api/me/mail');
      // The address's word, not a link's: anyone can write `?email=verified`.
      if (!mail.verified) document.querySelector('.verified-banner')?.remove();
      this.drawMail(mail);
    } catch (err) {
      panel.replaceChildren(h('h2', {}, 'E-mail'), h('p', { class: 'error' }, capitalized(errorMessage(err))));
    }
  }

  /**
   * The e-mail panel, drawn again after each change.
   * @param {MailSettings} mail
   * @param {string} [news] what the last change did
   */
  drawMail(mail, news) {
    this.mailPanel?.replaceChildren(...present([h('h2', {}, 'E-mail'),
      mail.sending ? null : h('p', { 'data-testid': 'no-mail' }, h('strong', {}, 'This site sends no e-mail.'),
        ' An address you give is kept, and used if it ever does.'),
      news ? h('p', { class: 'notice', role: 'status', 'data-testid': 'mail-news' }, news) : null,
      this.addressLine(mail),
      this.noticesForm(mail),
      this.addressForm(mail)]));
  }

  /** @param {string} [news] what the last try did */
  async loadVacation(news) {
    const panel = this.vacationPanel;
    if (!panel) return;
    try {
      /** @type {Vacation} */
      const vacation = await api('GET', '/api/me/vacation');
      this.drawVacation(vacation, news);
    } catch (err) {
      panel.replaceChildren(h('h2', {}, 'Vacation'), h('p', { class: 'error' }, capitalized(errorMessage(err))));
    }
  }

  /**
   * The vacation panel: the days left, and the vacation running or a form to start one;
   * drawn again after each change.
   * @param {Vacation} vacation
   * @param {string} [news] what the last change did
   */
  drawVacation(vacation, news) {
    this.vacationPanel?.replaceChildren(...present([h('h2', {}, 'Vacation'),
      h('p', { class: 'muted' }, 'On vacation, the clocks of your correspondence games stand still while it is your move. '
        + 'Ended early, its whole days not begun come back.'),
      news ? h('p', { class: 'notice', role: 'status', 'data-testid': 'vacation-news' }, news) : null,
      h('p', { 'data-testid': 'vacation-days-left' }, `${vacation.days_left} of ${vacation.days_a_year} days left this year.`),
      vacation.until !== null ? this.endVacationForm(vacation.until)
        : vacation.days_left > 0 ? this.startVacationForm(vacation.days_left) : null]));
  }

  /**
   * A vacation of some days, from now.
   * @param {number} daysLeft
   */
  startVacationForm(daysLeft) {
    const days = h('input', { type: 'number', min: 1, max: daysLeft, value: Math.min(7, daysLeft), size: 3, 'data-testid': 'vacation-days' });
    return actionForm('vacation-form', [h('label', {}, 'A vacation of ', days, ' days')],
      h('button', { type: 'submit', 'data-testid': 'start-vacation' }, 'Start the vacation'), async () => {
        const n = Number(days.value);
        if (!Number.isInteger(n) || n < 1 || n > daysLeft) throw new Error(`A vacation is from 1 to ${daysLeft} days`);
        const vacation = await this.changeVacation('POST', { days: n });
        this.drawVacation(vacation, 'The vacation has begun.');
      });
  }

  /** @param {number} until when the vacation running ends */
  endVacationForm(until) {
    return h('div', {},
      h('p', { 'data-testid': 'vacation-until' }, h('strong', {}, `On vacation until ${dateAndTime(until)}.`)),
      actionForm('end-vacation-form', [], h('button', { type: 'submit', 'data-testid': 'end-vacation' }, 'End the vacation'), async () => {
        const vacation = await this.changeVacation('DELETE');
        this.drawVacation(vacation, 'The vacation is over: your clocks run again, and its days not begun are back.');
      }));
  }

  /**
   * Starts or ends the vacation. A 409 means another tab did it first: the panel shows
   * how things are, with the refusal.
   * @param {'POST' | 'DELETE'} method
   * @param {{ days: number }} [body]
   * @returns {Promise<Vacation>}
   */
  async changeVacation(method, body) {
    try {
      return await api(method, '/api/me/vacation', body);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) await this.loadVacation(capitalized(errorMessage(err)));
      throw err;
    }
  }

  /**
   * The address, whether it is verified, and the verification link to ask for again.
   * @param {MailSettings} mail
   */
  addressLine(mail) {
    if (!mail.email) {
      return h('p', { 'data-testid': 'mail-address' }, 'No address.',
        mail.sending ? h('span', { class: 'muted' }, ' Give one to be told by e-mail when it is your move.') : null);
    }
    const line = h('p', { 'data-testid': 'mail-address' }, h('strong', {}, mail.email), ' · ',
      mail.verified ? h('span', { 'data-testid': 'mail-verified' }, 'verified') : h('span', { 'data-testid': 'mail-unverified' }, 'not verified yet'));
    if (mail.verified || !mail.sending) return line;
    const said = h('span', { role: 'status', 'data-testid': 'resend-said' });
    const resend = h('button', { type: 'button', 'data-testid': 'resend-link' }, 'Send the link again');
    resend.addEventListener('click', async () => {
      resend.disabled = true;
      said.className = '';
      try {
        await api('POST', '/api/me/mail/verify');
        said.textContent = 'Sent: open the link in it to verify the address.';
      } catch (err) {
        said.className = 'error';
        said.textContent = capitalized(errorMessage(err));
      } finally {
        resend.disabled = false;
      }
    });
    return h('div', {}, line,
      h('p', { class: 'muted' }, 'Nothing is sent to it but the link to verify it, until you open that link.'),
      h('div', { class: 'row' }, resend, said));
  }

  /**
   * What is sent of the games waiting for the person's move: saved when chosen.
   * @param {MailSettings} mail
   */
  noticesForm(mail) {
    const said = h('p', { role: 'status', 'data-testid': 'notices-said' });
    const choices = NOTICES.map(([value, text]) => {
      const input = h('input', { type: 'radio', name: 'notices', value, checked: mail.notices === value, 'data-testid': `notices-${value}` });
      return { input, label: h('label', {}, input, text) };
    });
    const fieldset = h('fieldset', { 'data-testid': 'notices', disabled: !mail.sending },
      h('legend', {}, 'When it is your move in a game'),
      h('div', { class: 'row' }, choices.map((c) => c.label)),
      mail.sending && mail.email && !mail.verified ? h('p', { class: 'muted small' }, 'They are sent once the address is verified.') : null,
      mail.sending && mail.replies ? h('p', { class: 'muted small' }, 'Reply to a your-move e-mail with your move to play it.') : null,
      said);
    fieldset.addEventListener('change', async (e) => {
      const chosen = e.target instanceof HTMLInputElement ? /** @type {Notices} */ (e.target.value) : null;
      if (!chosen) return;
      said.className = '';
      said.textContent = '';
      fieldset.disabled = true;
      try {
        /** @type {MailSettings} */
        const now = await api('PUT', '/api/me/mail', { notices: chosen });
        mail.notices = now.notices;
        said.textContent = 'Saved.';
      } catch (err) {
        said.className = 'error';
        said.textContent = capitalized(errorMessage(err));
      } finally {
        fieldset.disabled = !mail.sending;
        for (const c of choices) c.input.checked = c.input.value === mail.notices;
      }
    });
    return fieldset;
  }

  /**
   * A new address (or none), confirmed with the password.
   * @param {MailSettings} mail
   */
  addressForm(mail) {
    const email = h('input', { type: 'email', autocomplete: 'email', maxlength: 254, 'data-testid': 'new-email' });
    const password = h('input', { type: 'password', autocomplete: 'current-password', 'data-testid': 'email-password' });
    return actionForm('email-form', [
      h('label', { class: 'field' }, mail.email ? 'New address (leave it empty to remove the address)' : 'Address', email),
      h('label', { class: 'field' }, 'Your password, to confirm', password),
    ], h('button', { type: 'submit', 'data-testid': 'change-email' }, mail.email ? 'Change the address' : 'Add the address'), async () => {
      const address = email.value.trim();
      if (!address && !mail.email) throw new Error('Enter an address');
      if (!password.value) throw new Error('Enter your password to confirm');
      /** @type {MailSettings} */
      const now = await api('PUT', '/api/me/mail', { email: address, password: password.value });
      const news = !now.email ? 'The address is removed.'
        : now.sending && !now.verified ? `A link to verify the address was sent to ${now.email}.` : 'The address is saved.';
      this.drawMail(now, news);
    });
  }

  passwordForm() {
    const current = h('input', { type: 'password', autocomplete: 'current-password', 'data-testid': 'current-password' });
    const next = h('input', { type: 'password', autocomplete: 'new-password', 'data-testid': 'new-password' });
    const again = h('input', { type: 'password', autocomplete: 'new-password', 'data-testid': 'new-password-again' });
    return actionForm('password-form', [
      h('label', { class: 'field' }, 'Current password', current),
      h('label', { class: 'field' }, 'New password (at least 8 characters)', next),
      h('label', { class: 'field' }, 'New password again', again),
    ], h('button', { type: 'submit', class: 'primary' }, 'Change the password'), async (said) => {
      if (next.value !== again.value) throw new Error('The new passwords differ');
      await api('POST', '/api/me/password', { current: current.value, new: next.value });
      for (const field of [current, next, again]) field.value = '';
      said.textContent = 'Password changed. Your other sessions were signed out and your API tokens revoked.';
      await this.loadTokens();
    });
  }

  everywhereForm() {
    return actionForm('everywhere-form', [], h('button', { type: 'submit', 'data-testid': 'sign-out-everywhere' }, 'Sign out everywhere'), async () => {
      if (!window.confirm('Sign out of every browser and device, this one too?')) return;
      await signOut(true);
      navigate('/');
    });
  }

  tokenForm() {
    const label = h('input', { maxlength: 60, placeholder: 'what it is for, e.g. my bot', 'data-testid': 'token-label' });
    return actionForm('token-form', [h('label', { class: 'field' }, 'Label', label)],
      h('button', { type: 'submit', 'data-testid': 'create-token' }, 'Make a token'), async (said) => {
        /** @type {CreatedToken} */
        const made = await api('POST', '/api/tokens', { label: label.value });
        label.value = '';
        const field = h('input', { readonly: true, value: made.token, class: 'token', 'data-testid': 'new-token', 'aria-label': 'the new token' });
        field.addEventListener('click', () => field.select());
        said.className = 'offer';
        said.replaceChildren(
          h('strong', {}, `Token "${made.label}": copy it now, it is not shown again.`), field,
          h('button', { type: 'button', onclick: async () => { try { await navigator.clipboard.writeText(made.token); } catch { field.select(); } } }, 'Copy'));
        await this.loadTokens();
      });
  }

  async loadBlocks() {
    const list = this.blockList;
    if (!list) return;
    try {
      /** @type {Block[]} */
      const blocks = await api('GET', '/api/me/blocks');
      if (blocks.length === 0) {
        list.replaceChildren(h('p', { class: 'muted' }, 'Nobody.'));
        return;
      }
      list.replaceChildren(h('table', {},
        h('tbody', {}, blocks.map((b) => h('tr', { 'data-testid': 'block' },
          h('td', {}, nameLink(b.name)),
          h('td', {}, `since ${shortDate(b.created_at)}`),
          h('td', {}, h('button', {
            'data-testid': 'unblock',
            onclick: async () => {
              try {
                await setBlocked(b.name, false);
              } catch (err) {
                window.alert(errorMessage(err));
              }
              await this.loadBlocks();
            },
          }, 'Unblock')))))));
    } catch (err) {
      list.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
    }
  }

  async loadTokens() {
    const list = this.tokenList;
    if (!list) return;
    try {
      /** @type {TokenView[]} */
      const tokens = await api('GET', '/api/tokens');
      if (tokens.length === 0) {
        list.replaceChildren(h('p', { class: 'muted' }, 'No tokens.'));
        return;
      }
      list.replaceChildren(h('table', {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Label'), h('th', {}, 'Made'), h('th', {}, 'Last used'), h('th', {}, ''))),
        h('tbody', {}, tokens.map((t) => h('tr', { 'data-testid': 'token' },
          h('td', { class: 'typed', 'data-testid': 'token-label-shown' }, t.label),
          h('td', {}, shortDate(t.created_at)),
          h('td', {}, t.used_at ? shortDate(t.used_at) : 'never'),
          h('td', {}, h('button', {
            'data-testid': 'revoke-token',
            onclick: async () => {
              if (!window.confirm(`Revoke the token "${t.label}"? A program using it can no longer act.`)) return;
              try {
                await api('DELETE', `/api/tokens/${t.id}`);
              } catch (err) {
                window.alert(errorMessage(err));
              }
              await this.loadTokens();
            },
          }, 'Revoke')))))));
    } catch (err) {
      list.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
    }
  }

  /**
   * Offers to make the account a bot only where the server would: an account without games.
   * @param {Me} me
   */
  async loadBot(me) {
    const panel = this.botPanel;
    if (!panel) return;
    const heading = h('h2', {}, 'Bot account');
    if (me.bot) {
      panel.replaceChildren(heading, h('p', {}, 'This account is a bot: a program plays its games through its API tokens.'));
      return;
    }
    try {
      /** @type {unknown[]} */
      const games = await api('GET', '/api/me/games?limit=1');
      panel.replaceChildren(heading, games.length
        ? h('p', { class: 'muted', 'data-testid': 'bot-not-offered' },
          'A bot account is played by a program through its API tokens. This account has played games, '
          + 'so it cannot become one: make a new account for your bot.')
        : this.botForm());
    } catch (err) {
      panel.replaceChildren(heading, h('p', { class: 'error' }, errorMessage(err)));
    }
  }

  botForm() {
    return actionForm('bot-form', [h('p', { class: 'muted' },
      'A bot account is played by a program through its API tokens and is marked BOT. Only an account that has played no game '
      + 'can become one, and it cannot go back.')],
    h('button', { type: 'submit', 'data-testid': 'become-bot' }, 'Make this a bot account'), async () => {
      if (!window.confirm('Make this account a bot? This cannot be undone.')) return;
      /** @type {Me} */
      const now = await api('POST', '/api/me/bot');
      setAccount(now);
    });
  }

  deleteForm() {
    const password = h('input', { type: 'password', autocomplete: 'current-password', 'data-testid': 'delete-password' });
    return actionForm('delete-form', [
      h('p', { class: 'muted' }, 'Your games stay, under an anonymous name; your name, ratings and tokens go. This cannot be undone.'),
      h('label', { class: 'field' }, 'Your password, to confirm', password),
    ], h('button', { type: 'submit', class: 'danger', 'data-testid': 'delete-account' }, 'Close my account'), async () => {
      if (!password.value) throw new Error('Enter your password to confirm');
      if (!window.confirm('Close your account for good?')) return;
      await api('DELETE', '/api/me', { password: password.value });
      setAccount(null);
      navigate('/');
    });
  }
}
