// @ts-check
// The header's account corner: "Sign in" and "Sign up" (one dialog, the API's errors in
// it, and "Forgot your password?"), or the signed-in name (a link to the profile),
// "Account" and "Sign out".

import { errorMessage, meta } from './api.js';
import { h, modal } from './dom.js';
import { capitalized } from './format.js';
import { openResetRequest } from './password-reset.js';
import { onAccountChange, signIn, signOut, signUp, signedIn } from './session.js';

/** @typedef {'in' | 'up'} Mode */

/** The header's corner, drawn again whenever the account changes. */
export function placeUserMenu() {
  const corner = document.getElementById('user');
  if (!corner) return;
  const draw = () => {
    const me = signedIn();
    if (!me) {
      corner.replaceChildren(
        h('button', { class: 'link', 'data-testid': 'sign-in', onclick: () => openSignIn('in') }, 'Sign in'),
        h('button', { class: 'primary', 'data-testid': 'sign-up', onclick: () => openSignIn('up') }, 'Sign up'));
      return;
    }
    corner.replaceChildren(
      h('a', { href: `/@/${me.name}`, class: 'me', 'data-testid': 'me' }, me.name, me.bot ? h('span', { class: 'bot' }, 'BOT') : null),
      h('a', { href: '/account', 'data-testid': 'account-link' }, 'Account'),
      h('button', {
        class: 'link', 'data-testid': 'sign-out',
        onclick: async () => {
          try {
            await signOut();
          } catch (err) {
            window.alert(errorMessage(err));
          }
        },
      }, 'Sign out'));
  };
  onAccountChange(draw);
  draw();
}

/**
 * The dialog to sign in or sign up; each can switch to the other.
 * @param {Mode} mode
 */
export function openSignIn(mode) {
  const name = h('input', { name: 'username', autocomplete: 'username', required: true, maxlength: 20, 'data-testid': 'auth-name' });
  const password = h('input', { type: 'password', name: 'password', required: true, 'data-testid': 'auth-password' });
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'email', 'data-testid': 'auth-email' });
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'auth-error' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'auth-submit' });
  const switchText = h('span', {});
  const switchButton = h('button', { type: 'button', class: 'link', 'data-testid': 'auth-switch' });
  const nameHint = h('small', { class: 'muted' }, '2 to 20 characters: letters, digits, _ and -');
  const passwordHint = h('small', { class: 'muted' }, 'At least 8 characters');
  const emailHint = h('small', { class: 'muted', 'data-testid': 'auth-email-hint' });
  const emailRow = h('label', { class: 'field' }, 'E-mail (optional, never shown)', email, emailHint);
  meta().then((offered) => {
    emailHint.textContent = offered.mail
      ? 'To reset a forgotten password, and for the notices you choose'
      : 'This site sends no e-mail yet: keep your password safe, it cannot be reset by mail';
  }).catch(() => { /* no hint */ });
  const forgot = h('p', { class: 'muted' }, h('button', {
    type: 'button', class: 'link', 'data-testid': 'auth-forgot',
    onclick: () => { dialog.close(); openResetRequest(name.value.trim(), () => openSignIn('in')); },
  }, 'Forgot your password?'));
  const form = h('form', { class: 'auth', novalidate: true },
    h('label', { class: 'field' }, 'Name', name, nameHint),
    h('label', { class: 'field' }, 'Password', password, passwordHint),
    forgot,
    emailRow,
    error,
    h('div', { class: 'row' }, submit),
    h('p', { class: 'muted' }, switchText, ' ', switchButton));
  let current = mode;
  const show = () => {
    const up = current === 'up';
    dialog.querySelector('h2')?.replaceChildren(up ? 'Sign up' : 'Sign in');
    dialog.setAttribute('aria-label', up ? 'Sign up' : 'Sign in');
    submit.textContent = up ? 'Sign up' : 'Sign in';
    switchText.textContent = up ? 'Have an account?' : 'New here?';
    switchButton.textContent = up ? 'Sign in' : 'Sign up';
    for (const el of [nameHint, passwordHint, emailRow]) el.classList.toggle('hidden', !up);
    forgot.classList.toggle('hidden', up);
    password.autocomplete = up ? 'new-password' : 'current-password';
    error.textContent = '';
  };
  switchButton.addEventListener('click', () => {
    current = current === 'up' ? 'in' : 'up';
    show();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    if (!name.value.trim() || !password.value) {
      error.textContent = 'Enter a name and a password';
      (name.value.trim() ? password : name).focus();
      return;
    }
    submit.disabled = true;
    try {
      if (current === 'up') await signUp(name.value.trim(), password.value, email.value.trim());
      else await signIn(name.value.trim(), password.value);
      // The page one was on stays, shown again for the account.
      dialog.close();
    } catch (err) {
      error.textContent = capitalized(errorMessage(err));
      password.select();
    } finally {
      submit.disabled = false;
    }
  });
  const dialog = modal('Sign in', 'auth-dialog', form);
  show();
}
