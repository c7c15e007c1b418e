// @ts-check
// A forgotten password: the dialog that asks for a link by e-mail (from the sign-in
// dialog), and the page the link opens (/password-reset/{secret}), which sets a new
// password and signs in.

import { ApiError, api, errorMessage, meta } from './api.js';
import { app, h, modal } from './dom.js';
import { capitalized } from './format.js';
import { setAccount } from './session.js';

/**
 * @typedef {import('./types.js').Me} Me
 * @typedef {import('./types.js').ResetLink} ResetLink
 */

/** The shortest password the server takes (docs/web.md). */
const MIN_PASSWORD = 8;

/**
 * The dialog that asks for a reset link.
 * @param {string} typed what the sign-in dialog's name field held: the address, if it is one
 * @param {() => void} backToSignIn
 */
export function openResetRequest(typed, backToSignIn) {
  const email = h('input', {
    type: 'email', name: 'email', autocomplete: 'email', required: true,
    value: typed.includes('@') ? typed : '', 'data-testid': 'reset-email',
  });
  const said = h('p', { role: 'status', 'data-testid': 'reset-said' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'reset-submit' }, 'Send the link');
  const back = h('button', {
    type: 'button', class: 'link', 'data-testid': 'reset-back',
    onclick: () => { dialog.close(); backToSignIn(); },
  }, 'Back to sign in');
  const form = h('form', { class: 'auth', novalidate: true },
    h('p', { class: 'muted' }, 'Give your account\'s e-mail address: a link to choose a new password is mailed to it, if it is verified.'),
    h('label', { class: 'field' }, 'E-mail', email),
    said,
    h('div', { class: 'row' }, submit),
    h('p', { class: 'muted' }, back));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const address = email.value.trim();
    said.className = '';
    said.textContent = '';
    if (!address) {
      said.className = 'error';
      said.textContent = 'Enter the address';
      email.focus();
      return;
    }
    submit.disabled = true;
    try {
      await api('POST', '/api/password-reset', { email: address });
      said.className = 'notice';
      said.replaceChildren('If an account has this verified address, a link is on its way to ', h('strong', {}, address),
        '. It works for an hour. Nothing in your inbox? Look in the spam folder.');
    } catch (err) {
      said.className = 'error';
      said.textContent = err instanceof ApiError && err.status === 503
        ? 'This site sends no e-mail, so it cannot reset a password: a reset needs e-mail. Ask the people who run the site.'
        : capitalized(errorMessage(err));
    } finally {
      submit.disabled = false;
    }
  });
  const dialog = modal('Forgot your password?', 'reset-dialog', form);
  // A site that sends no mail says so before the address is typed, not after.
  meta().then((offered) => {
    if (offered.mail) return;
    form.replaceChildren(
      h('p', { class: 'error', 'data-testid': 'reset-no-mail' },
        'This site sends no e-mail, so it cannot mail a link to reset a password. Ask the people who run the site.'),
      h('p', { class: 'muted' }, back));
  }).catch(() => { /* the form stays: its answer will say why */ });
}

/**
 * The secrets of the links this page spent, and the account each signed in: signing in
 * draws the page again, which then says it is done rather than that the link is used.
 * @type {Map<string, string>}
 */
const spent = new Map();

/** The page a reset link opens: the new password, twice. */
export class PasswordResetPage {
  /**
   * @param {string} secret the link's
   * @param {() => void} openSignIn
   */
  constructor(secret, openSignIn) {
    this.secret = secret;
    this.openSignIn = openSignIn;
  }

  dispose() {}

  async start() {
    const name = spent.get(this.secret);
    if (name !== undefined) {
      this.showDone(name);
      return;
    }
    const path = `/api/password-reset/${encodeURIComponent(this.secret)}`;
    app.replaceChildren(h('h1', {}, 'Choose a new password'), h('p', { class: 'muted' }, 'Looking at the link…'));
    /** @type {ResetLink} */
    let link;
    try {
      link = await api('GET', path);
    } catch (err) {
      this.showRefused(err);
      return;
    }
    const password = h('input', {
      type: 'password', name: 'new-password', autocomplete: 'new-password', required: true,
      minlength: MIN_PASSWORD, 'data-testid': 'reset-password',
    });
    const again = h('input', {
      type: 'password', name: 'new-password-again', autocomplete: 'new-password', required: true,
      'data-testid': 'reset-password-again',
    });
    const said = h('p', { class: 'error', role: 'alert', 'data-testid': 'reset-error' });
    const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'reset-save' }, 'Set the password');
    const form = h('form', { class: 'auth', novalidate: true },
      // The account's name, for a password manager to keep the new password under.
      h('input', { type: 'text', name: 'username', autocomplete: 'username', value: link.name, hidden: true, readonly: true }),
      h('label', { class: 'field' }, 'New password', password, h('small', { class: 'muted' }, `At least ${MIN_PASSWORD} characters`)),
      h('label', { class: 'field' }, 'The same again', again),
      said,
      h('div', { class: 'row' }, submit));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      said.textContent = '';
      if ([...password.value].length < MIN_PASSWORD) {
        said.textContent = `A password has at least ${MIN_PASSWORD} characters`;
        password.focus();
        return;
      }
      if (again.value !== password.value) {
        said.textContent = 'The two passwords differ';
        again.select();
        return;
      }
      submit.disabled = true;
      try {
        /** @type {Me} */
        const me = await api('POST', path, { password: password.value });
        spent.set(this.secret, me.name);
        this.showDone(me.name);
        setAccount(me);
      } catch (err) {
        if (err instanceof ApiError && (err.status === 404 || err.status === 410)) {
          this.showRefused(err);
          return;
        }
        said.textContent = capitalized(errorMessage(err));
        submit.disabled = false;
      }
    });
    app.replaceChildren(
      h('h1', {}, 'Choose a new password'),
      h('p', {}, 'For the account ', h('strong', { 'data-testid': 'reset-account' }, link.name),
        '. The new password signs you in here, signs you out everywhere else, and revokes your API tokens.'),
      form);
    password.focus();
  }

  /** @param {string} name */
  showDone(name) {
    app.replaceChildren(
      h('h1', {}, 'Password changed'),
      h('p', { class: 'notice', role: 'status', 'data-testid': 'reset-done' },
        'Your new password is set, and you are signed in as ', h('a', { href: `/@/${name}` }, name),
        '. Every other session has ended, and your API tokens are revoked.'),
      h('div', { class: 'row' }, h('a', { href: '/' }, 'Go to the lobby'), h('a', { href: '/account' }, 'Your account')));
  }

  /**
   * The link works no more (or never did): why, and a new one to ask for.
   * @param {unknown} err
   */
  showRefused(err) {
    app.replaceChildren(
      h('h1', {}, 'Choose a new password'),
      h('p', { class: 'error', role: 'alert', 'data-testid': 'reset-link-error' }, capitalized(errorMessage(err))),
      h('div', { class: 'row' },
        h('button', { class: 'primary', 'data-testid': 'reset-ask-again', onclick: () => openResetRequest('', this.openSignIn) }, 'Ask for a new link'),
        h('button', { onclick: this.openSignIn }, 'Sign in')));
  }
}
