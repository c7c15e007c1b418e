//! Alpha-beta search: iterative deepening, principal variation search, a transposition
//! table, killer and history move ordering, late move reductions, null move, and a
//! quiescence search on captures that make or break connections.

use crate::eval::{edge_squares, euler4, evaluate};
use crate::time::TimeLimit;
use crate::tt::{Bound, Entry, TranspositionTable};
use loa_core::{Bitboard, Color, Move, MoveList, Position, RuleSet, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The score of a connection on the board now; a win found `n` plies ahead scores
/// `MATE - n`.
pub const MATE: i32 = 30_000;
const INFINITY: i32 = MATE + 1;
/// Scores beyond this are wins or losses by connection.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub const MAX_PLY: usize = 128;
/// The deepest iteration a search can be asked for.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;
const NULL_MOVE: bool = true;
/// History values stay within this, below the killers' ordering scores.
const HISTORY_MAX: i32 = 1 << 24;
const WIN_IN_ONE_AT_LEAVES: bool = true;
/// Captures searched past the horizon, at most this many in a row.
const QUIESCENCE_PLIES: u32 = 3;
const EVAL_CACHE_SLOTS: usize = 1 << 16;

/// A score as protocols report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in hundredths of a piece-like unit.
    Cp(i32),
    /// A forced win (positive) or loss (negative) in this many moves of the side to move.
    Mate(i32),
}

impl Score {
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// When to stop searching. With no limit at all the search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<TimeLimit>,
    /// How many best lines to find (0 or 1: just the best).
    pub multipv: usize,
    /// When the time started: when the command to search came. `None`: when the search
    /// starts.
    pub start: Option<Instant>,
}

/// A report after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    /// Which of the best lines this is, from 1.
    pub multipv: usize,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the game is already over at the root.
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// The engine: its table and ordering heuristics outlive a single search.
pub struct Engine {
    tt: TranspositionTable,
    rules: RuleSet,
    /// What each thread keeps from one search to the next; the main thread's first.
    threads: Vec<Box<ThreadTables>>,
}

/// One search thread's own tables.
struct ThreadTables {
    history: History,
    /// Evaluations by position hash.
    eval_cache: Vec<(u64, i32)>,
}

impl ThreadTables {
    fn new() -> Box<ThreadTables> {
        Box::new(ThreadTables {
            history: [[[0; 64]; 64]; 2],
            eval_cache: vec![(0, 0); EVAL_CACHE_SLOTS],
        })
    }

    fn scale_history(&mut self, divisor: i32) {
        for h in self.history.iter_mut().flatten().flatten() {
            *h /= divisor;
        }
    }
}

impl Engine {
    pub fn new(hash_mb: usize, rules: RuleSet) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            rules,
            threads: vec![ThreadTables::new()],
        }
    }

    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    pub fn set_hash(&mut self, megabytes: usize) {
        self.tt = TranspositionTable::new(megabytes);
    }

    /// Forgets everything learnt: for a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threads.fill_with(ThreadTables::new);
    }

    /// Sets the number of search threads (lazy SMP over the shared table).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads.resize_with(threads.max(1), ThreadTables::new);
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Searches `root`. `history` holds the hashes of the game's positions before `root`,
    /// oldest first, so repetitions are seen; `stop` ends the search from outside.
    /// Helper threads search the same tree and share what they find through the table;
    /// the main thread's result is the answer.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        for tables in &mut self.threads {
            tables.scale_history(8);
        }
        let start = limits.start.unwrap_or_else(Instant::now);
        // A limit too far away to be an instant is no limit.
        let deadline = limits.time.and_then(|t| start.checked_add(t.hard()));
        let helpers_done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let (tt, rules) = (&self.tt, self.rules);
        let (main_tables, helper_tables) = self.threads.split_first_mut().expect("a main thread");
        std::thread::scope(|scope| {
            for (i, table) in helper_tables.iter_mut().enumerate() {
                let (helpers_done, helper_nodes) = (&helpers_done, &helper_nodes);
                scope.spawn(move || {
                    let mut helper = Search::new(tt, table, rules, stop, history, root);
                    helper.abort = Some(helpers_done);
                    helper.deadline = deadline;
                    helper.shared_nodes = Some(helper_nodes);
                    let helper_limits = Limits {
                        multipv: 1,
                        ..limits.clone()
                    };
                    // Odd helpers start one ply deeper so threads spread over depths.
                    helper.iterate(root, &helper_limits, start, 1 + (i as u32 % 2), |_| {});
                });
            }
            let mut main = Search::new(tt, main_tables, rules, stop, history, root);
            main.deadline = deadline;
            main.node_limit = limits.nodes.unwrap_or(u64::MAX);
            main.helper_nodes = Some(&helper_nodes);
            let result = main.iterate(root, limits, start, 1, on_info);
            helpers_done.store(true, Ordering::Relaxed);
            result
        })
    }
}

