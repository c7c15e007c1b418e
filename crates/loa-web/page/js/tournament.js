// @ts-check
// One tournament (/tournament/ID): what it is, join, withdraw or start it, the standings
// with their tie-breaks, a crosstable round by round, and each round's pairings with
// links to the games; kept live over the tournament's socket.

import { api, ApiError, errorMessage, socketUrl } from './api.js';
import { app, h, nameLink } from './dom.js';
import { clockLabel, gameTitle, sameName } from './format.js';
import { navigate } from './navigate.js';
import { signedIn } from './session.js';
import { formatLabel, when } from './tournaments.js';

/**
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Tournament} Tournament
 * @typedef {import('./types.js').TournamentPairing} TournamentPairing
 */

/** @param {number} points */
function pointsText(points) {
  const whole = Math.floor(points);
  const half = points - whole >= 0.5 ? '½' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
}

/**
 * Whether the account signed in plays the pairing.
 * @param {TournamentPairing} p
 * @param {{ name: string } | null} me
 */
function playsIn(p, me) {
  return Boolean(me && (sameName(p.black, me.name) || sameName(p.white, me.name)));
}

/**
 * Whether the person's latest game in the tournament was lost without a move of theirs.
 * @param {Tournament} t
 * @param {{ name: string } | null} me
 */
function lostLastWithoutMove(t, me) {
  const last = t.pairings.filter((p) => playsIn(p, me)).at(-1);
  if (!last?.forfeit) return false;
  const loser = last.result === '1-0' ? last.white : last.result === '0-1' ? last.black : null;
  return sameName(loser, me?.name);
}

/**
 * What joining a running tournament means, or, for one who joined late, when they play.
 * @param {Tournament} t
 * @param {boolean} canJoin
 * @param {boolean} playing
 * @param {{ name: string } | null} me
 */
function lateJoinWords(t, canJoin, playing, me) {
  if (t.status !== 'running') return null;
  if (canJoin && t.format === 'arena' && lostLastWithoutMove(t, me)) {
    return 'You were paused after a game you did not start, so that nobody waits for you: join again when you are back at the board.';
  }
  if (canJoin) {
    /** @type {Partial<Record<Tournament['format'], string>>} */
    const words = {
      swiss: 'Joining now, you are paired from the next round, with no points for the rounds already played.',
      league: 'Joining now, you play from the next season, in the lowest division.',
      arena: 'Joining now, you are paired as soon as another player is free.',
    };
    return words[t.format] ?? null;
  }
  const inThisRound = t.pairings.some((p) => p.round === t.round && (playsIn(p, me) || sameName(p.bye, me?.name)));
  if (!playing || inThisRound) return null;
  if (t.format === 'swiss') return `You are paired from round ${t.round + 1}.`;
  if (t.format === 'league') return `You play from season ${t.round + 1}.`;
  return null;
}

export class TournamentPage {
  /**
   * @param {Meta} meta
   * @param {string} id
   */
  constructor(meta, id) {
    this.meta = meta;
    this.id = id;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.closed = false;
    this.error = h('p', { class: 'error', role: 'alert', 'data-testid': 'tournament-action-error' });
  }

