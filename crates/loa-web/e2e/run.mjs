// End-to-end tests of the page in Debian's chromium: node run.mjs BASE_URL SCREENSHOT_DIR
// Each scenario drives the page as a person would (clicks, keys, two browsers for an
// online game) and checks what the page and the API show.

import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';

const [base, shots = '.'] = process.argv.slice(2);
if (!base) {
  console.error('usage: node run.mjs BASE_URL [SCREENSHOT_DIR]');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// The contexts a scenario opened: closed after it, so that no page of one scenario goes
// on using the server's engines (an analysis runs until its page leaves) in the next.
const contexts = [];

async function newPage(viewport = { width: 1100, height: 850 }) {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

// The new game form, opened from the lobby as a person would.
async function openNewGame(page) {
  await page.goto(base);
  await page.click('[data-testid=play-computer]');
  await page.waitForSelector('[data-testid=new-game-dialog] [data-testid=start]');
}

async function gameOf(page) {
  const id = new URL(page.url()).pathname.split('/').pop();
  return page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}`)).json(), id);
}

async function clickSquare(page, square) {
  await page.click(`[data-testid=board] rect[data-square=${square}]`);
}

// Plays the move `m` (from the API's list) by clicking its squares.
async function clickMove(page, m) {
  if (m.from) {
    await clickSquare(page, m.from);
    await clickSquare(page, m.to);
  }
  if (m.drop) await clickSquare(page, m.drop);
  if (!m.from && !m.drop) await page.click('[data-testid=pass]');
}

async function waitForPly(page, ply) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=moves] button[data-ply]').length >= n, ply, { timeout: 30000 });
}

// A name no earlier run took: the tests may share a database.
const stamp = Date.now().toString(36).slice(-6);
const PASSWORD = 'a long password';

// Signs up from the header's dialog; the header then names the account.
async function signUp(page, name) {
  await page.click('[data-testid=sign-up]');
  await page.fill('[data-testid=auth-name]', name);
  await page.fill('[data-testid=auth-password]', PASSWORD);
  await page.click('[data-testid=auth-submit]');
  await page.waitForFunction((n) => document.querySelector('[data-testid=me]')?.textContent === n, name);
}

async function signIn(page, name, password = PASSWORD) {
  await page.click('[data-testid=sign-in]');
  await page.fill('[data-testid=auth-name]', name);
  await page.fill('[data-testid=auth-password]', password);
  await page.click('[data-testid=auth-submit]');
}

const statusOf = (page) => page.textContent('[data-testid=status]');

const scenarios = {
  async "an engine level's profile says how strong it was measured to be, the lowest for beginners"() {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(base);
    // Each level's profile is there before its first game.
    await page.goto(`${base}/@/loa-level-3`);
    await page.waitForSelector('[data-testid=level-note]');
    assert.match(await page.textContent('[data-testid=level-note]'), /^The engine at level 3: /);
    await signUp(page, `lev${stamp}`);
    // A rated game against level 1 from the form (Rated is offered once a clock is
    // chosen); a resignation ends it.
    await openNewGame(page);
    await page.selectOption('[data-testid=level]', '1');
    await page.selectOption('[data-testid=color]', 'black');
    assert.equal(await page.isVisible('[data-testid=rated]'), false);
    await page.selectOption('[data-testid=clock]', 'live');
    await page.check('[data-testid=rated]');
    await page.screenshot({ path: `${shots}/new-game-rated-phone.png` });
    await page.click('[data-testid=start]');
    await page.waitForURL(/\/game\//);
    const game = await gameOf(page);
    assert.equal(game.rated, true);
    assert.deepEqual(game.names, [`lev${stamp}`, 'loa-level-1']);
    assert.equal(await page.evaluate(async (id) => (await fetch(`/api/games/${id}/resign`, { method: 'POST' })).status, game.id), 200);
    await page.goto(`${base}/@/loa-level-1`);
    await page.waitForSelector('[data-testid=level-note]');
    assert.match(await page.textContent('[data-testid=level-note]'),
      /^The engine at level 1: depth 1, a move drawn by score \(spread 100\)\. Measured about [\d,]+ Elo above a player of random moves\. The lowest level: a beginner who knows the rules can beat it\.$/);
    // The game is listed from the level's side: it won, against the person.
    // The dot is the colour of the opponent named: the person played Black.
    assert.match(await page.textContent('[data-testid=profile-game]'), new RegExp(`● lev${stamp}.*Won · resignation`));
    await page.screenshot({ path: `${shots}/level-profile-phone.png`, fullPage: true });
    assert.deepEqual(page.errors, []);
  },

  async 'the opening explorer beside the analysis board: counts, a move played from it, bands, the engine and the solver'() {
    const page = await newPage();
    await page.goto(`${base}/analysis`);
    const row = '[data-testid=explorer-moves] tr[data-move]';
    await page.waitForSelector(row);
    // The archive's six games start from the standard start.
    assert.equal(await page.textContent('[data-testid=explorer-moves] tfoot'), 'Σ6');
    await page.waitForFunction(() => /Engine: \S+ \(/.test(document.querySelector('[data-testid=explorer-verdicts]')?.textContent || ''), null, { timeout: 60000 });
    assert.match(await page.textContent('[data-testid=explorer-verdicts]'), /Solver: /);
    const first = await page.getAttribute(row, 'data-move');
    const games = Number(await page.textContent(`${row}:first-child td.num`));
    await page.click(`${row}[data-move="${first}"] button`);
    await waitForPly(page, 1);
    // On from the move played: the games that played it.
    await page.waitForFunction((n) => document.querySelector('[data-testid=explorer-moves] tfoot')?.textContent === `Σ${n}`, games);
    await page.screenshot({ path: `${shots}/explorer.png`, fullPage: true });
    // Three games carry Elo 1650 and 1710 (band 1600); no game is rated 2500 or more.
    await page.click('[data-testid=moves] button:has-text("start")');
    await page.selectOption('[data-testid=explorer-band]', '1600');
    await page.waitForFunction(() => document.querySelector('[data-testid=explorer-moves] tfoot')?.textContent === 'Σ3');
    await page.selectOption('[data-testid=explorer-band]', '2500');
    await page.waitForFunction(() => /No game counted/.test(document.querySelector('[data-testid=explorer-moves]')?.textContent || ''));
    await page.selectOption('[data-testid=explorer-band]', '');
    await page.selectOption('[data-testid=explorer-source]', 'rated');
    await page.waitForFunction(() => /No game counted/.test(document.querySelector('[data-testid=explorer-moves]')?.textContent || ''));
    assert.deepEqual(page.errors, []);
  },

  async 'puzzles: the day\'s given up and rated, then played to the win move by move'() {
    const ann = await newPage();
    await ann.goto(base);
    await signUp(ann, `pz_${stamp}`);
    await ann.goto(`${base}/puzzles/daily`);
    await ann.waitForFunction(() => /to move and win in \d/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    assert.match(await ann.textContent('h1'), /^Puzzle of the day, .*\d{4}$/);
    await ann.click('[data-testid=puzzle-solution]');
    await ann.waitForSelector('[data-testid=puzzle-rating-change]');
    // A try given up is a miss: the rating falls, and the winning line is listed.
    assert.match(await ann.textContent('[data-testid=puzzle-rating-change]'), /\(-\d+\)/);
    // The puzzle's own facts count the try.
    await ann.waitForFunction(() => /solved 0 of 1 first tries/.test(document.querySelector('[data-testid=puzzle-about]')?.textContent || ''));
    const solution = await ann.locator('[data-testid=moves] button[data-ply]').allTextContents();
    assert.ok(solution.length >= 3 && solution.length % 2 === 1, solution.join(' '));
    await ann.click('[data-testid=moves] button[data-ply="1"]');
    await ann.screenshot({ path: `${shots}/puzzle-given-up.png`, fullPage: true });
    const summary = await ann.evaluate(async () => (await fetch('/api/puzzles')).json());
    assert.equal(summary.rating.plays, 1);
    assert.equal(summary.rating.wins, 0);

    // Someone not signed in, on a phone, plays the same line by clicking the board; the
    // page answers each move with the reply.
    const bob = await newPage({ width: 390, height: 844 });
    await bob.goto(`${base}/puzzles/daily`);
    await bob.waitForFunction(() => /to move and win/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    const puzzle = await bob.evaluate(async () => (await fetch('/api/puzzles/daily')).json());
    for (let i = 0; i < solution.length; i += 2) {
      const position = await bob.evaluate(async ([p, moves]) => (await fetch('/api/position', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ variant: p.variant, rules: p.rules, position: p.position, moves }),
      })).json(), [puzzle, solution.slice(0, i)]);
      await clickMove(bob, position.moves.find((m) => m.text === solution[i]));
      if (i + 1 < solution.length) {
        await waitForPly(bob, i + 2);
        assert.match(await bob.textContent('[data-testid=puzzle-feedback]'), /Right/);
      }
    }
    await bob.waitForFunction(() => /Solved/.test(document.querySelector('[data-testid=puzzle-feedback]')?.textContent || ''));
    assert.match(await bob.textContent('[data-testid=puzzle-rated]'), /Sign in to have your tries rated/);
    await bob.screenshot({ path: `${shots}/puzzle-solved-phone.png`, fullPage: true });

    // A theme: its next puzzle is one of it.
    await ann.click('[data-testid=puzzle-themes] a[data-theme=capture]');
    await ann.waitForFunction(() => /^\/puzzles\/[a-z0-9]{8}$/.test(location.pathname)
      && /capture/.test(document.querySelector('[data-testid=puzzle-about]')?.textContent || ''));
    assert.deepEqual(ann.errors, []);
    assert.deepEqual(bob.errors, []);
  },

  async 'a finished game is reported on: accuracy, graph, slips marked in the moves'() {
    const page = await newPage();
    await page.goto(base);
    // A game between two people at one board, played through the API and resigned.
    const id = await page.evaluate(async () => {
      const post = async (path, body) => (await fetch(path, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
      })).json();
      const created = await post('/api/games', { black: 'human', white: 'human' });
      let game = created.game;
      for (let i = 0; i < 8; i++) {
        const slot = game.to_move_slot;
        // The last legal move in the server's order: aimless, so slips are likely.
        const moves = game.position.moves;
        game = await post(`/api/games/${created.id}/moves`, { move: moves[moves.length - 1].text, token: created.tokens[slot] });
      }
      await post(`/api/games/${created.id}/resign`, { token: created.tokens[game.to_move_slot] });
      return created.id;
    });
    await page.goto(`${base}/game/${id}`);
    await page.waitForSelector('[data-testid=report]');
    await page.waitForSelector('[data-testid=report-black]', { timeout: 120000 });
    const black = await page.textContent('[data-testid=report-black]');
    assert.match(black, /Black\d+\.\d% accuracy\d+ inaccurac(y|ies) · \d+ mistakes? · \d+ blunders?/);
    assert.ok(await page.locator('[data-testid=report-graph] polyline').count() === 1);
    const report = await page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}/report`)).json(), id);
    assert.equal(report.state, 'ready');
    const slips = report.report.moves.filter((m) => m.judgement);
    // Each slip is marked in the move list and listed with the better move.
    assert.equal(await page.locator('[data-testid=moves] .mark').count(), slips.length);
    if (slips.length > 0) {
      assert.equal(await page.locator('[data-testid=report-slips] li').count(), slips.length);
      await page.locator('[data-testid=report-slips] .slip').first().click();
      await page.waitForSelector(`[data-testid=moves] button.current[data-ply="${slips[0].ply + 1}"]`);
    }
    await page.screenshot({ path: `${shots}/report.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/report-phone.png`, fullPage: true });
    assert.deepEqual(page.errors, []);
  },

  async 'a whole game against the engine, by clicking'() {
    const page = await newPage();
    await openNewGame(page);
    await page.selectOption('[data-testid=level]', '1');
    await page.click('[data-testid=start]');
    await page.waitForSelector('[data-testid=board] g[data-piece]');
    // An illegal click does nothing: an empty square, then a piece to a square it cannot reach.
    await clickSquare(page, 'd4');
    await clickSquare(page, 'b1');
    await clickSquare(page, 'b4');
    await page.waitForTimeout(300);
    let game = await gameOf(page);
    assert.equal(game.ply, 0, 'an illegal click played a move');
    assert.equal(await page.locator('[data-testid=moves] button[data-ply]').count(), 0);
    await clickSquare(page, 'd4');
    for (let turn = 0; turn < 200 && !game.result; turn++) {
      const legal = game.position.moves[0];
      await clickMove(page, legal);
      await page.waitForFunction(async (before) => {
        const id = location.pathname.split('/').pop();
        const g = await (await fetch(`/api/games/${id}`)).json();
        return g.result || g.ply >= before + 2;
      }, game.ply, { timeout: 30000 });
      game = await gameOf(page);
      if (turn === 2) {
        // Reload in the middle: the page shows the stored game, every move of it (read
        // again after the reload: the engine's reply may land while the page reloads).
        await page.reload();
        await page.waitForFunction(async () => {
          const id = location.pathname.split('/').pop();
          const g = await (await fetch(`/api/games/${id}`)).json();
          return g.ply > 0 && document.querySelectorAll('[data-testid=moves] button[data-ply]').length === g.ply;
        }, null, { timeout: 30000 });
        game = await gameOf(page);
      }
    }
    assert.ok(game.result, 'the game ended');
    await page.waitForFunction(() => /wins|Draw/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    const status = await page.textContent('[data-testid=status]');
    assert.match(status, new RegExp(game.result.reason));
    assert.equal(await page.isVisible('[data-testid=move-input]'), false, 'no move is typed once the game is over');
    await page.screenshot({ path: `${shots}/game-over.png` });
    assert.deepEqual(page.errors, []);
  },

  async 'an SGF record imported and stepped through with the keys'() {
    const page = await newPage();
    await page.goto(base);
    await page.fill('[data-testid=import-text]', '(;FF[4]GM[9]SU[Standard]PB[Ann]PW[Bob];B[b1-d3];W[a2-c4];B[g1-g3])');
    await page.click('[data-testid=import]');
    await page.waitForSelector('[data-testid=moves] button[data-ply="3"]');
    // The record has an address of its own: a reload shows it again.
    assert.match(page.url(), /\/analysis\?.*moves=b1-d3/);
    assert.match(await page.textContent('h1'), /Ann – Bob/);
    const at = (ply) => page.waitForFunction((n) => (document.querySelector('[data-testid=moves] button.current').dataset.ply || '0') === n, String(ply));
    // The record opens at its start; the right arrow steps through it.
    await at(0);
    for (const ply of [1, 2, 3]) {
      await page.locator('body').press('ArrowRight');
      await at(ply);
    }
    await page.locator('body').press('ArrowLeft');
    await at(2);
    assert.equal(await page.locator('[data-testid=board] g[data-piece=g1]').count(), 1, 'g1 is back at move 2');
    await page.locator('body').press('Home');
    await page.waitForFunction(() => !document.querySelector('[data-testid=moves] button.current').dataset.ply);
    assert.equal(await page.locator('[data-testid=board] g[data-piece=b1]').count(), 1);
    await page.locator('body').press('End');
    await page.waitForFunction(() => document.querySelector('[data-testid=moves] button.current').dataset.ply === '3');
    assert.equal(await page.locator('[data-testid=board] g[data-piece=g3]').count(), 1);
    // The engine analyses the position shown.
    await page.waitForSelector('[data-testid=score]', { timeout: 30000 });
    await page.screenshot({ path: `${shots}/analysis.png` });
    assert.deepEqual(page.errors, []);
  },

  async 'the analysis board shows a win the solver proves, with its line'() {
    const page = await newPage();
    // White (h1, h5) to move cannot join; Black (a1, c1) joins next whatever White does:
    // one move of Black's, as the engine's "connects in 1" counts.
    const position = '8/8/8/7w/8/8/8/b1b4w w';
    await page.goto(`${base}/analysis?${new URLSearchParams({ variant: 'standard', rules: 'draw', position })}`);
    await page.waitForSelector('[data-testid=proved]', { timeout: 30000 });
    assert.match(await page.textContent('[data-testid=proved]'), /^Proved: Black wins within 1 move \S+ [ac]1-\S+$/);
    // It stays under the engine's line as the search goes on.
    await page.waitForSelector('[data-testid=score]', { timeout: 30000 });
    await page.waitForSelector('[data-testid=proved]');
    await page.screenshot({ path: `${shots}/analysis-proved.png` });
    assert.deepEqual(page.errors, []);
  },

  async 'a record with an illegal move is named, not imported cut short'() {
    const page = await newPage();
    await page.goto(base);
    // Nothing to open is said, not passed over in silence.
    await page.fill('[data-testid=import-text]', '   ');
    await page.click('[data-testid=import]');
    assert.match(await page.textContent('[data-testid=import-error]'), /nothing to open/);
    await page.fill('[data-testid=import-text]', '(;GM[9]PB[Ann]PW[Bob];B[b1-b3];W[a2-c2];B[b3-b4])\n(;GM[9]PB[Cy];B[c1-c3])');
    await page.click('[data-testid=import]');
    await page.waitForSelector('[data-testid=import-open]');
    const error = await page.textContent('[data-testid=import-error]');
    assert.match(error, /Not imported: game 1 \(.*Ann.*\): move 2.*b3-b4/);
    // Nothing opened by itself; the good game opens from its link.
    assert.ok(page.url().endsWith('/'), page.url());
    await page.click('[data-testid=import-open]');
    await page.waitForSelector('[data-testid=moves] button[data-ply="1"]');
    assert.match(await page.textContent('h1'), /Cy .*game 2 of the record/);
    assert.deepEqual(page.errors, []);
  },

  async 'a move off the line on the analysis board makes a variation'() {
    const page = await newPage();
    await page.goto(`${base}/analysis?moves=${encodeURIComponent('b1-d3 a2-c4 g1-g3')}&ply=1`);
    await page.waitForSelector('[data-testid=moves] button.current[data-ply="1"]');
    const other = await page.evaluate(async () => {
      const r = await fetch('/api/position', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: ['b1-d3'] }) });
      return (await r.json()).moves.find((m) => m.text !== 'a2-c4').text;
    });
    await page.fill('[data-testid=move-input]', other);
    await page.press('[data-testid=move-input]', 'Enter');
    // The main line is whole; the new move stands in brackets as a variation, shown.
    await page.waitForSelector('[data-testid=variation] button.current');
    const mainMoves = () => page.$$eval('[data-testid=moves] > button[data-ply]', (els) => els.map((e) => e.textContent));
    assert.deepEqual(await mainMoves(), ['b1-d3', 'a2-c4', 'g1-g3']);
    assert.equal(await page.textContent('[data-testid=variation]'), `(1…${other})`);
    assert.doesNotMatch(await page.textContent('[data-testid=moves]'), /null|undefined/);
    await page.screenshot({ path: `${shots}/variation.png` });
    // Promoted, it is the main line and the old line its variation.
    await page.click('[data-testid=promote]');
    await page.waitForFunction(() => !document.querySelector('[data-testid=variation] button.current'));
    assert.deepEqual(await mainMoves(), ['b1-d3', other]);
    assert.match(await page.textContent('[data-testid=variation]'), /a2-c4.*g1-g3/);
    // Deleted, the game is as it was.
    await page.click('[data-testid=delete-move]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=moves] > button[data-ply]').length === 3);
    assert.deepEqual(await mainMoves(), ['b1-d3', 'a2-c4', 'g1-g3']);
    assert.equal(await page.locator('[data-testid=variation]').count(), 0);
    // A move typed in the coordinate form is the line's own move, not a new variation.
    await page.fill('[data-testid=move-input]', 'a2c4');
    await page.press('[data-testid=move-input]', 'Enter');
    await page.waitForSelector('[data-testid=moves] button.current[data-ply="2"]');
    assert.deepEqual(await mainMoves(), ['b1-d3', 'a2-c4', 'g1-g3']);
    assert.equal(await page.locator('[data-testid=variation]').count(), 0);
    // A move refused is said, and forgotten once another position is shown.
    await page.fill('[data-testid=move-input]', 'zz');
    await page.press('[data-testid=move-input]', 'Enter');
    await page.waitForFunction(() => /not a move/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    await page.click('[data-testid=moves] button[data-ply="1"]');
    await page.waitForFunction(() => /move 1 of 3$/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    assert.deepEqual(page.errors, []);
  },

  async 'an online game between two browsers until a flag falls'() {
    const black = await newPage();
    await openNewGame(black);
    await black.selectOption('[data-testid=opponent]', 'online');
    await black.selectOption('[data-testid=clock]', 'live');
    await black.fill('[data-testid=minutes]', '0.05');
    await black.fill('[data-testid=increment]', '0');
    await black.click('[data-testid=start]');
    await black.waitForSelector('[data-testid=link-white]');
    const whiteLink = await black.inputValue('[data-testid=link-white]');
    await black.waitForFunction(() => /Waiting for White/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    // The link to send is offered first thing under the status, with a button to copy it.
    assert.equal(await black.inputValue('[data-testid=invite] [data-testid=invite-white]'), whiteLink);
    await black.click('[data-testid=copy-white]');
    await black.waitForFunction(() => /Copied|Selected/.test(document.querySelector('[data-testid=invite] [role=status]')?.textContent || ''));
    await black.screenshot({ path: `${shots}/invite.png` });
    const white = await newPage({ width: 390, height: 800 });
    await white.goto(whiteLink);
    await black.waitForFunction(() => /Your move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    assert.ok(await black.locator('[data-testid=invite]').isHidden(), 'nobody left to invite');
    // The link opened again elsewhere, once its seat is taken, only lets one watch.
    const late = await newPage();
    await late.goto(whiteLink);
    await late.waitForSelector('[data-testid=seat-taken]');
    await late.waitForFunction(() => /Black to move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    assert.ok(await late.locator('[data-testid=resign]').isHidden());
    await late.close();
    await white.waitForFunction(() => /Black to move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    // White cannot move for Black.
    await clickSquare(white, 'b1');
    await clickSquare(white, 'b3');
    await clickSquare(black, 'b1');
    await clickSquare(black, 'b3');
    await waitForPly(white, 1);
    // White's first move is awaited, a minute at most, as the status counts down.
    await white.waitForFunction(() => /Your move: White · \d+ s for a first move, or the game is aborted/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    // White lets the clock run out; the server flags it and both pages show it.
    for (const page of [black, white]) {
      await page.waitForFunction(() => /Black wins .* by time/.test((document.querySelector('[data-testid=status]')?.textContent || '')), null, { timeout: 15000 });
    }
    const game = await gameOf(white);
    assert.equal(game.moves.length, 1);
    assert.equal(game.result.reason, 'time');
    await white.screenshot({ path: `${shots}/online-phone.png` });
    assert.deepEqual([...black.errors, ...white.errors], []);
  },

  async 'an online game aborted before both sides have moved'() {
    const black = await newPage();
    await openNewGame(black);
    await black.selectOption('[data-testid=opponent]', 'online');
    await black.click('[data-testid=start]');
    await black.waitForSelector('[data-testid=link-white]');
    const whiteLink = await black.inputValue('[data-testid=link-white]');
    const white = await newPage({ width: 390, height: 800 });
    await white.goto(whiteLink);
    await black.waitForFunction(() => /Your move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    await clickSquare(black, 'b1');
    await clickSquare(black, 'b3');
    await waitForPly(white, 1);
    // White has not moved: the button aborts, and says so.
    assert.equal((await white.textContent('[data-testid=resign]')).trim(), 'Abort');
    /** @type {string[]} */
    const asked = [];
    white.once('dialog', (d) => { asked.push(d.message()); d.accept(); });
    await white.click('[data-testid=resign]');
    for (const page of [black, white]) {
      await page.waitForFunction(() => /Game aborted/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    }
    assert.deepEqual(asked, ['Abort this game? It will count for nobody.']);
    const game = await gameOf(black);
    assert.deepEqual(game.result, { result: '*', reason: 'aborted' });
    assert.ok(await white.isDisabled('[data-testid=resign]'));
    await white.screenshot({ path: `${shots}/aborted-phone.png` });
    assert.deepEqual([...black.errors, ...white.errors], []);
  },

  async 'an online player who closes the tab comes back to their seat'() {
    const black = await newPage();
    await openNewGame(black);
    await black.selectOption('[data-testid=opponent]', 'online');
    await black.selectOption('[data-testid=clock]', 'correspondence');
    await black.click('[data-testid=start]');
    await black.waitForSelector('[data-testid=link-white]');
    const whiteLink = await black.inputValue('[data-testid=link-white]');
    const white = await newPage();
    await white.goto(whiteLink);
    await white.waitForFunction(() => /Black to move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    // The token leaves the address bar once kept.
    assert.ok(!white.url().includes('token'), white.url());
    const id = new URL(white.url()).pathname.split('/').pop();
    // White closes the tab; the same browser finds the game under "My games" and is back
    // in White's seat.
    const context = white.context();
    await white.close();
    const again = await context.newPage();
    again.errors = [];
    again.on('pageerror', (e) => again.errors.push(e.message));
    await again.goto(base);
    await again.waitForSelector(`[data-testid=my-game] a[href="/game/${id}"]`);
    await again.click(`[data-testid=my-game] a[href="/game/${id}"]`);
    await again.waitForFunction(() => /Black to move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    assert.match(await again.textContent('.play'), /White .*\(you\)/);
    // Black moves: White's tab says it is their move in its title.
    await clickSquare(black, 'b1');
    await clickSquare(black, 'b3');
    await again.waitForFunction(() => /^\(1\) Your move/.test(document.title));
    await again.waitForFunction(() => /Your move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    // Black sees White's move list entry in "My games" as the other side's move.
    await black.goto(base);
    await black.waitForSelector(`[data-testid=my-game] a[href="/game/${id}"]`);
    assert.match(await black.textContent('[data-testid=my-games]'), /White to move/);
    // A spectator (another browser) holds no seat: it sees who offers a draw, never "you".
    await black.goto(`${base}/game/${id}`);
    await black.waitForSelector('[data-testid=draw]');
    const spectator = await newPage();
    await spectator.goto(`${base}/game/${id}`);
    await spectator.waitForSelector('[data-testid=board] g[data-piece]');
    // The sound and notification choices are the players', not a spectator's.
    await black.waitForSelector('[data-testid=sound]');
    assert.ok(await spectator.locator('[data-testid=sound]').isHidden());
    await again.click('[data-testid=draw]');
    await spectator.waitForFunction(() => /White offers a draw/.test((document.querySelector('[data-testid=offer]')?.textContent || '')));
    await black.waitForSelector('[data-testid=accept-draw]');
    await again.waitForFunction(() => /You offered a draw/.test((document.querySelector('[data-testid=offer]')?.textContent || '')));
    assert.ok(await spectator.locator('[data-testid=accept-draw]').count() === 0);
    const game = await gameOf(spectator);
    assert.equal(game.you, undefined);
    // Declined, which White is told; offered again.
    await black.click('[data-testid=decline-draw]');
    await again.waitForSelector('[data-testid=draw-declined]');
    await again.click('[data-testid=draw]');
    await black.waitForSelector('[data-testid=accept-draw]');
    // The draw is agreed; the final position, which no rule ended, can be analysed.
    await black.click('[data-testid=accept-draw]');
    await black.waitForFunction(() => /Draw .* by agreement/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    // A finished game asks nothing of the sound.
    await black.waitForSelector('[data-testid=sound]', { state: 'hidden' });
    await black.click('[data-testid=analysis-toggle]');
    await black.waitForSelector('[data-testid=score]', { timeout: 30000 });
    // A rematch: Black asks and plays White in it; White's page offers the same game.
    await black.click('[data-testid=rematch]');
    await black.waitForFunction((old) => !location.pathname.endsWith(old), id);
    const next = new URL(black.url()).pathname.split('/').pop();
    await again.waitForFunction(() => /Play the rematch/.test(document.querySelector('[data-testid=rematch]')?.textContent || ''));
    await again.click('[data-testid=rematch]');
    await again.waitForFunction((n) => location.pathname.endsWith(n), next);
    await again.waitForFunction(() => /Your move: Black/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    await black.waitForFunction(() => /Black to move/.test((document.querySelector('[data-testid=status]')?.textContent || '')));
    assert.match(await black.textContent('.play'), /White .*\(you\)/);
    assert.deepEqual([...black.errors, ...again.errors, ...spectator.errors], []);
  },

  async 'two accounts: a rated seek from a tile, taken in the lobby, played, resigned and rated'() {
    const ann = await newPage();
    const bob = await newPage({ width: 390, height: 844 });
    const annName = `ann_${stamp}`;
    const bobName = `bob_${stamp}`;
    await ann.goto(base);
    await signUp(ann, annName);
    // Bob signs up, out, and in again, on his phone.
    await bob.goto(base);
    await signUp(bob, bobName);
    await bob.click('[data-testid=sign-out]');
    await bob.waitForSelector('[data-testid=sign-in]');
    await signIn(bob, bobName);
    await bob.waitForFunction((n) => document.querySelector('[data-testid=me]')?.textContent === n, bobName);
    // Ann's tile makes a rated seek; Bob's lobby shows it at once, with her rating.
    await ann.click('[data-testid=tile][data-clock="5+3"]');
    await ann.waitForSelector('[data-testid=tile][data-clock="5+3"].waiting');
    // Another tab of Ann's shows that tile waiting with her seek, not ready to make a second.
    const annTab = await ann.context().newPage();
    await annTab.goto(base);
    await annTab.waitForSelector('[data-testid=tile][data-clock="5+3"].waiting');
    // A seek withdrawn from one tab frees the tile in the other.
    await ann.click('[data-testid=tile][data-clock="10+5"]');
    await annTab.waitForSelector('[data-testid=tile][data-clock="10+5"].waiting');
    await annTab.click('[data-testid=tile][data-clock="10+5"]');
    await ann.waitForSelector('[data-testid=tile][data-clock="10+5"]:not(.waiting)');
    await annTab.close();
    await ann.waitForSelector('[data-testid=seek].mine [data-testid=cancel-seek]');
    const row = bob.locator('[data-testid=seek]', { hasText: annName });
    await row.waitFor();
    assert.match(await row.textContent(), /1500\?.*5\+3.*Rated/);
    await ann.screenshot({ path: `${shots}/lobby-waiting.png` });
    await bob.screenshot({ path: `${shots}/lobby-phone.png`, fullPage: true });
    await row.locator('[data-testid=accept-seek]').click();
    // Both are in the same game, by their names.
    await bob.waitForURL(/\/game\/[a-z0-9]+$/);
    await ann.waitForURL(/\/game\/[a-z0-9]+$/);
    assert.equal(new URL(ann.url()).pathname, new URL(bob.url()).pathname);
    const game = await gameOf(ann);
    assert.equal(game.rated, true);
    assert.deepEqual([...game.names].sort(), [annName, bobName].sort());
    const annIsBlack = game.names[0] === annName;
    const [black, white] = annIsBlack ? [ann, bob] : [bob, ann];
    for (const page of [ann, bob]) {
      await page.waitForSelector(`[data-testid=player-black][href="/@/${game.names[0]}"]`);
      await page.waitForSelector(`[data-testid=player-white][href="/@/${game.names[1]}"]`);
      assert.match(await page.textContent('[data-testid=game-terms]'), /5\+3 · Blitz · Rated/);
    }
    // Someone else sees the game among those being played.
    const watcher = await newPage();
    await watcher.goto(base);
    await watcher.waitForSelector(`[data-testid=playing-game][href="${new URL(ann.url()).pathname}"]`);
    await watcher.screenshot({ path: `${shots}/lobby-playing.png`, fullPage: true });
    // A few moves, each by clicking.
    for (let ply = 0; ply < 4; ply++) {
      const mover = ply % 2 === 0 ? black : white;
      await mover.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
      const now = await gameOf(mover);
      await clickMove(mover, now.position.moves[0]);
      await waitForPly(ann, ply + 1);
      await waitForPly(bob, ply + 1);
    }
    // Ann resigns (both have moved: no aborting now); both see the ratings move, +162 and
    // -162 for two newcomers.
    assert.equal((await ann.textContent('[data-testid=resign]')).trim(), 'Resign');
    ann.once('dialog', (d) => d.accept());
    await ann.click('[data-testid=resign]');
    const annSide = annIsBlack ? 'black' : 'white';
    const bobSide = annIsBlack ? 'white' : 'black';
    for (const page of [ann, bob]) {
      await page.waitForSelector(`[data-testid=rating-change-${annSide}]`);
      assert.equal((await page.textContent(`[data-testid=rating-change-${annSide}]`)).trim(), '-162');
      assert.equal((await page.textContent(`[data-testid=rating-change-${bobSide}]`)).trim(), '+162');
      assert.match(await statusOf(page), /wins .* by resignation/);
    }
    assert.match(await statusOf(bob), /your rating \+162/);
    // Seen again later, each rating as the game began, still marked provisional.
    await ann.reload();
    await ann.waitForSelector(`[data-testid=rating-change-${annSide}]`);
    assert.equal((await ann.textContent(`[data-testid=rating-${annSide}]`)).trim(), '1500?');
    assert.equal((await ann.textContent(`[data-testid=rating-${bobSide}]`)).trim(), '1500?');
    await ann.screenshot({ path: `${shots}/rated-game-over.png` });
    await bob.screenshot({ path: `${shots}/rated-game-over-phone.png`, fullPage: true });
    // Ann's profile, from the header: the rating, its chart, the game.
    await ann.click('[data-testid=me]');
    await ann.waitForSelector('[data-testid=rating-standard-blitz]');
    assert.match(await ann.textContent('[data-testid=rating-standard-blitz]'), /1338\?.*1 game/);
    assert.ok(await ann.locator('[data-testid=rating-chart] path.rating-line').count() >= 1, 'the chart draws a line');
    assert.match(await ann.textContent('[data-testid=profile-game]'), new RegExp(`${bobName}.*Lost`));
    assert.equal(await ann.locator('[data-testid=challenge-button]').count(), 0, 'no challenge to oneself');
    // Results against each opponent, and the games filtered by them (kept in the address).
    assert.match(await ann.textContent('[data-testid=opponent-row]'), new RegExp(`${bobName}\\s*1\\s*0\\s*0\\s*1`));
    await ann.selectOption('[data-testid=filter-result]', 'win');
    await ann.waitForSelector('[data-testid=profile-games] >> text=No games here.');
    assert.match(ann.url(), /\?result=win$/);
    await ann.click(`[data-testid="games-vs-${bobName}"]`);
    await ann.waitForFunction(() => /vs=/.test(location.search));
    await ann.selectOption('[data-testid=filter-result]', 'loss');
    await ann.waitForSelector('[data-testid=profile-game]');
    assert.match(await ann.textContent('[data-testid=profile-game]'), new RegExp(`${bobName}.*Lost`));
    await ann.screenshot({ path: `${shots}/profile.png`, fullPage: true });
    await bob.goto(`${base}/@/${annName}`);
    await bob.waitForSelector('[data-testid=rating-chart] path', { state: 'attached' });
    await bob.waitForSelector('[data-testid=challenge-button]');
    await bob.screenshot({ path: `${shots}/profile-phone.png`, fullPage: true });
    // The leaderboard ranks established players only: these two are listed apart, as provisional.
    await bob.goto(`${base}/players`);
    await bob.waitForFunction(() => !/Loading/.test(document.querySelector('[data-testid=leaderboard]')?.textContent || ''));
    assert.equal(await bob.locator(`[data-testid=ranked]:has-text("${annName}")`).count(), 0);
    const annRow = bob.locator(`[data-testid=provisional]:has(a[href="/@/${annName}"])`);
    assert.match(await annRow.textContent(), /\d+\?/);
    await bob.screenshot({ path: `${shots}/players-phone.png`, fullPage: true });
    assert.deepEqual([...ann.errors, ...bob.errors, ...watcher.errors], []);
  },

  async 'two people not signed in pair from the lobby, the maker back in their seat'() {
    const maker = await newPage();
    const taker = await newPage();
    await maker.goto(base);
    await taker.goto(base);
    await maker.click('[data-testid=tile][data-clock="3+2"]');
    await maker.waitForSelector('[data-testid=seek].mine');
    const id = await maker.getAttribute('[data-testid=seek].mine', 'data-seek');
    // A rated seek is no tile's of a person not signed in: this one is casual.
    const seek = await maker.evaluate(async (s) => (await fetch(`/api/seeks/${s}`)).json(), id);
    assert.equal(seek.rated, false);
    assert.equal(seek.name, null);
    await taker.click(`[data-testid=seek][data-seek="${id}"]`);
    await taker.waitForURL(/\/game\/[a-z0-9]+$/);
    await maker.waitForURL(/\/game\/[a-z0-9]+$/);
    // The seek's token is the maker's seat: one of the two has the move.
    const pages = [maker, taker];
    await Promise.all(pages.map((p) => p.waitForFunction(() => /Your move|to move/.test(document.querySelector('[data-testid=status]')?.textContent || ''))));
    const first = /Your move/.test(await statusOf(maker)) ? maker : taker;
    const other = first === maker ? taker : maker;
    assert.match(await statusOf(other), /Black to move/);
    const g = await gameOf(first);
    await clickMove(first, g.position.moves[0]);
    await waitForPly(other, 1);
    // The players chat; what they type is shown as text, never as markup.
    await first.fill('[data-testid=chat-input]', '<b>good luck</b>');
    await first.press('[data-testid=chat-input]', 'Enter');
    await other.waitForFunction(() => /<b>good luck<\/b>/.test(document.querySelector('[data-testid=chat-lines]')?.textContent || ''));
    assert.equal(await other.locator('[data-testid=chat-lines] li > b').count(), 1);
    // Anyone may hide the chat.
    await other.click('[data-testid=chat-toggle]');
    assert.equal(await other.isVisible('[data-testid=chat-lines]'), false);
    await other.click('[data-testid=chat-toggle]');
    // The maker reloads: still in their seat.
    await maker.reload();
    await maker.waitForFunction(() => /\(you\)/.test(document.querySelector('.play')?.textContent || ''));
    assert.deepEqual([...maker.errors, ...taker.errors], []);
  },

  async 'sign-in errors, a challenge accepted, tokens, and typed text shown as typed'() {
    const ann = await newPage();
    const bob = await newPage();
    const annName = `cat_${stamp}`;
    const bobName = `dan_${stamp}`;
    await ann.goto(base);
    await signUp(ann, annName);
    // A wrong password says so, in the dialog.
    await bob.goto(base);
    await signIn(bob, annName, 'not the password');
    await bob.waitForFunction(() => /wrong name or password/i.test(document.querySelector('[data-testid=auth-error]')?.textContent || ''));
    await bob.screenshot({ path: `${shots}/sign-in-error.png` });
    // Signing up: a bad name and a taken one are named.
    await bob.click('[data-testid=auth-switch]');
    await bob.fill('[data-testid=auth-name]', 'x');
    await bob.fill('[data-testid=auth-password]', PASSWORD);
    await bob.click('[data-testid=auth-submit]');
    await bob.waitForFunction(() => /2 to 20 characters/.test(document.querySelector('[data-testid=auth-error]')?.textContent || ''));
    await bob.fill('[data-testid=auth-name]', annName.toUpperCase());
    await bob.click('[data-testid=auth-submit]');
    await bob.waitForFunction(() => /taken/.test(document.querySelector('[data-testid=auth-error]')?.textContent || ''));
    await bob.fill('[data-testid=auth-name]', bobName);
    await bob.click('[data-testid=auth-submit]');
    await bob.waitForFunction((n) => document.querySelector('[data-testid=me]')?.textContent === n, bobName);
    // Ann challenges Bob from his profile, playing Black.
    await ann.goto(`${base}/@/${bobName}`);
    await ann.click('[data-testid=challenge-button]');
    await ann.selectOption('[data-testid=challenge-dialog] [data-testid=terms-color]', 'black');
    await ann.click('[data-testid=send-challenge]');
    await ann.waitForSelector('[data-testid=sent-challenge]');
    // Bob's page, open all along, hears of it at once on his socket (the page would
    // ask only every 10 s without it).
    await bob.waitForSelector('[data-testid=challenge]', { timeout: 3000 });
    // The tab's title says so too, for a tab not looked at.
    assert.match(await bob.title(), /^Challenge · /);
    assert.match(await bob.textContent('[data-testid=challenge]'), new RegExp(`${annName} challenges you: Standard · 5\\+3 blitz · rated · you play White`));
    await bob.screenshot({ path: `${shots}/challenge.png` });
    await bob.click('[data-testid=accept-challenge]');
    await bob.waitForURL(/\/game\/[a-z0-9]+$/);
    await bob.waitForFunction(() => !document.title.includes('Challenge'));
    // Ann's page follows her challenge into the game, where her session is her seat.
    await ann.waitForURL(/\/game\/[a-z0-9]+$/, { timeout: 3000 });
    assert.equal(new URL(ann.url()).pathname, new URL(bob.url()).pathname);
    await ann.waitForFunction(() => /Your move: Black/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    await clickSquare(ann, 'b1');
    await clickSquare(ann, 'b3');
    await waitForPly(bob, 1);
    assert.match(await bob.textContent('.play'), /White .*\(you\)/);
    // The game's link to watch it is there to send, as on a game made from the form.
    assert.equal(await bob.inputValue('[data-testid=link-spectators]'), bob.url());
    // An API token's label is shown as typed, markup and all.
    const label = '<b>bold</b> & <img src=x onerror=alert(1)>';
    await ann.goto(`${base}/account`);
    // An account with a game is not offered to become a bot, which the server would refuse.
    await ann.waitForSelector('[data-testid=bot-not-offered]');
    assert.equal(await ann.locator('[data-testid=become-bot]').count(), 0);
    await ann.fill('[data-testid=token-label]', label);
    await ann.click('[data-testid=create-token]');
    await ann.waitForSelector('[data-testid=new-token]');
    assert.match(await ann.inputValue('[data-testid=new-token]'), /^loa_/);
    await ann.waitForSelector('[data-testid=token]');
    assert.equal(await ann.textContent('[data-testid=token-label-shown]'), label);
    assert.equal(await ann.locator('[data-testid=tokens] b, [data-testid=tokens] img, [data-testid=token-form] b').count(), 0);
    await ann.screenshot({ path: `${shots}/account.png`, fullPage: true });
    ann.once('dialog', (d) => d.accept());
    await ann.click('[data-testid=revoke-token]');
    await ann.waitForFunction(() => /No tokens/.test(document.querySelector('[data-testid=tokens]')?.textContent || ''));
    // A wrong current password is refused; the right one changes it.
    await ann.fill('[data-testid=current-password]', 'not it at all');
    await ann.fill('[data-testid=new-password]', 'another long password');
    await ann.fill('[data-testid=new-password-again]', 'another long password');
    await ann.click('[data-testid=password-form] button[type=submit]');
    await ann.waitForFunction(() => /password is wrong/.test(document.querySelector('[data-testid=password-form-said]')?.textContent || ''));
    await ann.fill('[data-testid=current-password]', PASSWORD);
    await ann.click('[data-testid=password-form] button[type=submit]');
    await ann.waitForFunction(() => /Password changed/.test(document.querySelector('[data-testid=password-form-said]')?.textContent || ''));
    // Signed out everywhere, the header offers to sign in again.
    ann.once('dialog', (d) => d.accept());
    await ann.click('[data-testid=sign-out-everywhere]');
    await ann.waitForSelector('[data-testid=sign-in]');
    assert.deepEqual([...ann.errors, ...bob.errors], []);
  },

  async 'a player blocked from their profile: no challenge, their seek and chat lines hidden, unblocked from the account page'() {
    const ann = await newPage();
    const bob = await newPage();
    const annName = `blk_${stamp}`;
    const bobName = `blb_${stamp}`;
    await ann.goto(base);
    await signUp(ann, annName);
    await ann.setViewportSize({ width: 390, height: 844 });
    await bob.goto(base);
    await signUp(bob, bobName);
    const post = (page, path, body) => page.evaluate(async ([p, b]) => (await fetch(p, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: b === null ? undefined : JSON.stringify(b),
    })).json(), [path, body]);
    // Bob seeks a correspondence game, Ann takes it, and Bob says a line in its chat.
    const terms = { variant: 'standard', rules: 'draw', rated: false, color: 'white', clock: { kind: 'correspondence', days: 3 } };
    const seek = await post(bob, '/api/seeks', terms);
    const taken = await post(ann, `/api/seeks/${seek.id}/accept`, null);
    await post(bob, `/api/games/${taken.game}/chat`, { text: 'a line from bob' });
    await ann.goto(`${base}/game/${taken.game}`);
    await ann.waitForSelector('[data-testid=chat-lines] >> text=a line from bob');
    // Another seek of Bob's shows in Ann's lobby, until she blocks him.
    await post(bob, '/api/seeks', terms);
    await ann.goto(base);
    await ann.locator('[data-testid=seek]', { hasText: bobName }).waitFor();
    await ann.goto(`${base}/@/${bobName}`);
    await ann.waitForSelector('[data-testid=challenge-button]');
    ann.once('dialog', (d) => d.accept());
    await ann.click('[data-testid=block-button]');
    await ann.waitForFunction(() => document.querySelector('[data-testid=block-button]')?.textContent === 'Unblock');
    assert.equal(await ann.locator('[data-testid=challenge-button]').count(), 0);
    assert.match(await ann.textContent('[data-testid=challenge-sent]'), /is blocked/);
    await ann.screenshot({ path: `${shots}/profile-blocked-phone.png`, fullPage: true });
    await ann.goto(base);
    await ann.waitForSelector('[data-testid=seeks]');
    await ann.waitForFunction(() => !/Loading/.test(document.querySelector('[data-testid=seeks]')?.textContent || 'Loading'));
    assert.equal(await ann.locator('[data-testid=seek]', { hasText: bobName }).count(), 0);
    await ann.goto(`${base}/game/${taken.game}`);
    await ann.waitForSelector('[data-testid=chat-lines]', { state: 'attached' });
    await ann.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent);
    assert.equal(await ann.locator('[data-testid=chat-lines] >> text=a line from bob').count(), 0);
    // Bob's challenge is refused, in the server's words.
    const refused = await post(bob, '/api/challenges', { ...terms, to: annName });
    assert.equal(refused.error, 'one of you has blocked the other');
    // The account page lists him; Unblock takes him off.
    await ann.goto(`${base}/account`);
    await ann.locator('[data-testid=block]', { hasText: bobName }).waitFor();
    await ann.screenshot({ path: `${shots}/account-blocks-phone.png`, fullPage: true });
    await ann.click('[data-testid=unblock]');
    await ann.waitForFunction(() => /Nobody/.test(document.querySelector('[data-testid=blocks]')?.textContent || ''));
    await ann.goto(`${base}/@/${bobName}`);
    await ann.waitForSelector('[data-testid=challenge-button]');
    assert.deepEqual([...ann.errors, ...bob.errors], []);
  },

  async 'a newcomer finds how to play from the front page, at phone width'() {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(base);
    await page.click('[data-testid=newcomer] a');
    await page.waitForURL(/\/rules$/);
    await page.waitForSelector('[data-testid=rules] h1');
    assert.equal(await page.textContent('[data-testid=rules] h1'), 'How to play Lines of Action');
    assert.match(await page.title(), /^How to play · /);
    // The start, and b1's three moves from it, as pictures with words for a screen reader.
    assert.equal(await page.locator('[data-testid=rules] figure').count(), 2);
    assert.equal(await page.locator('[data-testid=rules] .rules-dot').count(), 3);
    assert.match(await page.getAttribute('[data-testid=rules] figure:nth-child(2) svg', 'aria-label'), /b3, d3 or h1/);
    // Every variant the server offers, each with what it changes.
    const variants = await page.$$eval('.rules-variants dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
    assert.equal(variants.length, 6);
    for (const [title, text] of variants) assert.ok(text && text.length > 20, `${title} is described`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no wider than the phone');
    await page.screenshot({ path: `${shots}/rules-phone.png`, fullPage: true });
    // The header leads there too, from any page.
    await page.goto(`${base}/players`);
    await page.click('header nav a[href="/rules"]');
    await page.waitForSelector('[data-testid=rules]');
    assert.deepEqual(page.errors, []);
  },

  async 'a forgotten password on a site that sends no e-mail, and reset links that are not ours'() {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(base);
    // Signing up says what the address is for on a site that sends no mail.
    await page.click('[data-testid=sign-up]');
    assert.ok(await page.locator('[data-testid=auth-forgot]').isHidden());
    await page.waitForFunction(() => /sends no e-mail yet/.test(document.querySelector('[data-testid=auth-email-hint]')?.textContent || ''));
    // From the sign-in dialog (not the sign-up one) to the reset dialog, which says at once
    // (the test server runs without --smtp) that no link can be mailed.
    await page.click('[data-testid=auth-switch]');
    await page.fill('[data-testid=auth-name]', `<b>${stamp}@ex.org`);
    await page.click('[data-testid=auth-forgot]');
    await page.waitForSelector('[data-testid=reset-dialog] [data-testid=reset-no-mail]');
    assert.match(await page.textContent('[data-testid=reset-no-mail]'), /^This site sends no e-mail, so it cannot mail a link/);
    assert.equal(await page.locator('[data-testid=reset-dialog] [data-testid=reset-email]').count(), 0);
    await page.screenshot({ path: `${shots}/reset-no-mail-phone.png` });
    await page.click('[data-testid=reset-back]');
    await page.waitForSelector('[data-testid=auth-dialog] [data-testid=auth-forgot]');
    await page.keyboard.press('Escape');
    // A link cut short, and one that is no link of ours: each says why, and offers another.
    await page.goto(`${base}/password-reset/abc`);
    await page.waitForSelector('[data-testid=reset-link-error]');
    assert.match(await page.textContent('[data-testid=reset-link-error]'), /^This is not a reset link/);
    await page.goto(`${base}/password-reset/abcdefghijkmnpqrstuvwxyz23`);
    await page.waitForFunction(() => /not one of ours/.test(document.querySelector('[data-testid=reset-link-error]')?.textContent || ''));
    await page.click('[data-testid=reset-ask-again]');
    await page.waitForSelector('[data-testid=reset-dialog] [data-testid=reset-no-mail]');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no wider than the phone');
    assert.deepEqual(page.errors, []);
  },

  async 'e-mail settings on a site that sends none, and a correspondence game waiting for its player'() {
    const ann = await newPage();
    const bob = await newPage({ width: 390, height: 844 });
    const annName = `mia_${stamp}`;
    const bobName = `ned_${stamp}`;
    await ann.goto(base);
    await signUp(ann, annName);
    await bob.goto(base);
    await signUp(bob, bobName);
    // The test server runs without --smtp: the account page says so, and nothing can be chosen.
    await ann.goto(`${base}/account`);
    await ann.waitForSelector('[data-testid=no-mail]');
    assert.match(await ann.textContent('[data-testid=no-mail]'), /This site sends no e-mail/);
    // An account without games is offered to become a bot.
    await ann.waitForSelector('[data-testid=become-bot]');
    for (const choice of ['each', 'digest', 'off']) {
      assert.ok(await ann.$eval(`[data-testid=notices-${choice}]`, (el) => el.matches(':disabled')), `${choice} can be chosen`);
    }
    assert.ok(await ann.isChecked('[data-testid=notices-each]'));
    // An address needs the password; given, it is kept unverified, shown as typed.
    const address = `ann.${stamp}@example.org`;
    await ann.fill('[data-testid=new-email]', address);
    await ann.fill('[data-testid=email-password]', 'not it at all');
    await ann.click('[data-testid=change-email]');
    await ann.waitForFunction(() => /password/i.test(document.querySelector('[data-testid=email-form-said]')?.textContent || ''));
    await ann.fill('[data-testid=email-password]', PASSWORD);
    await ann.click('[data-testid=change-email]');
    await ann.waitForSelector('[data-testid=mail-news]');
    assert.equal(await ann.textContent('[data-testid=mail-address]'), `${address} · not verified yet`);
    assert.equal(await ann.locator('[data-testid=resend-link]').count(), 0, 'no link is sent by a site that sends none');
    await ann.screenshot({ path: `${shots}/account-mail.png`, fullPage: true });
    // A verification link that came back expired says so, once.
    await ann.goto(`${base}/account?email=link-expired`);
    await ann.waitForSelector('[data-testid=email-banner]');
    assert.match(await ann.textContent('[data-testid=email-banner]'), /expired/);
    assert.equal(new URL(ann.url()).search, '');
    // A link anyone may write does not make an unverified address look verified.
    await ann.goto(`${base}/account?email=verified`);
    await ann.waitForSelector('[data-testid=mail-unverified]');
    assert.equal(await ann.locator('[data-testid=email-banner]').count(), 0);
    // A link to stop the e-mails that is not the site's stops nothing, and says so.
    await bob.goto(`${base}/mail/unsubscribe/not-one-of-ours`);
    await bob.click('[data-testid=unsubscribe]');
    await bob.waitForFunction(() => /not one of ours/.test(document.querySelector('[data-testid=unsubscribe-said]')?.textContent || ''));
    await bob.screenshot({ path: `${shots}/unsubscribe-phone.png` });
    // Ann seeks a correspondence game playing Black; Bob takes it: the game waits for her.
    const seek = await ann.evaluate(async () => (await fetch('/api/seeks', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'standard', rules: 'draw', rated: false, color: 'black', clock: { kind: 'correspondence', days: 3 } }),
    })).json());
    const taken = await bob.evaluate(async (s) => (await fetch(`/api/seeks/${s}/accept`, { method: 'POST' })).json(), seek.id);
    assert.equal(taken.color, 'white');
    const id = taken.game;
    await ann.goto(base);
    const waiting = ann.locator(`[data-testid=waiting-game]:has(a[href="/game/${id}"])`);
    await waiting.waitFor();
    assert.match(await waiting.textContent(), new RegExp(`^Your move against ${bobName}[23]d \\d+h left · 0 moves$`));
    await ann.waitForFunction(() => document.title.startsWith('(1) '));
    await ann.screenshot({ path: `${shots}/home-waiting.png` });
    // Bob, on his home page, has no game waiting and no count.
    await bob.goto(base);
    await bob.waitForSelector(`[data-testid=my-game] a[href="/game/${id}"]`);
    assert.deepEqual(await bob.evaluate(async () => (await fetch('/api/me/waiting')).json()), []);
    assert.ok(await bob.locator('[data-testid=waiting]').isHidden());
    const bobTitle = await bob.title();
    assert.ok(!bobTitle.startsWith('('), bobTitle);
    // Ann opens the game from the list and moves: her count goes at once.
    await waiting.locator('a').click();
    await ann.waitForFunction(() => /^\(1\) Your move/.test(document.title));
    await clickSquare(ann, 'b1');
    await clickSquare(ann, 'b3');
    await waitForPly(ann, 1);
    await ann.waitForFunction(() => !document.title.startsWith('('));
    // Now the game waits for Bob: counted on whichever page he opens, listed at home.
    await bob.click('header nav a[href="/players"]');
    await bob.waitForFunction(() => document.title === '(1) Players · loa: Lines of Action');
    await bob.goto(base);
    await bob.locator(`[data-testid=waiting-game]:has(a[href="/game/${id}"])`).waitFor();
    assert.match(await bob.textContent('[data-testid=waiting-game]'), new RegExp(`against ${annName}.*left · 1 move$`));
    await bob.screenshot({ path: `${shots}/home-waiting-phone.png` });
    assert.deepEqual([...ann.errors, ...bob.errors], []);
  },

  async 'a time-bank seek from the form, and a vacation that stops a clock'() {
    const ann = await newPage();
    const bob = await newPage({ width: 390, height: 844 });
    const annName = `vea_${stamp}`;
    const bobName = `veb_${stamp}`;
    await ann.goto(base);
    await signUp(ann, annName);
    await bob.goto(base);
    await signUp(bob, bobName);
    // Ann seeks a time bank playing Black: a bank smaller than a move's days is refused.
    await ann.click('[data-testid=tile-custom]');
    await ann.selectOption('[data-testid=seek-dialog] [data-testid=terms-clock]', 'bank');
    await ann.fill('[data-testid=terms-bank]', '2');
    await ann.fill('[data-testid=terms-bank-adds]', '3');
    await ann.selectOption('[data-testid=seek-dialog] [data-testid=terms-color]', 'black');
    await ann.click('[data-testid=make-seek]');
    await ann.waitForFunction(() => /The bank is from 3 \(the days a move adds\) to 60 days/.test(document.querySelector('[data-testid=seek-dialog] .error')?.textContent || ''));
    await ann.fill('[data-testid=terms-bank]', '12');
    await ann.screenshot({ path: `${shots}/seek-bank.png` });
    await ann.click('[data-testid=make-seek]');
    const row = ann.locator('[data-testid=seek].mine');
    await row.waitFor();
    assert.match(await row.textContent(), /12d bank \+3d/);
    // A bank adding 3 days a move is not the "3 days" tile's clock.
    assert.equal(await ann.getAttribute('[data-testid=tile][data-clock="3 days"]', 'aria-pressed'), 'false');
    const seekId = await row.getAttribute('data-seek');
    const seek = await ann.evaluate(async (s) => (await fetch(`/api/seeks/${s}`)).json(), seekId);
    assert.deepEqual(seek.clock, { kind: 'correspondence', days: 3, bank_days: 12 });
    // Bob takes it: White. Ann's lobby follows her seek into the game.
    const taken = await bob.evaluate(async (s) => (await fetch(`/api/seeks/${s}/accept`, { method: 'POST' })).json(), seekId);
    assert.equal(taken.color, 'white');
    await ann.waitForURL(new RegExp(`/game/${taken.game}$`), { timeout: 15000 });
    // Bob goes on a 5-day vacation: 25 of his 30 days are left.
    await bob.goto(`${base}/account`);
    const daysLeft = (page) => page.textContent('[data-testid=vacation-days-left]');
    await bob.waitForSelector('[data-testid=vacation-days]');
    assert.equal(await daysLeft(bob), '30 of 30 days left this year.');
    await bob.fill('[data-testid=vacation-days]', '31');
    await bob.click('[data-testid=start-vacation]');
    await bob.waitForFunction(() => /from 1 to 30 days/.test(document.querySelector('[data-testid=vacation-form-said]')?.textContent || ''));
    await bob.fill('[data-testid=vacation-days]', '5');
    await bob.click('[data-testid=start-vacation]');
    await bob.waitForSelector('[data-testid=vacation-until]');
    assert.match(await bob.textContent('[data-testid=vacation-until]'), /^On vacation until .+\.$/);
    assert.equal(await daysLeft(bob), '25 of 30 days left this year.');
    await bob.locator('[data-testid=vacation]').screenshot({ path: `${shots}/account-vacation-phone.png` });
    // Ann moves: White's clock stands still, at the whole bank, with the vacation said by it.
    await ann.waitForFunction(() => /Your move: Black/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    assert.match(await ann.textContent('[data-testid=game-terms]'), /^12d bank \+3d · Correspondence/);
    await clickSquare(ann, 'b1');
    await clickSquare(ann, 'b3');
    await waitForPly(ann, 1);
    const game = await gameOf(ann);
    assert.equal(game.clock.running, null);
    assert.ok(game.clock.resumes_at > Date.now() + 4.9 * 86400000, `resumes at ${game.clock.resumes_at}`);
    // Bob's list of games waiting for him says the clock stands still.
    await bob.goto(base);
    await bob.waitForFunction(() => /standing still until .* \(vacation\)/.test(document.querySelector('[data-testid=waiting-time]')?.textContent || ''));
    await bob.goto(`${base}/game/${taken.game}`);
    await bob.waitForFunction(() => /Your move: White/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    for (const page of [ann, bob]) {
      await page.waitForSelector('[data-testid=vacation-white]', { state: 'visible' });
      assert.match(await page.textContent('[data-testid=vacation-white]'), /^on vacation until /);
      assert.ok(await page.locator('[data-testid=vacation-black]').isHidden());
    }
    await ann.waitForTimeout(1500);
    for (const page of [ann, bob]) {
      assert.equal(await page.textContent('[data-testid=clock-white]'), '12d 0h', 'the clock stands still');
      assert.equal(await page.locator('[data-testid=clock-white].running').count(), 0);
    }
    await ann.screenshot({ path: `${shots}/vacation-game.png` });
    await bob.screenshot({ path: `${shots}/vacation-game-phone.png` });
    // Bob ends it: the clock runs, and the days not begun come back (the first had begun).
    await bob.goto(`${base}/account`);
    await bob.click('[data-testid=end-vacation]');
    await bob.waitForSelector('[data-testid=vacation-news]');
    assert.equal(await daysLeft(bob), '29 of 30 days left this year.');
    assert.ok(await bob.isVisible('[data-testid=start-vacation]'));
    assert.deepEqual(await bob.evaluate(async () => (await fetch('/api/me/vacation')).json()), { until: null, days_left: 29, days_a_year: 30 });
    await ann.waitForSelector('[data-testid=vacation-white]', { state: 'hidden' });
    await ann.waitForSelector('[data-testid=clock-white].running');
    await ann.waitForFunction(() => document.querySelector('[data-testid=clock-white]')?.textContent === '11d 23h');
    await ann.goto(`${base}/account`);
    await ann.waitForSelector('[data-testid=vacation-days]');
    await ann.screenshot({ path: `${shots}/account-vacation.png`, fullPage: true });
    assert.deepEqual([...ann.errors, ...bob.errors], []);
  },

  async 'a Swiss made on the page, joined, started, played and standing live'() {
    const ann = await newPage();
    const bob = await newPage({ width: 390, height: 844 });
    const annName = `tann_${stamp}`;
    const bobName = `tbob_${stamp}`;
    await ann.goto(base);
    await signUp(ann, annName);
    await bob.goto(base);
    await signUp(bob, bobName);
    // Ann makes a one-round Swiss from the list's form, and lands on its page.
    await ann.goto(`${base}/tournaments`);
    await ann.click('[data-testid=new-tournament]');
    await ann.fill('[data-testid=tournament-name]', `Cup <b>${stamp}</b>`);
    await ann.fill('[data-testid=tournament-rounds]', '1');
    // A start already past is refused on the form, not taken to mean at once.
    await ann.fill('[data-testid=tournament-starts-at]', '2020-01-01T12:00');
    await ann.click('[data-testid=make-tournament]');
    await ann.waitForFunction(() => /in the past/.test(document.querySelector('[data-testid=tournament-error]')?.textContent || ''));
    await ann.fill('[data-testid=tournament-starts-at]', '');
    await ann.click('[data-testid=make-tournament]');
    await ann.waitForURL(/\/tournament\/[a-z0-9]+$/);
    // The heading is filled once the tournament is read.
    await ann.waitForFunction(() => document.querySelector('[data-testid=tournament-name]')?.textContent);
    assert.equal(await ann.textContent('[data-testid=tournament-name]'), `Cup <b>${stamp}</b>`, 'the name shown as typed');
    await ann.click('[data-testid=join-tournament]');
    await ann.waitForSelector('[data-testid=withdraw-tournament]');
    // Bob finds it in the list and joins; Ann's page counts him without a reload.
    await bob.goto(`${base}/tournaments`);
    await bob.click(`[data-testid=tournament-row] >> text=Cup <b>${stamp}</b>`);
    await bob.click('[data-testid=join-tournament]');
    await ann.waitForFunction(() => / 2 players/.test(document.querySelector('[data-testid=tournament-status]')?.textContent || ''));
    assert.equal(await bob.locator('[data-testid=start-tournament]').count(), 0, 'only the creator starts it');
    await ann.click('[data-testid=start-tournament]');
    // Both see the pairing, their own game pointed out; Bob goes to it and resigns.
    await bob.waitForSelector('[data-testid=your-game]');
    assert.equal(await bob.textContent('[data-testid=pairing-game]'), 'Play');
    await ann.waitForSelector('[data-testid=crosstable]');
    await ann.screenshot({ path: `${shots}/tournament-running.png`, fullPage: true });
    await bob.screenshot({ path: `${shots}/tournament-your-game-phone.png`, fullPage: true });
    await bob.click('[data-testid=your-game] a');
    await bob.waitForURL(/\/game\/[a-z0-9]+$/);
    bob.once('dialog', (d) => d.accept());
    await bob.click('[data-testid=resign]');
    await bob.waitForSelector('[data-testid=rating-change-black]');
    // The game names its tournament and round, and offers no rematch outside it.
    assert.equal(await bob.textContent('[data-testid=game-tournament]'), `Round 1 of Cup <b>${stamp}</b>`);
    assert.ok(await bob.isHidden('[data-testid=rematch]'));
    await bob.goBack();
    await bob.waitForFunction(() => /Finished/.test(document.querySelector('[data-testid=tournament-status]')?.textContent || ''));
    await ann.waitForFunction(() => /Finished/.test(document.querySelector('[data-testid=tournament-status]')?.textContent || ''));
    assert.match(await ann.textContent('[data-testid=standing]'), new RegExp(`1\\s*${annName}\\s*1`));
    // On a phone the wins, draws and losses share one column; at desktop width they have three.
    const winner = bob.locator('[data-testid=standing]').first().locator('[data-testid=standing-record]');
    assert.equal(await winner.textContent(), '1-0-0');
    assert.ok(await winner.isVisible());
    assert.ok(await ann.locator('[data-testid=standing-record]').first().isHidden());
    await ann.screenshot({ path: `${shots}/tournament-finished.png`, fullPage: true });
    await bob.screenshot({ path: `${shots}/tournament-phone.png`, fullPage: true });
    assert.deepEqual(ann.errors, []);
    assert.deepEqual(bob.errors, []);
  },

  async 'a league\'s next season, the last one\'s standings folded under it'() {
    const ann = await newPage();
    const bob = await newPage({ width: 390, height: 844 });
    const names = { ann: `lann_${stamp}`, bob: `lbob_${stamp}` };
    for (const [page, name] of [[ann, names.ann], [bob, names.bob]]) {
      await page.goto(base);
      await signUp(page, name);
    }
    /** @param {import('playwright-core').Page} page @param {string} path @param {object} [body] */
    const post = (page, path, body) => page.evaluate(async ([p, b]) => {
      const answer = await fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b ?? {}) });
      return { status: answer.status, body: await answer.json() };
    }, [path, body]);
    const made = await post(ann, '/api/tournaments', {
      name: `League ${stamp}`, format: 'league', rounds: 2, clock: { kind: 'correspondence', days: 3 },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    for (const page of [ann, bob]) assert.equal((await post(page, `/api/tournaments/${id}/join`)).status, 200);
    assert.equal((await post(ann, `/api/tournaments/${id}/start`)).status, 200);
    // A newcomer during the season is told when they will play, before and after joining.
    const cy = await newPage({ width: 390, height: 844 });
    await cy.goto(base);
    await signUp(cy, `lcy_${stamp}`);
    await cy.goto(`${base}/tournament/${id}`);
    await cy.waitForSelector('[data-testid=late-join]');
    assert.equal(await cy.textContent('[data-testid=late-join]'), 'Joining now, you play from the next season, in the lowest division.');
    await cy.click('[data-testid=join-tournament]');
    await cy.waitForFunction(() => document.querySelector('[data-testid=late-join]')?.textContent === 'You play from season 2.');
    // Season one: Ann wins both games, Bob resigning each.
    const season = await post(bob, `/api/tournaments/${id}/join`);
    for (const p of season.body.pairings.filter((/** @type {any} */ p) => p.round === 1)) {
      assert.equal((await post(bob, `/api/games/${p.game}/resign`)).status, 200);
    }
    await ann.goto(`${base}/tournament/${id}`);
    await ann.waitForFunction(() => /Season 2/.test(document.querySelector('h2')?.textContent || ''));
    assert.equal(await ann.locator('[data-testid=earlier-season]').count(), 1);
    await ann.click('[data-testid=earlier-season] summary');
    const last = ann.locator('[data-testid=earlier-season] [data-testid=standing]');
    assert.match(await last.first().textContent(), new RegExp(`^11${names.ann}2`));
    await bob.goto(`${base}/tournament/${id}`);
    await bob.click('[data-testid=earlier-season] summary');
    await bob.screenshot({ path: `${shots}/league-seasons-phone.png`, fullPage: true });
    // A tournament not started is cancelled by its creator; a watcher is told at once.
    const other = await post(ann, '/api/tournaments', {
      name: `Spare ${stamp}`, format: 'swiss', rounds: 3, clock: { kind: 'live', initial_s: 180, increment_s: 2 },
    });
    assert.equal(other.status, 201, JSON.stringify(other.body));
    await bob.goto(`${base}/tournament/${other.body.id}`);
    await bob.waitForSelector('[data-testid=join-tournament]');
    assert.equal(await bob.locator('[data-testid=cancel-tournament]').count(), 0, 'only its creator cancels it');
    await ann.goto(`${base}/tournament/${other.body.id}`);
    ann.once('dialog', (d) => d.accept());
    await ann.click('[data-testid=cancel-tournament]');
    await ann.waitForURL(/\/tournaments$/);
    await bob.waitForSelector('[data-testid=tournament-cancelled]');
    await bob.screenshot({ path: `${shots}/tournament-cancelled-phone.png` });
    assert.deepEqual([...ann.errors, ...bob.errors, ...cy.errors], []);
  },

  async 'nothing is wider than a phone, on every page'() {
    const page = await newPage({ width: 390, height: 844 });
    const widest = () => page.evaluate(() => {
      let widest = document.documentElement.scrollWidth;
      let what = 'the page';
      // What scrolls sideways inside a strip made to scroll (the header's pages on a phone) is
      // measured by its strip, not by itself.
      const inStrip = (/** @type {Element} */ el) => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
          if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
        }
        return false;
      };
      for (const el of document.querySelectorAll('body *')) {
        if (inStrip(el)) continue;
        const right = el.getBoundingClientRect().right;
        if (right > widest) { widest = right; what = `${el.tagName.toLowerCase()}.${el.className}`; }
      }
      return { widest: Math.ceil(widest), what };
    });
    const pages = [
      ['home', base],
      ['analysis', `${base}/analysis`],
      ['players', `${base}/players`],
      ['puzzles', `${base}/puzzles/daily`],
    ];
    // Someone with a name as long as names go seeks a rated time bank: the widest lobby row.
    const other = await newPage();
    await other.goto(base);
    await signUp(other, `wide_${stamp}`.padEnd(20, 'x'));
    assert.equal(await other.evaluate(async () => (await fetch('/api/seeks', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'standard', rules: 'draw', rated: true, color: 'black', clock: { kind: 'correspondence', days: 3, bank_days: 12 } }),
    })).status), 201);
    // Signed in, for the account's pages.
    await page.goto(base);
    const name = `eve_${stamp}`;
    const made = await page.evaluate(async (n) => (await fetch('/api/accounts', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: 'a long password' }),
    })).status, name);
    assert.equal(made, 201);
    // A tournament named with 60 letters and no space, in the list and on its page.
    const cup = await page.evaluate(async () => (await (await fetch('/api/tournaments', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'W'.repeat(60), format: 'swiss', rounds: 3, variant: 'standard', rules: 'draw', clock: { kind: 'live', initial_s: 300, increment_s: 3 }, rated: false }),
    })).json()).id);
    assert.ok(cup, 'the tournament is made');
    // An API token with a label as long as labels go, one long word: the account page's
    // widest row.
    assert.equal(await page.evaluate(async () => (await fetch('/api/tokens', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ label: `my bot ${'L'.repeat(53)}` }),
    })).status), 201);
    pages.push(['account', `${base}/account`], ['profile', `${base}/@/${name}`], ['tournaments', `${base}/tournaments`], ['tournament', `${base}/tournament/${cup}`]);
    await openNewGame(page);
    await page.selectOption('[data-testid=opponent]', 'local');
    await page.selectOption('[data-testid=clock]', 'live');
    await page.click('[data-testid=start]');
    await page.waitForSelector('[data-testid=board] g[data-piece]');
    pages.push(['game', page.url()]);
    // A resigned game: the home page's list then has its longest words.
    assert.equal(await page.evaluate(async () => {
      const created = await (await fetch('/api/games', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ black: 'human', white: 'human' }),
      })).json();
      return (await fetch(`/api/games/${created.id}/resign`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: created.tokens[created.game.to_move_slot] }),
      })).status;
    }), 200);
    for (const [name, url] of pages) {
      await page.goto(url);
      await page.waitForSelector('main > *:not(p)');
      await page.waitForTimeout(300);
      const { widest: w, what } = await widest();
      await page.screenshot({ path: `${shots}/phone-${name}.png`, fullPage: true });
      assert.ok(w <= 390, `the ${name} page is ${w} px wide (${what}) on a 390 px screen`);
    }
    // The lobby's seeks say their variant on a phone too, where its column is left out.
    await page.goto(base);
    await page.waitForSelector('[data-testid=seek-variant-narrow]');
    assert.equal(await page.isVisible('[data-testid=seek-variant-narrow] >> nth=0'), true);
    // A page nobody has: the site's own frame says so (the server answers 404).
    const missing = await page.goto(`${base}/nowhere`);
    assert.equal(missing?.status(), 404);
    await page.waitForSelector('[data-testid=page-error]');
    assert.equal(await page.textContent('main h1'), 'Not found');
    assert.deepEqual(page.errors, []);
  },

  async 'a banner says when the server cannot be reached, and goes when it can'() {
    const page = await newPage();
    await openNewGame(page);
    await page.selectOption('[data-testid=opponent]', 'local');
    await page.click('[data-testid=start]');
    await page.waitForSelector('[data-testid=board] g[data-piece]');
    assert.ok(await page.locator('[data-testid=offline]').isHidden());
    // The server goes away: every request fails as if the network were down.
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await clickSquare(page, 'b1');
    await clickSquare(page, 'b3');
    await page.waitForSelector('[data-testid=offline]', { state: 'visible' });
    assert.match(await page.textContent('[data-testid=status]'), /cannot be reached/);
    await page.unroute('**/api/**');
    await clickSquare(page, 'b1');
    await clickSquare(page, 'b3');
    await waitForPly(page, 1);
    await page.waitForSelector('[data-testid=offline]', { state: 'hidden' });
    assert.deepEqual(page.errors, []);
  },

  async 'the board by keyboard, and a dragged piece follows the pointer'() {
    const page = await newPage();
    await openNewGame(page);
    await page.selectOption('[data-testid=opponent]', 'local');
    await page.click('[data-testid=start]');
    await page.waitForSelector('[data-testid=board] g[data-piece]');
    await page.focus('[data-testid=board]');
    // The cursor starts on a1; b1, Enter, up two, Enter plays b1-b3.
    for (const key of ['ArrowDown', 'ArrowRight', 'Enter', 'ArrowUp', 'ArrowUp', 'Enter']) {
      await page.keyboard.press(key);
    }
    await waitForPly(page, 1);
    let game = await gameOf(page);
    assert.equal(game.moves[0], 'b1-b3');
    // White drags its first legal step's piece there.
    const step = game.position.moves.find((m) => m.from && m.to);
    const box = async (sq) => page.locator(`[data-testid=board] rect[data-square=${sq}]`).boundingBox();
    const from = await box(step.from);
    const to = await box(step.to);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2 + from.width / 2, (from.y + to.y) / 2 + from.height / 2, { steps: 4 });
    const middle = await page.locator(`[data-testid=board] g[data-piece=${step.from}] circle`).first().getAttribute('cx');
    const [x] = [Number(middle)];
    assert.ok(x % 10 !== 5, `the dragged piece stays on its square (cx ${middle})`);
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    await waitForPly(page, 2);
    game = await gameOf(page);
    assert.equal(game.moves[1], step.text);
    assert.deepEqual(page.errors, []);
  },

  async 'the board of every variant'() {
    const page = await newPage();
    for (const variant of ['parachute', 'ambiloa', 'fields-of-action']) {
      await openNewGame(page);
      await page.selectOption('[data-testid=opponent]', 'local');
      await page.selectOption('[data-testid=variant]', variant);
      await page.click('[data-testid=start]');
      await page.waitForSelector('[data-testid=board] g[data-piece]');
      let game = await gameOf(page);
      const first = game.position.moves[0];
      if (first.from && first.drop) {
        // A Parachute turn: the step shows on the board, then the page asks for the
        // placement and marks where it may go.
        await clickSquare(page, first.from);
        await clickSquare(page, first.to);
        await page.waitForFunction(() => /Now place a piece/.test((document.querySelector('[data-testid=hint]')?.textContent || '')));
        assert.equal(await page.locator(`[data-testid=board] g[data-piece=${first.to}]`).count(), 1);
        assert.ok(await page.locator('[data-testid=board] [data-drop]').count() > 1);
        await page.screenshot({ path: `${shots}/${variant}-placement.png` });
        await clickSquare(page, first.drop);
      } else {
        await clickMove(page, first);
      }
      await waitForPly(page, 1);
      assert.ok(await page.locator('[data-testid=hint]').isHidden());
      game = await gameOf(page);
      assert.equal(game.moves[0], first.text, variant);
      await page.screenshot({ path: `${shots}/${variant}.png` });
    }
    assert.deepEqual(page.errors, []);
  },
};

let failed = 0;
const only = process.env.E2E_ONLY;
for (const [name, run] of Object.entries(scenarios)) {
  if (only && !name.includes(only)) continue;
  const started = Date.now();
  try {
    await run();
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}: ${err.stack || err}`);
  }
  await Promise.all(contexts.splice(0).map((context) => context.close()));
}
await browser.close();
process.exit(failed ? 1 : 0);