type History = [[[i32; 64]; 64]; 2];

struct Search<'a> {
    tt: &'a TranspositionTable,
    history: &'a mut History,
    rules: RuleSet,
    stop: &'a AtomicBool,
    /// Set when the main thread is done: ends a helper thread.
    abort: Option<&'a AtomicBool>,
    /// A helper adds its nodes here, in batches.
    shared_nodes: Option<&'a AtomicU64>,
    /// The main thread reads the helpers' nodes here for its reports.
    helper_nodes: Option<&'a AtomicU64>,
    deadline: Option<Instant>,
    node_limit: u64,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    /// Hashes of the game's positions then the search path, for repetitions.
    keys: Vec<u64>,
    game_len: usize,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    pv: Vec<Vec<Move>>,
    /// Root moves already reported as better lines in a multi-line search.
    excluded: Vec<Move>,
    eval_cache: &'a mut [(u64, i32)],
}

impl<'a> Search<'a> {
    fn new(
        tt: &'a TranspositionTable,
        tables: &'a mut ThreadTables,
        rules: RuleSet,
        stop: &'a AtomicBool,
        game: &[u64],
        root: &Position,
    ) -> Search<'a> {
        let mut keys = Vec::with_capacity(game.len() + MAX_PLY + 1);
        keys.extend_from_slice(game);
        keys.push(root.hash());
        Search {
            tt,
            history: &mut tables.history,
            rules,
            stop,
            abort: None,
            shared_nodes: None,
            helper_nodes: None,
            deadline: None,
            node_limit: u64::MAX,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys,
            game_len: game.len(),
            killers: [[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            excluded: Vec::new(),
            eval_cache: &mut tables.eval_cache,
        }
    }

    fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_nodes.map_or(0, |n| n.load(Ordering::Relaxed))
    }

    /// Iterative deepening from `first_depth`, reporting each finished line.
    fn iterate(
        &mut self,
        root: &Position,
        limits: &Limits,
        start: Instant,
        first_depth: u32,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let root_moves = root.legal_moves();
        let mut result = SearchResult {
            best: (root.outcome(self.rules).is_none()).then(|| root_moves[0]),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if result.best.is_none() {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = limits.multipv.clamp(1, root_moves.len());
        let mut previous = vec![0; lines];
        'deepening: for depth in first_depth.min(max_depth)..=max_depth {
            self.excluded.clear();
            // Each line is searched without the first moves of the lines before it.
            let mut found: Vec<(i32, Vec<Move>)> = Vec::with_capacity(lines);
            for &centre in &previous {
                let score = self.aspiration(root, depth, centre);
                // An unfinished iteration is dropped, unless it is the first.
                if self.stopped && depth > first_depth {
                    break 'deepening;
                }
                let pv = self.pv[0].clone();
                if let Some(&first) = pv.first() {
                    self.excluded.push(first);
                }
                found.push((score, pv));
                if self.stopped {
                    break;
                }
            }
            // A later line can score above an earlier one (the windows and the table
            // differ): the lines are reported best first, and the best is the answer.
            found.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
            let (best_score, best_pv) = &found[0];
            if let Some(&best) = best_pv.first() {
                result.best = Some(best);
            }
            result.score = *best_score;
            result.depth = depth;
            result.pv = best_pv.clone();
            for (line, (score, pv)) in found.iter().enumerate() {
                previous[line] = *score;
                on_info(&Info {
                    depth,
                    multipv: line + 1,
                    seldepth: self.seldepth,
                    score: Score::from_internal(*score),
                    nodes: self.total_nodes(),
                    time: start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: pv.clone(),
                });
            }
            if self.stopped {
                break;
            }
            let score = result.score;
            // A proven result cannot change with more depth.
            if lines == 1 && score.abs() >= MATE_BOUND && depth as i32 >= MATE - score.abs() {
                break;
            }
            // The next iteration takes several times as long as this one: with a clock,
            // do not start what is unlikely to finish. A fixed time is used to the end.
            if let Some(TimeLimit::Managed { soft, .. }) = limits.time {
                if start.elapsed() * 2 > soft {
                    break;
                }
            }
        }
        result.nodes = self.total_nodes();
        result
    }
    fn aspiration(&mut self, root: &Position, depth: u32, previous: i32) -> i32 {
        if depth < 4 || previous.abs() >= MATE_BOUND {
            return self.negamax(root, depth as i32, -INFINITY, INFINITY, 0, false);
        }
        let mut delta = 40;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.negamax(root, depth as i32, alpha, beta, 0, false);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1_000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(1024) {
            if let Some(shared) = self.shared_nodes {
                shared.fetch_add(1024, Ordering::Relaxed);
            }
        }
        // Often enough that a fixed move time is kept to a fraction of a millisecond.
        if self.nodes.is_multiple_of(256) {
            if self.abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
                self.stopped = true;
            }
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
        }
    }

