// @ts-check
// The page of `loa serve`: the lobby, a game being played or replayed, the analysis
// board, the saved games, players' profiles, the leaderboards, puzzles, tournaments,
// one's account, the page where an e-mail's link stops the e-mails and the one where a
// reset link sets a new password. It reads and changes everything
// only through the JSON API (docs/web.md) and hears changes on its WebSockets. This entry
// routes by the address; each page is a module of its own under js/.

import { startAccountSocket } from './js/account-socket.js';
import { AccountPage } from './js/account.js';
import { AnalysisPage } from './js/analysis-board.js';
import { describe, errorMessage, meta, placeOfflineBanner } from './js/api.js';
import { startInbox } from './js/challenges.js';
import { app, h } from './js/dom.js';
import { GamePage } from './js/game.js';
import { openSignIn, placeUserMenu } from './js/header.js';
import { HomePage } from './js/home.js';
import { navigate, setRouter } from './js/navigate.js';
import { showTurn } from './js/notify.js';
import { PasswordResetPage } from './js/password-reset.js';
import { PlayersPage } from './js/players.js';
import { ProfilePage } from './js/profile.js';
import { PuzzlePage } from './js/puzzle.js';
import { RulesPage } from './js/rules.js';
import { TournamentPage } from './js/tournament.js';
import { TournamentsPage } from './js/tournaments.js';
import { UnsubscribePage } from './js/unsubscribe.js';
import { loadAccount, onAccountChange } from './js/session.js';
import { refreshWaiting, startWaiting } from './js/waiting.js';

/**
 * @typedef {import('./js/analysis-board.js').LineSpec} LineSpec
 * @typedef {import('./js/types.js').Meta} Meta
 * @typedef {{ dispose(): void }} Page
 */

/** The page shown, to let go of (its sockets, timers, keys) when another is. @type {Page | null} */
let current = null;
/** How many times the page was routed: a route overtaken while it waited gives way. */
let routed = 0;

/**
 * @param {LineSpec} line
 * @param {string} title
 * @param {number} [ply]
 */
function showAnalysis(line, title, ply) {
  if (current) current.dispose();
  const page = new AnalysisPage(line, title, ply);
  current = page;
  page.start().catch((err) => { app.replaceChildren(h('p', { class: 'error' }, errorMessage(err))); });
}

/** @param {string} why */
function notFound(why) {
  app.replaceChildren(h('h1', {}, 'Not found'), h('p', { class: 'error', 'data-testid': 'page-error' }, why), h('a', { href: '/' }, 'Back to a new game'));
}

async function route() {
  if (current) current.dispose();
  current = null;
  showTurn({});
  refreshWaiting();
  const visit = ++routed;
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  const game = /^\/game\/([a-z0-9]+)$/.exec(path);
  const player = /^\/@\/([^/]+)$/.exec(path);
  const tournament = /^\/tournament\/([a-z0-9]+)$/.exec(path);
  const unsubscribe = /^\/mail\/unsubscribe\/([^/]+)$/.exec(path);
  const reset = /^\/password-reset\/([^/]+)$/.exec(path);
  const puzzle = /^\/puzzles(?:\/([a-z0-9]+))?$/.exec(path);
  /** @type {Meta} */
  let offer;
  try {
    offer = await meta();
  } catch (err) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'page-error' }, errorMessage(err)));
    return;
  }
  if (visit !== routed) return;
  try {
    if (game) {
      const page = new GamePage(offer, game[1], params.get('token'));
      current = page;
      await page.start();
    } else if (player) {
      showTurn({}, decodeURIComponent(player[1]));
      const page = new ProfilePage(offer, decodeURIComponent(player[1]));
      current = page;
      await page.start();
    } else if (tournament) {
      const page = new TournamentPage(offer, tournament[1]);
      current = page;
      await page.start();
    } else if (path === '/rules') {
      const page = new RulesPage(offer);
      current = page;
      page.start();
    } else if (path === '/tournaments') {
      showTurn({}, 'Tournaments');
      const page = new TournamentsPage(offer);
      current = page;
      await page.start();
    } else if (path === '/players') {
      showTurn({}, 'Players');
      const page = new PlayersPage(offer, params);
      current = page;
      await page.start();
    } else if (puzzle) {
      showTurn({}, 'Puzzles');
      const page = new PuzzlePage(offer, puzzle[1] || 'next', params.get('theme'), params.get('after'));
      current = page;
      await page.start();
    } else if (path === '/account') {
      showTurn({}, 'Account');
      const page = new AccountPage();
      current = page;
      await page.start();
    } else if (unsubscribe) {
      const page = new UnsubscribePage(decodeURIComponent(unsubscribe[1]));
      current = page;
      page.start();
    } else if (reset) {
      const page = new PasswordResetPage(decodeURIComponent(reset[1]), () => openSignIn('in'));
      current = page;
      await page.start();
    } else if (path === '/analysis') {
      showTurn({}, 'Analysis');
      const moves = (params.get('moves') || '').split(/\s+/).filter(Boolean);
      const variant = params.get('variant') || 'standard';
      const rules = params.get('rules') || 'draw';
      const start = params.get('position') || (await describe(variant, rules, undefined)).position;
      const ply = Number(params.get('ply'));
      showAnalysis({ variant, rules, start, moves }, params.get('title') || 'Analysis board',
        params.has('ply') && Number.isInteger(ply) && ply >= 0 ? Math.min(ply, moves.length) : undefined);
    } else if (path === '/') {
      const page = new HomePage(offer);
      current = page;
      page.start();
    } else {
      notFound('no such page');
    }
  } catch (err) {
    notFound(errorMessage(err));
  }
}

document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a') : null;
  if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
  if (a.pathname.startsWith('/api/')) return;
  e.preventDefault();
  navigate(a.pathname + a.search + a.hash);
});
window.addEventListener('popstate', route);
placeOfflineBanner(route);
setRouter(route);
// Who is signed in is known before the first page is drawn; a change draws the page
// again for the person now signed in (or out).
loadAccount().then(() => {
  placeUserMenu();
  onAccountChange(() => route());
  startAccountSocket();
  startWaiting();
  route();
  meta().then(startInbox, () => {});
});
