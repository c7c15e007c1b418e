//! A proof-number solver: depth-first proof-number search (df-pn) with a transposition
//! table, the 1+epsilon trick, and initial numbers from the moves each side has and how
//! far apart its pieces are.
//!
//! It proves whether the side to move can force a win. A position that repeats one
//! earlier in the line counts as not won, so a proof never rests on a repetition; a
//! "not won" that rests on one is kept out of the table (it holds only on its own line:
//! the graph-history interaction). `solve` runs it for both sides to tell a win, a loss
//! and a draw, and writes the win as a [`Proof`] that `Proof::verify` checks with the
//! rules alone. It works on any [`GameState`], so on every board and every variant
//! where connection decides, under either rule set.

pub mod beside;
mod checkpoint;
mod extract;
mod line;
mod parallel;
mod table;

use line::Line;
use loa_core::proof::{Next, Proof};
use loa_core::topology::euler4;
use loa_core::{symmetry, BoardSize, Color, GameState, Move, RuleSet, VariantPosition};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use table::INF;
use table::{Entry, Table};

/// What a position is worth to the side to move, as proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    /// Neither side can force a win (with a repeated position counted as a draw).
    Draw,
    /// Out of time or nodes before a proof.
    Unknown,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Win => "win",
            Verdict::Loss => "loss",
            Verdict::Draw => "draw",
            Verdict::Unknown => "unknown",
        })
    }
}

/// When to give up.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveLimits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

/// The root's numbers, reported as the solver goes.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Whose win is being proved.
    pub attacker: Color,
    pub pn: u32,
    pub dn: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A solver's answer.