    /// Whether the position at the top of `keys` repeats: a third occurrence in all, or
    /// any earlier occurrence since the root (the side that repeated can repeat again).
    fn is_repetition(&self) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let mut seen = 0;
        let mut i = n as isize - 3;
        while i >= 0 {
            if self.keys[i as usize] == key {
                if i as usize >= self.game_len {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i -= 2;
        }
        false
    }

    /// `after_capture`: the move into `pos` took a piece, so the side to move's pieces
    /// changed too.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        after_capture: bool,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.stopped && ply > 0 {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 {
            if let Some(score) = self.connection_end(pos, after_capture, ply) {
                return score;
            }
            if self.is_repetition() {
                return 0;
            }
            // No line from here can beat a connection already found nearer the root.
            let alpha_floor = alpha.max(-(MATE - ply as i32));
            let beta_ceiling = beta.min(MATE - ply as i32 - 1);
            if alpha_floor >= beta_ceiling {
                return alpha_floor;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            if !pv_node && i32::from(e.depth) >= depth {
                let score = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        // Null move: if passing still fails high at reduced depth, a real move will too.
        // Connection threats are not missed: after the pass the opponent may connect.
        if NULL_MOVE
            && !pv_node
            && ply > 0
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && pos.pieces(pos.side_to_move()).count() > 3
            && self.evaluate(pos) >= beta
        {
            let reduction = 2 + depth / 6;
            let child = pos.after(Move::PASS);
            self.keys.push(child.hash());
            let score = -self.negamax(
                &child,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                false,
            );
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if score >= MATE_BOUND { beta } else { score };
            }
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let us = pos.side_to_move();
        let mut scores = [0i32; MoveList::CAPACITY];
        let tt_move = entry.and_then(|e| e.mv);
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = self.order_score(mv, us, tt_move, ply);
        }
        // Quiet moves to the edge are seldom best: they are reduced one ply more.
        let edge = edge_squares(pos.board());
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        for i in 0..moves.len() {
            // Selection sort: the best remaining move first.
            let mut top = i;
            for j in i + 1..moves.len() {
                if scores[j] > scores[top] {
                    top = j;
                }
            }
            moves.swap(i, top);
            scores.swap(i, top);
            let mv = moves[i];
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            let child = pos.after(mv);
            let capture = mv.is_capture();
            self.keys.push(child.hash());
            let quiet = !mv.is_capture() && Some(mv) != tt_move;
            searched += 1;
            let score = if searched == 1 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, capture)
            } else {
                let reduction = if depth >= 3 && i >= 3 && quiet && !self.is_killer(mv, ply) {
                    1 + i32::from(i >= 10 && depth >= 5)
                        + i32::from(depth >= 4 && edge.contains(mv.to()))
                } else {
                    0
                };
                let mut score = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    capture,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, capture);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, capture);
                }
                score
            };
            self.keys.pop();
            if self.stopped && ply > 0 {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !mv.is_pass() {
                            self.reward(mv, us, depth, ply, &moves[..i]);
                        }
                        break;
                    }
                }
            }
            if self.stopped {
                break;
            }
        }
        // A root searched without some of its moves has no true value to store.
        if !self.stopped && (ply != 0 || self.excluded.is_empty()) {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                Entry {
                    mv: best_move,
                    score: to_tt(best, ply),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }

    /// The score for the side to move if the move into `pos` ended the game by
    /// connection. Only the pieces a move changed can have become connected: the mover's,
    /// and the opponent's after a capture (they were not connected before the move, or the
    /// game would have ended).
    fn connection_end(&self, pos: &Position, after_capture: bool, ply: usize) -> Option<i32> {
        let us = pos.side_to_move();
        let lost = -(MATE - ply as i32);
        match (pos.is_connected(!us), after_capture && pos.is_connected(us)) {
            (false, false) => None,
            (true, false) => Some(lost),
            (false, true) => Some(-lost),
            (true, true) => Some(match self.rules {
                RuleSet::Draw => 0,
                RuleSet::MoverWins => lost,
            }),
        }
    }

    /// Past the horizon, only captures that make or break a connection are searched: the
    /// mover's pieces form fewer groups, or the captured side's more (after the quad
    /// heuristic of Winands et al.). Captures cannot repeat a position.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, left: u32) -> i32 {
        let stand = self.leaf(pos, ply);
        if stand >= beta || left == 0 || ply >= MAX_PLY || stand.abs() >= MATE_BOUND {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.pieces(us), pos.pieces(!us));
        let (our_euler, their_euler) = (euler4(ours), euler4(theirs));
        let mut captures = MoveList::new();
        pos.for_each_move_set(us, |from, targets| {
            for to in targets & theirs {
                if changes_connections(ours, theirs, from, to, our_euler, their_euler) {
                    captures.push(Move::new(from, to, true));
                }
            }
        });
        for &mv in captures.iter() {
            let child = pos.after(mv);
            self.nodes += 1;
            self.check_limits();
            if self.stopped {
                return 0;
            }
            self.seldepth = self.seldepth.max(ply as u32 + 1);
            let score = match self.connection_end(&child, true, ply + 1) {
                Some(end) => -end,
                None => -self.quiesce(&child, -beta, -alpha, ply + 1, left - 1),
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The value of a node at the horizon: a connection the side to move can make at once
    /// is a win, not an evaluation; otherwise the static evaluation.
    fn leaf(&mut self, pos: &Position, ply: usize) -> i32 {
        if WIN_IN_ONE_AT_LEAVES {
            let us = pos.side_to_move();
            // One move joins at most the groups around one square: few groups or none.
            if pos.pieces(us).groups().take(4).count() <= 3 {
                let mut found = false;
                pos.for_each_move_set(us, |from, targets| {
                    for to in targets {
                        if found {
                            return;
                        }
                        let capture = pos.pieces(!us).contains(to);
                        let after = pos.after(Move::new(from, to, capture));
                        // A loss for the side to move after our move is our win.
                        found |= self.connection_end(&after, capture, ply + 1)
                            == Some(-(MATE - ply as i32 - 1));
                    }
                });
                if found {
                    return MATE - ply as i32 - 1;
                }
            }
        }
        self.evaluate(pos)
    }

    /// The static evaluation, through a small cache: the same leaves recur through
    /// transpositions and the searches of iterative deepening.
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = pos.hash();
        let slot = &mut self.eval_cache[(key as usize) & (EVAL_CACHE_SLOTS - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let score = evaluate(pos);
        *slot = (key, score);
        score
    }

    fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    fn order_score(&self, mv: Move, us: Color, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(mv) == tt_move {
            return 1 << 30;
        }
        if mv.is_pass() {
            return 0;
        }
        let history = self.history[us.index()][mv.from().index()][mv.to().index()];
        if mv.is_capture() {
            (1 << 28) + history
        } else if self.killers[ply][0] == Some(mv) {
            (1 << 27) + 1
        } else if self.killers[ply][1] == Some(mv) {
            1 << 27
        } else {
            history
        }
    }

    /// A move caused a cutoff: it becomes a killer (if quiet) and gains history; the moves
    /// tried before it lose some.
    fn reward(&mut self, mv: Move, us: Color, depth: i32, ply: usize, tried: &[Move]) {
        if !mv.is_capture() && self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = depth * depth;
        let table = &mut self.history[us.index()];
        let h = &mut table[mv.from().index()][mv.to().index()];
        *h = (*h + bonus).min(HISTORY_MAX);
        for &other in tried.iter().filter(|m| !m.is_pass()) {
            let h = &mut table[other.from().index()][other.to().index()];
            *h = (*h - bonus).max(-HISTORY_MAX);
        }
    }
}

/// Whether the capture `from`-`to` joins the mover's groups or splits the captured side's
/// (the Euler numbers, groups minus holes, given as `euler4` of the sides before it).
fn changes_connections(
    ours: Bitboard,
    theirs: Bitboard,
    from: Square,
    to: Square,
    our_euler: i32,
    their_euler: i32,
) -> bool {
    euler4(ours.without(from).with(to)) < our_euler || euler4(theirs.without(to)) > their_euler
}

/// Connection scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiescence_takes_captures_that_make_or_break_connections() {
        // (position, capture, whether it changes connections). Black moves.
        let cases = [
            // d4xd6 lands next to both e7 and c5: Black's two groups become one.
            ("8/4b3/3w4/2b5/3b4/8/8/7w b", "d4d6", true),
            // c3xe3 removes the piece that links White's two halves.
            ("8/8/8/8/3w1w2/2b1w3/3w1w2/b7 b", "c3e3", true),
            // a1xa3 takes a lone White piece and leaves Black's shape as it was.
            ("8/8/8/8/8/w7/8/b6w b", "a1a3", false),
        ];
        for (text, mv, expected) in cases {
            let pos: Position = text.parse().unwrap();
            let (from, to) = (
                Square::parse(&mv[..2]).unwrap(),
                Square::parse(&mv[2..]).unwrap(),
            );
            assert!(pos.is_legal(Move::new(from, to, true)), "{text} {mv}");
            let (ours, theirs) = (pos.pieces(Color::Black), pos.pieces(Color::White));
            let changes = changes_connections(ours, theirs, from, to, euler4(ours), euler4(theirs));
            assert_eq!(changes, expected, "{text} {mv}");
        }
    }
}