  dispose() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }

  async start() {
    /** @type {Tournament} */
    const t = await api('GET', `/api/tournaments/${encodeURIComponent(this.id)}`);
    this.show(t);
    this.connect();
  }

  connect(delay = 1000) {
    if (this.closed) return;
    const socket = new WebSocket(socketUrl(`/api/tournaments/${encodeURIComponent(this.id)}/socket`));
    this.socket = socket;
    let opened = false;
    socket.onopen = () => { opened = true; };
    socket.onmessage = (e) => { this.show(JSON.parse(e.data)); };
    socket.onclose = async () => {
      if (this.closed) return;
      // The server closes the socket of a tournament that is gone: its creator cancelled it.
      if (opened && await this.isGone()) return;
      setTimeout(() => this.connect(opened ? 1000 : Math.min(delay * 2, 15000)), opened ? 500 : delay);
    };
  }

  /** Whether the tournament is gone (cancelled), said on the page if so. */
  async isGone() {
    try {
      await api('GET', `/api/tournaments/${encodeURIComponent(this.id)}`);
      return false;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) return false;
      this.closed = true;
      app.replaceChildren(
        h('h1', {}, 'Tournament cancelled'),
        h('p', { 'data-testid': 'tournament-cancelled' }, 'Its creator cancelled it before it started. ',
          h('a', { href: '/tournaments' }, 'Other tournaments')));
      return true;
    }
  }

  /** Its creator calls the tournament off, before it starts. */
  async cancel() {
    if (!window.confirm('Cancel this tournament? It is deleted, with its list of players.')) return;
    this.error.textContent = '';
    try {
      this.closed = true;
      await api('DELETE', `/api/tournaments/${encodeURIComponent(this.id)}`);
      navigate('/tournaments');
    } catch (err) {
      this.closed = false;
      this.error.textContent = errorMessage(err);
    }
  }

  /**
   * @param {'join' | 'withdraw' | 'start'} action
   */
  async act(action) {
    this.error.textContent = '';
    try {
      this.show(await api('POST', `/api/tournaments/${encodeURIComponent(this.id)}/${action}`));
    } catch (err) {
      this.error.textContent = errorMessage(err);
    }
  }

  /** @param {Tournament} t */
  show(t) {
    const me = signedIn();
    const mine = me ? t.standings.find((s) => sameName(s.name, me.name)) : undefined;
    const playing = Boolean(mine && mine.active);
    // A round robin's table is fixed at its start; the other formats take late joiners,
    // and those who withdrew, again.
    const canJoin = me && !playing && (t.status === 'open' || (t.status === 'running' && t.format !== 'round-robin'));
    const withdraw = () => {
      const lost = t.format === 'round-robin' ? ' A game you are playing is lost, and the rest are forfeits.' : '';
      if (t.status === 'running' && !window.confirm(`Withdraw from ${t.name}? You will not be paired again.${lost}`)) return;
      this.act('withdraw');
    };
    const actions = h('div', { class: 'row' },
      canJoin ? h('button', { class: 'primary', 'data-testid': 'join-tournament', onclick: () => this.act('join') }, mine ? 'Join again' : 'Join') : null,
      me && playing && t.status !== 'finished' ? h('button', { 'data-testid': 'withdraw-tournament', onclick: withdraw }, 'Withdraw') : null,
      me && t.status === 'open' && sameName(t.creator, me.name)
        ? h('button', { class: 'primary', 'data-testid': 'start-tournament', onclick: () => this.act('start') }, 'Start now') : null,
      me && t.status === 'open' && !t.championship && sameName(t.creator, me.name)
        ? h('button', { 'data-testid': 'cancel-tournament', onclick: () => this.cancel() }, 'Cancel tournament') : null,
      !me && t.status !== 'finished' ? h('span', { class: 'muted' }, 'Sign in to play in it.') : null);
    const late = lateJoinWords(t, Boolean(canJoin), playing, me);
    const id = encodeURIComponent(t.id);
    // The game the player has to play now, pointed out above all.
    const ownGame = t.pairings.find((p) => p.game && !p.result && playsIn(p, me));
    app.replaceChildren(
      h('h1', { 'data-testid': 'tournament-name' }, t.name),
      h('p', { class: 'muted', 'data-testid': 'tournament-facts' },
        `${formatLabel(t)} · ${gameTitle(this.meta, t.variant)} · ${clockLabel(t.clock)} · ${t.rated ? 'rated' : 'casual'} · by `,
        h('a', { href: `/@/${t.creator}` }, t.creator)),
      h('p', { 'data-testid': 'tournament-status' }, h('strong', {}, { open: 'Open', running: 'Playing', finished: 'Finished' }[t.status]), ` · ${when(t)} · ${t.players} ${t.players === 1 ? 'player' : 'players'}`),
      actions,
      late ? h('p', { class: 'muted small', 'data-testid': 'late-join' }, late) : '',
      ownGame ? h('p', { class: 'your-game', 'data-testid': 'your-game' }, 'Your game is on: ',
        h('a', { class: 'button primary', href: `/game/${ownGame.game}` }, 'Play it')) : '',
      this.error,
      h('h2', {}, t.format === 'league' && t.round > 0 ? `Season ${t.round}` : 'Standings'),
      this.standings(t),
      // A league's earlier seasons, the latest first, folded.
      ...(t.seasons ?? []).slice().reverse().map((s) => h('details', { class: 'season', 'data-testid': 'earlier-season' },
        h('summary', {}, `Season ${s.season}: final standings`),
        this.standings({ ...t, standings: s.standings }))),
      // An arena pairs in waves and a league plays a season at once: no round columns.
      ...(t.round > 0 && (t.format === 'swiss' || t.format === 'round-robin') ? [h('h2', {}, 'Crosstable'), this.crosstable(t)] : []),
      ...(t.round > 0 ? [h('h2', {}, 'Pairings'), this.pairings(t)] : []),
      t.round > 0 ? h('p', {}, h('a', { href: `/api/tournaments/${id}/games.pgn`, download: '' }, 'All games (PGN)'), ' · ',
        h('a', { href: `/api/tournaments/${id}/standings.csv`, download: '' }, 'Standings (CSV)')) : '');
  }

  /** @param {Tournament} t */
  standings(t) {
    if (t.standings.length === 0) return h('p', { class: 'muted' }, 'Nobody has joined yet.');
    // An arena ranks by its own points alone: tie-breaks of a round's pairings say nothing there.
    const tieBreaks = t.format !== 'arena';
    return h('table', { class: 'standings', 'data-testid': 'standings' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), t.format === 'league' ? h('th', { title: 'Division this season' }, 'Div') : null, h('th', {}, 'Player'), h('th', {}, 'Points'),
        tieBreaks ? h('th', { title: 'Sonneborn-Berger: the points of the players one beat, and half those of the players one drew with' }, 'SB') : null,
        tieBreaks ? h('th', { class: 'wide', title: 'Buchholz: the points of all one\'s opponents' }, 'Bh') : null,
        h('th', { class: 'wide' }, 'W'), h('th', { class: 'wide' }, 'D'), h('th', { class: 'wide' }, 'L'), h('th', { class: 'wide' }, 'Rating'),
        // On a phone the three counts share one column.
        h('th', { class: 'narrow-cell', title: 'Wins, draws and losses' }, 'W-D-L'))),
      h('tbody', {}, t.standings.map((s) => h('tr', { 'data-testid': 'standing', class: s.active ? null : 'withdrawn' },
        h('td', {}, s.rank),
        t.format === 'league' ? h('td', {}, s.division ?? '–') : null,
        h('td', {}, nameLink(s.name), s.active ? '' : h('span', { class: 'muted small' }, ' withdrawn')),
        h('td', {}, h('strong', {}, pointsText(s.points))),
        tieBreaks ? h('td', {}, s.sonneborn_berger) : null,
        tieBreaks ? h('td', { class: 'wide' }, s.buchholz) : null,
        h('td', { class: 'wide' }, s.wins), h('td', { class: 'wide' }, s.draws), h('td', { class: 'wide' }, s.losses),
        h('td', { class: 'wide' }, s.rating),
        h('td', { class: 'narrow-cell', 'data-testid': 'standing-record' }, `${s.wins}-${s.draws}-${s.losses}`)))));
  }

  /**
   * Each player's rounds: the result, the opponent's rank and the colour (● Black).
   * @param {Tournament} t
   */
  crosstable(t) {
    const rank = new Map(t.standings.map((s) => [s.name, s.rank]));
    const rounds = Array.from({ length: t.round }, (_, i) => i + 1);
    /** @type {Map<string, Map<number, string>>} */
    const cells = new Map(t.standings.map((s) => [s.name, new Map()]));
    for (const p of t.pairings) {
      if (p.bye) {
        cells.get(p.bye)?.set(p.round, `${pointsText(p.points ?? 0)} bye`);
        continue;
      }
      if (!p.black || !p.white) continue;
      /** @type {[string, string, string][]} */
      const sides = [[p.black, p.white, '●'], [p.white, p.black, '○']];
      for (const [player, opponent, mark] of sides) {
        const score = p.result == null ? '…'
          : p.result === '1/2-1/2' ? '½' : (p.result === '1-0') === (player === p.black) ? '1' : '0';
        cells.get(player)?.set(p.round, `${score} ${mark}${rank.get(opponent) ?? '?'}${p.forfeit ? ' ff' : ''}`);
      }
    }
    return h('div', { class: 'scroll-x' }, h('table', { class: 'crosstable', 'data-testid': 'crosstable' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), rounds.map((r) => h('th', {}, `R${r}`)), h('th', {}, 'Pts'))),
      h('tbody', {}, t.standings.map((s) => h('tr', {},
        h('td', {}, s.rank), h('td', {}, h('span', { class: 'name-cut', title: s.name }, s.name)),
        rounds.map((r) => h('td', {}, cells.get(s.name)?.get(r) ?? '')),
        h('td', {}, h('strong', {}, pointsText(s.points))))))));
  }

  /**
   * The rounds, the latest first.
   * @param {Tournament} t
   */
  pairings(t) {
    const me = signedIn();
    /** @type {Map<number, TournamentPairing[]>} */
    const byRound = new Map();
    for (const p of t.pairings) byRound.set(p.round, [...(byRound.get(p.round) ?? []), p]);
    const rounds = [...byRound.keys()].sort((a, b) => b - a);
    return h('div', { 'data-testid': 'pairings' }, rounds.map((r) => h('details', { open: r === t.round },
      h('summary', {}, `${t.format === 'league' ? 'Season' : t.format === 'arena' ? 'Wave' : 'Round'} ${r}`),
      h('table', { class: 'pairings' }, h('tbody', {}, (byRound.get(r) ?? []).map((p) => p.bye
        ? h('tr', { 'data-testid': 'pairing' }, h('td', {}, p.board), h('td', { colspan: 3 }, `${p.bye}: bye (${pointsText(p.points ?? 0)})`))
        : h('tr', { 'data-testid': 'pairing' },
          h('td', {}, p.board),
          h('td', {}, '● ', p.black ?? '?', ' – ○ ', p.white ?? '?'),
          h('td', { class: 'result' }, p.result ?? 'playing', p.forfeit ? ' (forfeit)' : ''),
          h('td', {}, p.game ? h('a', { href: `/game/${p.game}`, 'data-testid': 'pairing-game' }, p.result ? 'Replay' : playsIn(p, me) ? 'Play' : 'Watch') : ''))))))));
  }
}