#[derive(Clone, Debug)]
pub struct Solution {
    pub verdict: Verdict,
    /// The winning move of a win (the first move of its proof).
    pub best: Option<Move>,
    /// The proof of the win (for `Win`, or of the opponent's win for `Loss`).
    pub proof: Option<Proof>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Of `elapsed`, the time taken writing the proof out of the table (proving again
    /// the positions whose entries it lost or that do not hold on the proof's line).
    pub proof_elapsed: Duration,
    /// Whose win was being proved and the root's proof and disproof numbers, as last
    /// combined (for an unknown result: how far it got).
    pub root_numbers: (Color, u32, u32),
    /// For an unknown result: each move at the root with its proof and disproof numbers
    /// for the same win (a disproof number of 0: the move is shown not to win).
    pub root_moves: Vec<(Move, u32, u32)>,
}

/// The most open root moves a report names: the nearest to being decided.
const REPORTED_OPEN_MOVES: usize = 20;

impl Solution {
    /// How far an unknown result got move by move, the root's side to move being
    /// `to_move`. At the attacker's turn: the moves shown not to win, and the others with
    /// their numbers, the nearest to a proof first. At the defender's: the moves shown to
    /// lose (all are needed for the win), and the others, the nearest to refuting it
    /// first. Of the root's `legal` moves, those that are images of others under the
    /// board's symmetries are not searched.
    pub fn root_moves_report(&self, to_move: Color, legal: u64) -> String {
        let attacker = self.root_numbers.0;
        let attacking = to_move == attacker;
        let moves = &self.root_moves;
        let decided = |&(_, pn, dn): &(Move, u32, u32)| if attacking { dn == 0 } else { pn == 0 };
        let mut open: Vec<_> = moves.iter().filter(|m| !decided(m)).collect();
        open.sort_by_key(|&&(_, pn, dn)| if attacking { pn } else { dn });
        let mut named: Vec<String> = open
            .iter()
            .take(REPORTED_OPEN_MOVES)
            .map(|(mv, pn, dn)| format!("{mv} {pn}/{dn}"))
            .collect();
        if open.len() > REPORTED_OPEN_MOVES {
            named.push(format!("and {} more", open.len() - REPORTED_OPEN_MOVES));
        }
        let images = match legal.saturating_sub(moves.len() as u64) {
            0 => String::new(),
            n => format!(" (the other {n} are their mirror images)"),
        };
        let shown = if attacking {
            format!("shown not to win for {attacker}")
        } else {
            format!("shown to lose to {attacker}'s win")
        };
        format!(
            "root moves: {} of {}{images} {shown}; open (proof/disproof numbers): {}",
            moves.len() - open.len(),
            moves.len(),
            named.join(", ")
        )
    }
}

/// Where the root's numbers are reported.
type ProgressReport<'a> = Box<dyn FnMut(&Progress) + Send + 'a>;

/// How much a node's threshold may exceed its second-best child (1 + epsilon).
const EPSILON: f64 = 0.25;

pub struct Solver<'a> {
    /// Shared with the helper threads.
    table: Arc<Table>,
    /// The table goes on from an earlier solve: it is not emptied.
    table_kept: bool,
    /// Threads in all, this one included.
    threads: usize,
    /// A helper's number from 1 (0: the main thread): it breaks ties between children
    /// in an order of its own and steps aside from the children others are in, so the
    /// threads spread out.
    helper: u64,
    /// The helpers' nodes so far, for the progress report.
    helper_nodes: Arc<AtomicU64>,
    /// With helpers: how many threads are inside each position (by key, folded), so
    /// that a thread choosing a child leaves the ones others search for later.
    busy: Option<Arc<[AtomicU32]>>,
    rules: RuleSet,
    attacker: Color,
    /// Keys of the positions on the current line, the game's history first.
    path: Line,
    nodes: u64,
    started: Instant,
    limits: SolveLimits,
    stop: &'a AtomicBool,
    stopped: bool,
    progress: Option<ProgressReport<'a>>,
    next_report: u64,
    root_key: u64,
    /// The root's proof and disproof numbers as the search last combined them.
    root_numbers: (u32, u32),
    /// Where and how often to write checkpoints.
    checkpoint: Option<(PathBuf, Duration)>,
    last_checkpoint: Instant,
    /// Whether the opponent's win is being proved (the side to move's was disproved).
    second_stage: bool,
    /// The one side whose win is tried, where the other's is not.
    only: Option<Color>,
    /// A checkpoint read: the table is filled, and the solve goes on where it was.
    resumed: Option<checkpoint::Stage>,
    /// The last checkpoint that could not be written.
    pub checkpoint_error: Option<String>,
    /// The moves of the node being expanded: a whole turn of some variants (Parachute's
    /// placements) is more than a `MoveList` holds.
    moves: Vec<Move>,
    /// The board symmetries that leave every position from the root to the node being
    /// searched as it is (see [`Solver::children`]).
    path_symmetries: u8,
    /// Children lists of nodes searched before, kept for their memory.
    spare: Vec<Vec<Child>>,
    /// The keys of the positions this thread's search is in, its root first.
    searching: Vec<u64>,
    /// With other threads: the place on `searching` of a position another thread solved,
    /// where this thread goes back to take the result.
    unwind_to: Option<usize>,
    /// Where a search writing a proof gives up (see [`Solver::extract`]): a node count.
    give_up_at: u64,
    /// The search reached `give_up_at`, and returns.
    gave_up: bool,
}

/// A move of the node being searched and what is known of the position it leads to
/// (the position itself is made again where needed: it is cheap to make, and a child
/// this small keeps a node's children in a few cache lines).
struct Child {
    mv: Move,
    key: u64,
    pn: u32,
    dn: u32,
    /// The numbers rest on a repetition on this line.
    path_dependent: bool,
    /// The move ends the game: the numbers are its result.
    ends: bool,
}

impl<'a> Solver<'a> {
    /// A solver with a table of `hash_mb` megabytes; an error when the memory cannot be
    /// had.
    pub fn new(
        hash_mb: usize,
        rules: RuleSet,
        limits: SolveLimits,
        stop: &'a AtomicBool,
    ) -> std::io::Result<Solver<'a>> {
        Ok(Solver::over(
            Arc::new(Table::new(hash_mb)?),
            false,
            rules,
            limits,
            stop,
        ))
    }

    /// A solver over `table`; a `kept` table is never emptied, as it goes on from one
    /// solve to the next (for one attacker: see [`beside::Memory`]).
    fn over(
        table: Arc<Table>,
        kept: bool,
        rules: RuleSet,
        limits: SolveLimits,
        stop: &'a AtomicBool,
    ) -> Solver<'a> {
        Solver {
            table,
            table_kept: kept,
            threads: 1,
            helper: 0,
            helper_nodes: Arc::new(AtomicU64::new(0)),
            busy: None,
            rules,
            attacker: Color::Black,
            path: Line::new(&[]),
            nodes: 0,
            started: Instant::now(),
            limits,
            stop,
            stopped: false,
            progress: None,
            next_report: 0,
            root_key: 0,
            root_numbers: (INF, INF),
            checkpoint: None,
            last_checkpoint: Instant::now(),
            second_stage: false,
            only: None,
            resumed: None,
            checkpoint_error: None,
            moves: Vec::new(),
            path_symmetries: 0,
            spare: Vec::new(),
            searching: Vec::new(),
            unwind_to: None,
            give_up_at: u64::MAX,
            gave_up: false,
        }
    }

    /// Searches on `threads` threads (at least one) over the shared table.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Tries `side`'s win only (a position believed won for it): a win or a loss is proved
    /// as before, but where `side` has no win the answer is unknown, a draw not being told
    /// from the other side's win.
    pub fn prove_only(&mut self, side: Color) {
        self.only = Some(side);
    }

    /// Writes a checkpoint to `path` every `every`, and when stopped before an answer.
    pub fn checkpoint_to(&mut self, path: PathBuf, every: Duration) {
        self.checkpoint = Some((path, every));
    }

    /// Goes on from a checkpoint of the same position and rule set (of any table size).
    pub fn resume_from(&mut self, path: &Path, root: &VariantPosition) -> Result<u64, String> {
        let stage = checkpoint::read(path, &self.table)
            .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
        if stage.root != root.key() || stage.rules != rules_code(self.rules) {
            return Err(format!(
                "{} is a checkpoint of another position or rule set",
                path.display()
            ));
        }
        self.resumed = Some(stage);
        Ok(stage.nodes)
    }

    fn write_checkpoint(&mut self) {
        let Some((path, _)) = &self.checkpoint else {
            return;
        };
        let stage = checkpoint::Stage {
            root: self.root_key,
            rules: rules_code(self.rules),
            attacker: self.attacker,
            second: self.second_stage,
            nodes: self.nodes,
        };
        self.checkpoint_error = checkpoint::write(path, &stage, &self.table)
            .err()
            .map(|e| format!("cannot write the checkpoint {}: {e}", path.display()));
        self.last_checkpoint = Instant::now();
    }

    /// Hears the root's numbers every 100,000 nodes.
    pub fn on_progress(&mut self, report: impl FnMut(&Progress) + Send + 'a) {
        self.progress = Some(Box::new(report));
    }

    /// Solves `root`, the game's earlier positions being `history` (their keys).
    pub fn solve(&mut self, root: &VariantPosition, history: &[u64]) -> Solution {
        // Each variant's own position type: the standard game keeps its fast paths.
        match root {
            VariantPosition::Standard(p) => self.solve_as(p, history),
            VariantPosition::Parachute(p) => self.solve_as(p, history),
            VariantPosition::AmbiLoa(p) => self.solve_as(p, history),
            VariantPosition::Neighbors(p) => self.solve_as(p, history),
            VariantPosition::FieldsOfAction(p) => self.solve_as(p, history),
        }
    }

    pub(crate) fn solve_as<P: GameState + Copy + Into<VariantPosition>>(
        &mut self,
        root: &P,
        history: &[u64],
    ) -> Solution {
        self.started = Instant::now();
        let us = root.side_to_move();
        let resumed = self.resumed.take();
        self.nodes = resumed.map_or(0, |stage| stage.nodes);
        let mut verdict = Verdict::Unknown;
        // A checkpoint of the second stage: the side to move's win was disproved.
        let first = if resumed.is_some_and(|stage| stage.second) || self.only == Some(!us) {
            Some(false)
        } else {
            self.second_stage = false;
            self.prove(root, history, us, resumed.is_some())
        };
        match first {
            Some(true) => verdict = Verdict::Win,
            Some(false) if self.only == Some(us) => {}
            Some(false) => match self.prove_second(root, history, resumed) {
                Some(true) => verdict = Verdict::Loss,
                Some(false) if self.only.is_none() => verdict = Verdict::Draw,
                _ => {}
            },
            None => {}
        }
        // The proof of the win proved (the opponent's, for a loss), timed apart.
        let (mut proof, mut best, mut proof_elapsed) = (None, None, Duration::ZERO);
        if matches!(verdict, Verdict::Win | Verdict::Loss) {
            let written = Instant::now();
            proof = self.extract(root, history);
            proof_elapsed = written.elapsed();
        }
        if verdict == Verdict::Win {
            // The proof's first move: the move the proof shows winning.
            best = proof
                .as_ref()
                .and_then(|p| p.nodes[0].first())
                .and_then(|(text, _)| root.parse_move(text).ok());
        }
        let mut root_moves = Vec::new();
        if verdict == Verdict::Unknown {
            self.write_checkpoint();
        }
        // A root solved for one side only (`prove_only`) has no open moves to tell of.
        let open = self.root_numbers.0 != 0 && self.root_numbers.1 != 0;
        if verdict == Verdict::Unknown && open {
            self.path.reset(history);
            root_moves = (self
                .children(root, self.root_symmetries(root, history), true)
                .iter())
            .map(|c| (c.mv, c.pn, c.dn))
            .collect();
        }
        let (pn, dn) = self.root_numbers;
        Solution {
            root_numbers: (self.attacker, pn, dn),
            verdict,
            best,
            proof,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
            proof_elapsed,
            root_moves,
        }
    }

    /// Whether the opponent of the side to move can force a win, once the side to move's
    /// win is disproved.
    fn prove_second<P: GameState + Copy>(
        &mut self,
        root: &P,
        history: &[u64],
        resumed: Option<checkpoint::Stage>,
    ) -> Option<bool> {
        let keep = resumed.is_some_and(|stage| stage.second);
        self.second_stage = true;
        self.prove(root, history, !root.side_to_move(), keep)
    }

    /// Whether `attacker` can force a win from `root`; `None` when stopped first.
    fn prove<P: GameState + Copy>(
        &mut self,
        root: &P,
        history: &[u64],
        attacker: Color,
        keep_table: bool,
    ) -> Option<bool> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        if !keep_table && !self.table_kept {
            // No helper holds the table between two stages.
            match Arc::get_mut(&mut self.table) {
                Some(table) => table.clear(),
                None => unreachable!("a helper outlived its stage"),
            }
        }
        self.attacker = attacker;
        self.path.reset(history);
        self.path_symmetries = self.root_symmetries(root, history);
        self.root_key = root.key();
        self.root_numbers = self
            .table
            .get(self.root_key)
            .map_or((INF, INF), |e| (e.pn, e.dn));
        let (pn, dn) = self.search_root(root);
        if pn == 0 {
            Some(true)
        } else if dn == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// Whether to stop here: out of time or nodes, past a proof writer's budget, or
    /// going back to a position another thread solved.
    fn must_return(&self) -> bool {
        self.stopped || self.gave_up || self.unwind_to.is_some()
    }

    /// Every 1,024 nodes: the limits, and (with other threads) whether one of them solved
    /// a position of this thread's line.
    fn look_around(&mut self) {
        if self.helper != 0 {
            self.helper_nodes.fetch_add(1024, Ordering::Relaxed);
        }
        let time_up = self
            .limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t);
        let nodes_up = self.limits.nodes.is_some_and(|n| self.nodes >= n);
        self.stopped |= time_up || nodes_up || self.stop.load(Ordering::Relaxed);
        self.gave_up |= self.nodes >= self.give_up_at;
        if self.busy.is_some() {
            self.unwind_to = self.solved_elsewhere();
        }
    }

    /// The numbers a position starts with, before it is searched: from the moves the
    /// side to move has (many moves are hard to refute, easy to use), each times one
    /// more than the groups beyond the first of the side it would take to connect (a
    /// side in pieces is far from a win). Groups are counted as the Euler number (groups
    /// less holes), which the quads give in a few word operations.
    fn initial<P: GameState>(&self, pos: &P) -> (u32, u32) {
        let moves = pos.count_moves().clamp(1, 1_000) as u32;
        let apart = |side| 1 + (euler4(pos.pieces(side)) / 4 - 1).clamp(0, 12) as u32;
        let (pn, dn) = if pos.side_to_move() == self.attacker {
            (1, moves)
        } else {
            (moves, 1)
        };
        let (pn, dn) = (pn * apart(self.attacker), dn * apart(!self.attacker));
        if self.helper == 0 {
            return (pn, dn);
        }
        // A helper sees each new position up to 1.75 times harder to prove and to disprove
        // (by its key and the helper's number): the helpers' trees part from the main
        // thread's where their children's numbers are close, instead of repeating its
        // work. Stronger (up to 2.75 times) lost.
        let bits = (pos.key() ^ self.helper.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let vary = |x: u32, bits: u64| x + x * (bits & 3) as u32 / 4;
        (vary(pn, bits >> 60), vary(dn, bits >> 56))
    }

    /// The children of `pos` with their numbers. Where every position from the root to
    /// `pos` is its own image under one of `symmetries`, a move's image leads to the image
    /// of its position with the same history, so is worth the same: only the first move
    /// of each such set is kept. Without `count_new`, a child the table does not hold is
    /// given numbers of one, not counted (writing a proof asks only which are solved).
    fn children<P: GameState + Copy>(
        &mut self,
        pos: &P,
        symmetries: u8,
        count_new: bool,
    ) -> Vec<Child> {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        pos.for_each_move(|mv| moves.push(mv));
        if symmetries != 0 {
            moves = distinct_up_to(symmetries, &moves, pos.size());
        }
        let mut children = self.spare.pop().unwrap_or_default();
        children.clear();
        // Each child's bucket is asked for as the rules judge its move, so that the
        // buckets arrive while the later moves are judged; the table is read after.
        // A move that wins for the side to move decides the node: the others are not
        // looked at.
        let mover = pos.side_to_move();
        for &mv in &moves {
            let after = pos.after(mv);
            let key = after.key();
            self.table.prefetch(key);
            let outcome = after.outcome_after(mv, self.rules);
            let (pn, dn, path_dependent) = match outcome {
                Some(o) if o.winner == Some(self.attacker) => (0, INF, false),
                Some(_) => (INF, 0, false),
                None if self.path.contains(key) => (INF, 0, true),
                // Read from the table below.
                None => (INF, INF, false),
            };
            let child = Child {
                mv,
                key,
                pn,
                dn,
                path_dependent,
                ends: outcome.is_some(),
            };
            if outcome.is_some_and(|o| o.winner == Some(mover)) {
                // The one child left ends the game: nothing to read below.
                children.clear();
                children.push(child);
                break;
            }
            children.push(child);
        }
        self.moves = moves;
        for child in children.iter_mut().filter(|c| !c.ends && !c.path_dependent) {
            let key = child.key;
            let (pn, dn) = match self.table.get(key) {
                Some(e) => (e.pn, e.dn),
                None if !count_new => (1, 1),
                None => {
                    let (pn, dn) = self.initial(&pos.after(child.mv));
                    self.table.put_initial(Entry {
                        key,
                        pn,
                        dn,
                        work: 0,
                    });
                    (pn, dn)
                }
            };
            (child.pn, child.dn) = self.behind_others(key, pn, dn);
        }
        children
    }

    /// The symmetries that leave the root as it is; none after a history (a repetition
    /// of a position before the root may not look the same in an image).
    fn root_symmetries<P: GameState>(&self, root: &P, history: &[u64]) -> u8 {
        if history.is_empty() {
            root.symmetries()
        } else {
            0
        }
    }

    /// The multiple-iterative-deepening step: searches `pos` until its numbers reach
    /// the thresholds; returns them and whether they rest on a repetition.
    fn mid<P: GameState + Copy>(&mut self, pos: &P, th_pn: u32, th_dn: u32) -> (u32, u32, bool) {
        self.nodes += 1;
        self.report();
        let or_node = pos.side_to_move() == self.attacker;
        let outer_symmetries = self.path_symmetries;
        if outer_symmetries != 0 {
            self.path_symmetries &= pos.symmetries();
        }
        let mut children = self.children(pos, self.path_symmetries, true);
        let key = pos.key();
        let start_nodes = self.nodes;
        self.path.push(key);
        let depth = self.searching.len();
        self.searching.push(key);
        self.enter(key);
        if self.nodes & 1023 == 0 {
            self.look_around();
        }
        let (mut pn, mut dn, mut dependent);
        loop {
            (pn, dn, dependent) = combine(&children, or_node);
            // Only the root has the root's key: a repetition of it is never searched.
            if key == self.root_key {
                self.root_numbers = (pn, dn);
            }
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.must_return() {
                break;
            }
            let first = self.first_child(key, children.len());
            let (best, second) = select(&children, or_node, first);
            let child = &children[best];
            let limit = ((f64::from(second) * (1.0 + EPSILON)).ceil() as u32).max(second + 1);
            let (child_th_pn, child_th_dn) = if or_node {
                (th_pn.min(limit), add(th_dn - dn.min(th_dn), child.dn))
            } else {
                (add(th_pn - pn.min(th_pn), child.pn), th_dn.min(limit))
            };
            let child_pos = pos.after(child.mv);
            let (cpn, cdn, cdep) = self.mid(&child_pos, child_th_pn, child_th_dn);
            let child = &mut children[best];
            child.pn = cpn;
            child.dn = cdn;
            child.path_dependent = cdep;
        }
        self.spare.push(children);
        self.path.pop();
        self.searching.pop();
        self.leave(key);
        if self.unwind_to == Some(depth) {
            // Another thread solved this position: its result, from the table.
            self.unwind_to = None;
            if let Some(e) = self.table.get(key).filter(Entry::is_solved) {
                (pn, dn, dependent) = (e.pn, e.dn, false);
                if key == self.root_key {
                    self.root_numbers = (pn, dn);
                }
            }
        }
        self.path_symmetries = outer_symmetries;
        // A "not won" that rests on a repetition holds on this line only.
        if !(dn == 0 && dependent) {
            let work = u32::try_from(self.nodes - start_nodes).unwrap_or(u32::MAX);
            self.table.put(Entry { key, pn, dn, work });
        }
        (pn, dn, dependent)
    }

    fn report(&mut self) {
        if self.nodes < self.next_report {
            return;
        }
        self.next_report = self.nodes + 100_000;
        // The root's numbers as last combined: they change when the search returns to it.
        let (pn, dn) = self.root_numbers;
        let progress = Progress {
            attacker: self.attacker,
            pn,
            dn,
            nodes: self.nodes + self.helper_nodes.load(Ordering::Relaxed),
            elapsed: self.started.elapsed(),
        };
        if let Some(report) = self.progress.as_mut() {
            report(&progress);
        }
        if self
            .checkpoint
            .as_ref()
            .is_some_and(|(_, every)| self.last_checkpoint.elapsed() >= *every)
        {
            self.write_checkpoint();
        }
    }
}

fn rules_code(rules: RuleSet) -> u8 {
    match rules {
        RuleSet::Draw => 0,
        RuleSet::MoverWins => 1,
    }
}

fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INF)
}

/// A node's numbers from its children's: at an OR node the easiest child to prove and
/// all of them to disprove; at an AND node the reverse.
fn combine(children: &[Child], or_node: bool) -> (u32, u32, bool) {
    if children.is_empty() {
        // No move at all (not in games with a pass): the side to move cannot win.
        return if or_node {
            (INF, 0, false)
        } else {
            (0, INF, false)
        };
    }
    let (mut min, mut sum, mut dependent) = (INF, 0u32, false);
    for c in children {
        let (small, big) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
        min = min.min(small);
        sum = add(sum, big);
        dependent |= c.path_dependent;
    }
    if or_node {
        (min, sum, dependent)
    } else {
        (sum, min, dependent)
    }
}

/// The child to search and the second-best number: the least proof number at an OR
/// node, the least disproof number at an AND node; ties go to the first in the order
/// that starts at `first`.
fn select(children: &[Child], or_node: bool, first: usize) -> (usize, u32) {
    let number = |c: &Child| if or_node { c.pn } else { c.dn };
    let (mut best, mut least, mut second) = (first, number(&children[first]), INF);
    // From `first` to the end, then from the start: no division in the loop.
    for i in (first + 1..children.len()).chain(0..first) {
        let n = number(&children[i]);
        if n < least {
            (best, least, second) = (i, n, least);
        } else {
            second = second.min(n);
        }
    }
    (best, second)
}

/// The moves that are not an image of an earlier one under `symmetries`.
fn distinct_up_to(symmetries: u8, moves: &[Move], size: BoardSize) -> Vec<Move> {
    let mut distinct = Vec::new();
    for (index, &mv) in moves.iter().enumerate() {
        let seen = (1..8)
            .filter(|i| symmetries & 1 << i != 0)
            .any(|i| moves[..index].contains(&symmetry::move_image(mv, i, size)));
        if !seen {
            distinct.push(mv);
        }
    }
    distinct
}

#[cfg(test)]
mod tests;
