//! Certificates: a forced win written as the winner's strategy alone, small enough to keep
//! beside the claim it proves and checked with the plain rules.
//!
//! A [`Proof`] lists every node with every move. A certificate keeps only what a checker
//! cannot work out for itself: the winner's choice where the winner has no connection at
//! once. The checker walks the game from the start, depth first: at the loser's turn it
//! tries every legal move; at the winner's turn it first looks for a move that wins at once
//! (such positions are left out of the certificate: the small search re-proves them), and
//! otherwise reads the next entry, the index of the winner's move among the legal moves. A
//! position met again is not read again: transpositions are shared.
//!
//! The checker refuses a line that comes back to a position on it, so no position repeats
//! along any line of play and repetition never decides, as in a [`Proof`].
//!
//! The format, after its text header (`loa-certificate 1`, `variant`, `rules`,
//! `position`, `winner`, `entries N`, one line each), is N entries of one to three bytes:
//! the move's index as an unsigned LEB128 number (seven bits a byte, the lowest first, the
//! high bit set on every byte but the last). The legal moves are numbered in the order of
//! the square the piece leaves, then the square it reaches, then the square of a
//! Parachute drop, squares counted `8 * rank + file` from a1 = 0 on every board; a forced
//! pass is the only move. The entries come in the order the walk asks for them: a loser's
//! moves in that same order.

use crate::proof::{Next, Proof};
use crate::{counted, Color, GameState, Move, Position, RuleSet, Variant, VariantPosition};
use std::collections::HashMap;
use std::hash::Hash;
use std::io::{BufRead, Read, Write};

/// The first line of every certificate.
pub const MAGIC: &str = "loa-certificate 1";

/// What the walk learns of the certificate's strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateSummary {
    /// The winner's moves read from the certificate.
    pub entries: u64,
    /// The distinct positions checked, both sides to move.
    pub positions: u64,
    /// The longest line of play, in moves.
    pub depth: u32,
}

/// `5 entries, 40 positions, longest line 9 moves`.
impl std::fmt::Display for CertificateSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let entries = match self.entries {
            1 => "1 entry".to_string(),
            n => format!("{n} entries"),
        };
        write!(
            f,
            "{entries}, {}, longest line {}",
            counted(self.positions, "position"),
            counted(self.depth, "move")
        )
    }
}

/// What is wrong with a certificate.
#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    #[error("line {line}: {message}")]
    Header { line: usize, message: String },
    /// The strategy fails: after `entries` entries, in `position`.
    #[error("after {entries} entries, at {position}: {message}")]
    Invalid {
        entries: u64,
        position: String,
        message: String,
    },
    #[error("cannot read the certificate: {0}")]
    Read(#[from] std::io::Error),
}

/// A certificate's header: what it claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: Variant,
    pub rules: RuleSet,
    pub start: VariantPosition,
    pub winner: Color,
    /// How many entries follow.
    pub entries: u64,
}

impl Header {
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "{MAGIC}")?;
        writeln!(out, "variant {}", self.variant.name())?;
        writeln!(out, "rules {}", self.rules)?;
        writeln!(out, "position {}", self.start)?;
        writeln!(out, "winner {}", self.winner.name().to_ascii_lowercase())?;
        writeln!(out, "entries {}", self.entries)
    }

    /// Reads the header's lines, leaving `input` at the first entry.
    pub fn read(input: &mut impl BufRead) -> Result<Header, CertificateError> {
        let mut number = 0;
        let mut line = |name: &str| -> Result<(usize, String), CertificateError> {
            number += 1;
            let mut text = String::new();
            // A header line is short: a file that is not a certificate is not read whole.
            input.by_ref().take(4096).read_line(&mut text)?;
            let header = |message: String| CertificateError::Header {
                line: number,
                message,
            };
            if !text.ends_with('\n') {
                return Err(header(format!(
                    "expected a '{name}' line, found the end of the header"
                )));
            }
            let text = text.trim();
            if name == MAGIC {
                return if text == MAGIC {
                    Ok((number, String::new()))
                } else {
                    Err(header(format!("expected '{MAGIC}'")))
                };
            }
            text.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(|value| (number, value.trim().to_string()))
                .ok_or_else(|| header(format!("expected '{name} ...'")))
        };
        let error = |line: usize, message: String| CertificateError::Header { line, message };
        line(MAGIC)?;
        let (at, variant) = line("variant")?;
        let variant: Variant = variant.parse().map_err(|e| error(at, format!("{e}")))?;
        let (at, rules) = line("rules")?;
        let rules: RuleSet = rules.parse().map_err(|e| error(at, format!("{e}")))?;
        let (at, position) = line("position")?;
        let start = VariantPosition::parse(variant, &position)
            .map_err(|e| error(at, format!("bad position: {e}")))?;
        let (at, winner) = line("winner")?;
        let winner = match winner.to_ascii_lowercase().as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            _ => return Err(error(at, "the winner is black or white".into())),
        };
        let (at, entries) = line("entries")?;
        let entries = entries
            .parse()
            .map_err(|_| error(at, "the entries are counted by a whole number".into()))?;
        Ok(Header {
            variant,
            rules,
            start,
            winner,
            entries,
        })
    }
}

/// Writes `proof` (checked by [`Proof::verify`] first) as a certificate under the proof's
/// rules, and returns what the walk saw.
pub fn write_certificate(
    proof: &Proof,
    out: &mut impl Write,
) -> Result<CertificateSummary, CertificateError> {
    let (entries, summary) = match &proof.start {
        VariantPosition::Standard(start) => strategy_of(proof, *start)?,
        start => strategy_of(proof, *start)?,
    };
    Header {
        variant: proof.variant,
        rules: proof.rules,
        start: proof.start,
        winner: proof.winner,
        entries: summary.entries,
    }
    .write(out)?;
    out.write_all(&entries)?;
    Ok(summary)
}

/// Checks a certificate read from `input` under `rules` (the header's unless given);
/// `progress` is called now and then with the entries read so far and the header's count.
pub fn verify_certificate(
    input: &mut impl BufRead,
    rules: Option<RuleSet>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Header, CertificateSummary), CertificateError> {
    let mut header = Header::read(input)?;
    if let Some(rules) = rules {
        header.rules = rules;
    }
    progress(0, header.entries);
    let mut reader = EntryReader {
        input,
        read: 0,
        count: header.entries,
        progress,
    };
    let summary = match &header.start {
        VariantPosition::Standard(start) => walk(*start, header.winner, header.rules, &mut reader),
        start => walk(*start, header.winner, header.rules, &mut reader),
    }?;
    let invalid = |message: String| CertificateError::Invalid {
        entries: summary.entries,
        position: header.start.to_string(),
        message,
    };
    let mut rest = [0u8; 1];
    if reader.input.read(&mut rest)? != 0 {
        return Err(invalid(
            "the strategy is complete, but more entries follow".into(),
        ));
    }
    if summary.entries != header.entries {
        return Err(invalid(format!(
            "the header counts {} entries, the strategy read {}",
            header.entries, summary.entries
        )));
    }
    Ok((header, summary))
}

/// A position as the walk tells it apart from others: exactly (a position and its mirror
/// images are not merged: docs/solver.md says why).
trait Walked: GameState {
    type Key: Hash + Eq + Clone;
    fn walk_key(&self) -> Self::Key;
}

/// Both colours' squares and the side to move: a third of a standard position's size.
type BoardKey = (u64, u64, bool);

impl Walked for Position {
    type Key = BoardKey;

    fn walk_key(&self) -> BoardKey {
        (
            self.pieces(Color::Black).0,
            self.pieces(Color::White).0,
            self.side_to_move() == Color::Black,
        )
    }
}

impl Walked for VariantPosition {
    type Key = VariantPosition;

    fn walk_key(&self) -> VariantPosition {
        *self
    }
}

/// The legal moves in the certificate's order.
fn ordered_moves<P: GameState>(pos: &P) -> Vec<Move> {
    let mut moves = pos.moves();
    moves.sort_unstable_by_key(|mv| {
        (
            mv.is_pass(),
            mv.from().index(),
            mv.to().index(),
            mv.drop().map(|square| square.index()),
        )
    });
    moves
}

/// Where the winner's moves come from: the certificate's entries, or a proof's nodes.
trait Choice<P> {
    /// The index of the winner's move among `moves` (in the certificate's order).
    fn choose(&mut self, pos: &P, moves: &[Move]) -> Result<usize, String>;
    /// The entries given so far.
    fn given(&self) -> u64;
}

/// The certificate's entries, read one by one.
struct EntryReader<'a, R> {
    input: &'a mut R,
    read: u64,
    /// The header's count, for `progress`.
    count: u64,
    progress: &'a mut dyn FnMut(u64, u64),
}

impl<P, R: BufRead> Choice<P> for EntryReader<'_, R> {
    fn choose(&mut self, _: &P, moves: &[Move]) -> Result<usize, String> {
        let mut index: u64 = 0;
        for shift in (0..).step_by(7) {
            let mut byte = [0u8; 1];
            match self.input.read(&mut byte) {
                Ok(1) => {}
                Ok(_) => {
                    return Err(format!(
                        "the certificate ends after {} entries, but this position needs one",
                        self.read
                    ))
                }
                Err(e) => return Err(format!("cannot read the certificate: {e}")),
            }
            if shift > 14 {
                return Err("an entry is longer than three bytes".into());
            }
            index |= u64::from(byte[0] & 0x7f) << shift;
            if byte[0] & 0x80 == 0 {
                break;
            }
        }
        self.read += 1;
        if self.read.is_multiple_of(1 << 16) {
            (self.progress)(self.read, self.count);
        }
        usize::try_from(index)
            .ok()
            .filter(|&i| i < moves.len())
            .ok_or_else(|| {
                format!(
                    "entry {} names move {index}, but the position has {} legal moves",
                    self.read,
                    moves.len()
                )
            })
    }

    fn given(&self) -> u64 {
        self.read
    }
}

/// A checked proof's winner's moves, by position, written as entries.
struct ProofMoves<K> {
    moves: HashMap<K, Move>,
    entries: Vec<u8>,
    count: u64,
}

impl<P: Walked> Choice<P> for ProofMoves<P::Key> {
    fn choose(&mut self, pos: &P, moves: &[Move]) -> Result<usize, String> {
        let chosen = self
            .moves
            .get(&pos.walk_key())
            .ok_or("the proof has no node for this position")?;
        let chosen = moves
            .iter()
            .position(|mv| mv == chosen)
            .ok_or("the proof's move is not legal here")?;
        let mut index = chosen;
        loop {
            let low = (index & 0x7f) as u8;
            index >>= 7;
            if index == 0 {
                self.entries.push(low);
                break;
            }
            self.entries.push(low | 0x80);
        }
        self.count += 1;
        Ok(chosen)
    }

    fn given(&self) -> u64 {
        self.count
    }
}

/// The entries of `proof`'s strategy from `start`, and what the walk saw.
fn strategy_of<P: Walked>(
    proof: &Proof,
    start: P,
) -> Result<(Vec<u8>, CertificateSummary), CertificateError> {
    let invalid = |node: usize, message: String| CertificateError::Invalid {
        entries: 0,
        position: format!("the proof's node {node}"),
        message,
    };
    proof.verify().map_err(|e| invalid(0, e.to_string()))?;
    // The position of every node, found by replaying the proof's moves from the start;
    // the winner's nodes give their move.
    let mut positions: Vec<Option<P>> = vec![None; proof.nodes.len()];
    let mut moves = HashMap::new();
    positions[0] = Some(start.clone());
    let mut stack = vec![0];
    while let Some(node) = stack.pop() {
        let pos = positions[node]
            .clone()
            .expect("a node is stacked with its position");
        for (text, next) in &proof.nodes[node] {
            let mv = pos
                .parse_move(text)
                .map_err(|e| invalid(node, format!("{text}: {e}")))?;
            if pos.side_to_move() == proof.winner {
                moves.insert(pos.walk_key(), mv);
            }
            if let Next::Node(child) = *next {
                if positions[child].is_none() {
                    positions[child] = Some(pos.after(mv));
                    stack.push(child);
                }
            }
        }
    }
    drop(positions);
    let mut choice = ProofMoves {
        moves,
        entries: Vec::new(),
        count: 0,
    };
    let summary = walk(start, proof.winner, proof.rules, &mut choice)?;
    Ok((choice.entries, summary))
}

/// A position's place in the walk.
#[derive(Clone, Copy)]
enum Mark {
    /// On the line being checked.
    OnLine,
    /// Won, with the longest line from it.
    Won(u32),
}

/// A position whose moves are being tried: the loser's (all of them) or the winner's
/// chosen one.
struct Frame<P: Walked> {
    key: P::Key,
    pos: P,
    moves: Vec<Move>,
    next: usize,
    /// The longest line from the position through the moves tried so far.
    deepest: u32,
}

/// Walks the strategy that `choice` gives from `start`: every line must end in the
/// winner's win without a position coming back.
fn walk<P: Walked>(
    start: P,
    winner: Color,
    rules: RuleSet,
    choice: &mut impl Choice<P>,
) -> Result<CertificateSummary, CertificateError> {
    if let Some(outcome) = start.outcome(rules) {
        return Err(failure(
            choice.given(),
            &start,
            format!("the game is over: {outcome}"),
        ));
    }
    let mut walk = Walk {
        winner,
        rules,
        marks: HashMap::new(),
        stack: Vec::new(),
    };
    // The longest line from the position just reached; `None` while its frame is open.
    let mut reached = walk.enter(start, choice)?;
    while let Some(frame) = walk.stack.last_mut() {
        if let Some(depth) = reached.take() {
            frame.deepest = frame.deepest.max(depth + 1);
        }
        let Some(&mv) = frame.moves.get(frame.next) else {
            let done = walk.stack.pop().expect("the frame just looked at");
            reached = Some(done.deepest);
            walk.marks.insert(done.key, Mark::Won(done.deepest));
            continue;
        };
        frame.next += 1;
        let after = frame.pos.after(mv);
        reached = match after.outcome_after(mv, rules) {
            Some(outcome) if outcome.winner == Some(winner) => Some(0),
            Some(outcome) => {
                let message = format!("{mv} ends the game: {outcome}");
                return Err(failure(choice.given(), &frame.pos, message));
            }
            None => walk.enter(after, choice)?,
        };
    }
    Ok(CertificateSummary {
        entries: choice.given(),
        positions: walk.marks.len() as u64,
        depth: reached.unwrap_or(0),
    })
}

fn failure<P: GameState>(entries: u64, pos: &P, message: String) -> CertificateError {
    CertificateError::Invalid {
        entries,
        position: pos.to_string(),
        message,
    }
}

/// The walk's state: the positions met and the line being checked.
struct Walk<P: Walked> {
    winner: Color,
    rules: RuleSet,
    marks: HashMap<P::Key, Mark>,
    stack: Vec<Frame<P>>,
}

impl<P: Walked> Walk<P> {
    /// Reaches `pos` (the game not over): the longest line from it when that is known at
    /// once, or `None` with a frame opened for its moves.
    fn enter(
        &mut self,
        pos: P,
        choice: &mut impl Choice<P>,
    ) -> Result<Option<u32>, CertificateError> {
        let key = pos.walk_key();
        match self.marks.get(&key) {
            Some(Mark::Won(depth)) => return Ok(Some(*depth)),
            Some(Mark::OnLine) => {
                let message = "the position comes back on its line";
                return Err(failure(choice.given(), &pos, message.into()));
            }
            None => {}
        }
        let mut moves = ordered_moves(&pos);
        if pos.side_to_move() == self.winner {
            let (winner, rules) = (self.winner, self.rules);
            let wins_at_once = |mv: &Move| {
                pos.after(*mv)
                    .outcome_after(*mv, rules)
                    .is_some_and(|o| o.winner == Some(winner))
            };
            // Left out of the certificate, and not kept: found again at each visit.
            if moves.iter().any(wins_at_once) {
                return Ok(Some(1));
            }
            let index = choice
                .choose(&pos, &moves)
                .map_err(|message| failure(choice.given(), &pos, message))?;
            moves = vec![moves[index]];
        }
        self.marks.insert(key.clone(), Mark::OnLine);
        self.stack.push(Frame {
            key,
            pos,
            moves,
            next: 0,
            deepest: 0,
        });
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A brute-force prover for small positions: the winner's nodes by position, each
    /// with its moves (every loser's move, the winner's one), found depth first without
    /// a position repeating on a line. Returns the proof when `moves` winner's moves win.
    fn brute_force_proof(text: &str, rules: RuleSet, moves: u32) -> Option<Proof> {
        let start: Position = text.parse().unwrap();
        brute_force_win(start, start.side_to_move(), rules, moves)
    }

    fn brute_force_win(
        start: Position,
        winner: Color,
        rules: RuleSet,
        moves: u32,
    ) -> Option<Proof> {
        struct Prover {
            rules: RuleSet,
            winner: Color,
            nodes: Vec<Vec<(String, Next)>>,
            positions: Vec<Position>,
            ids: HashMap<Position, usize>,
            line: HashSet<Position>,
        }
        impl Prover {
            /// The node proving `pos` a win within `left` winner's moves.
            fn prove(&mut self, pos: Position, left: u32) -> Option<usize> {
                if let Some(&id) = self.ids.get(&pos) {
                    // Taken again only where no position of its proof is on this line.
                    return (!self.meets_line(id)).then_some(id);
                }
                if left == 0 || !self.line.insert(pos) {
                    return None;
                }
                let winner_moves = pos.side_to_move() == self.winner;
                let mut given = Vec::new();
                for mv in ordered_moves(&pos) {
                    let after = pos.after(mv);
                    let next = match after.outcome_after(mv, self.rules) {
                        Some(o) if o.winner == Some(self.winner) => Some(Next::Win),
                        Some(_) => None,
                        None => {
                            let left = left - u32::from(winner_moves);
                            self.prove(after, left).map(Next::Node)
                        }
                    };
                    match (next, winner_moves) {
                        (Some(next), true) => {
                            given = vec![(mv.to_string(), next)];
                            break;
                        }
                        (Some(next), false) => given.push((mv.to_string(), next)),
                        (None, true) => {}
                        (None, false) => {
                            given.clear();
                            break;
                        }
                    }
                }
                self.line.remove(&pos);
                if given.is_empty() {
                    return None;
                }
                self.nodes.push(given);
                self.positions.push(pos);
                let id = self.nodes.len() - 1;
                self.ids.insert(pos, id);
                Some(id)
            }

            fn meets_line(&self, id: usize) -> bool {
                let mut seen = HashSet::new();
                let mut stack = vec![id];
                while let Some(id) = stack.pop() {
                    if self.line.contains(&self.positions[id]) {
                        return true;
                    }
                    for (_, next) in &self.nodes[id] {
                        if let Next::Node(child) = *next {
                            if seen.insert(child) {
                                stack.push(child);
                            }
                        }
                    }
                }
                false
            }
        }
        let mut prover = Prover {
            rules,
            winner,
            nodes: Vec::new(),
            positions: Vec::new(),
            ids: HashMap::new(),
            line: HashSet::new(),
        };
        let root = prover.prove(start, moves)?;
        // The nodes the root reaches (failed tries leave others), numbered from the root.
        let mut ids: HashMap<usize, usize> = HashMap::from([(root, 0)]);
        let mut order = vec![root];
        let mut at = 0;
        while let Some(&node) = order.get(at) {
            at += 1;
            for (_, next) in &prover.nodes[node] {
                if let Next::Node(child) = *next {
                    if let std::collections::hash_map::Entry::Vacant(slot) = ids.entry(child) {
                        slot.insert(order.len());
                        order.push(child);
                    }
                }
            }
        }
        let nodes = order
            .iter()
            .map(|&node| {
                let renumber = |next: &Next| match *next {
                    Next::Node(child) => Next::Node(ids[&child]),
                    Next::Win => Next::Win,
                };
                let moves = &prover.nodes[node];
                moves
                    .iter()
                    .map(|(mv, next)| (mv.clone(), renumber(next)))
                    .collect()
            })
            .collect();
        let proof = Proof {
            variant: Variant::Standard,
            rules,
            start: VariantPosition::Standard(start),
            winner,
            nodes,
        };
        proof.verify().expect("the brute force's proof checks");
        Some(proof)
    }

    fn certificate(proof: &Proof) -> (Vec<u8>, CertificateSummary) {
        let mut bytes = Vec::new();
        let summary = write_certificate(proof, &mut bytes).unwrap();
        (bytes, summary)
    }

    fn check(bytes: &[u8]) -> Result<CertificateSummary, CertificateError> {
        verify_certificate(&mut &bytes[..], None, &mut |_, _| {}).map(|(_, summary)| summary)
    }

    /// Black wins in three moves, not fewer (found by the brute force among random
    /// positions).
    const SLOW_WIN: &str = "3b2/6/1bw1b1/5b/ww4/3w2 b";

    #[test]
    fn a_win_at_once_needs_no_entry() {
        let proof = brute_force_proof("8/8/8/8/8/7w/8/b1b4w b", RuleSet::Draw, 1).unwrap();
        let (bytes, summary) = certificate(&proof);
        assert_eq!(
            String::from_utf8(bytes.clone()).unwrap(),
            "loa-certificate 1\nvariant standard\nrules draw\n\
             position 8/8/8/8/8/7w/8/b1b4w b\nwinner black\nentries 0\n"
        );
        let expected = CertificateSummary {
            entries: 0,
            positions: 0,
            depth: 1,
        };
        assert_eq!(summary, expected);
        assert_eq!(check(&bytes).unwrap(), expected);
        assert_eq!(
            expected.to_string(),
            "0 entries, 0 positions, longest line 1 move"
        );
    }

    #[test]
    fn a_longer_win_is_written_and_checked() {
        assert!(brute_force_proof(SLOW_WIN, RuleSet::Draw, 2).is_none());
        let proof = brute_force_proof(SLOW_WIN, RuleSet::Draw, 3).unwrap();
        let (bytes, summary) = certificate(&proof);
        // Two choices of Black's are not a win at once; every other position is.
        assert_eq!(
            summary.to_string(),
            "2 entries, 4 positions, longest line 5 moves"
        );
        assert_eq!(check(&bytes).unwrap(), summary);
        // The same strategy holds under the other rule set.
        let mut other = proof.clone();
        other.rules = RuleSet::MoverWins;
        let (mover_wins, _) = certificate(&other);
        let (header, _) = verify_certificate(&mut &mover_wins[..], None, &mut |_, _| {}).unwrap();
        assert_eq!(header.rules, RuleSet::MoverWins);
    }

    /// The certificate's entries, after its header.
    fn entries_of(bytes: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let header_end = bytes.windows(8).position(|w| w == b"entries ").unwrap();
        let line_end = header_end
            + bytes[header_end..]
                .iter()
                .position(|&b| b == b'\n')
                .unwrap();
        (bytes[..=line_end].to_vec(), bytes[line_end + 1..].to_vec())
    }

    #[test]
    fn a_proof_after_the_winners_move_is_one_before_it() {
        // White (h1, h5) to move loses: Black (a1, c1) joins next whatever White does.
        let after: Position = "8/8/8/7w/8/8/8/b1b4w w".parse().unwrap();
        let proof = brute_force_win(after, Color::Black, RuleSet::Draw, 1).unwrap();
        let at = |text: &str| VariantPosition::parse(Variant::Standard, text).unwrap();
        // Black's a2-a1 leads there (Black had a win at once too: any winning move will do).
        let before = proof.before(at("8/8/8/7w/8/8/b7/2b4w b")).unwrap();
        assert_eq!(before.nodes.len(), proof.nodes.len() + 1);
        assert_eq!(before.nodes[0], vec![("a2-a1".to_string(), Next::Node(1))]);
        let (before_summary, after_summary) = (before.verify().unwrap(), proof.verify().unwrap());
        assert_eq!(before_summary.depth, after_summary.depth + 1);
        // Its certificate: the first move is an entry, the rest is the proof's.
        let (bytes, summary) = certificate(&before);
        assert_eq!(check(&bytes).unwrap(), summary);
        for (text, expected) in [
            (
                "8/8/8/7w/8/8/7w/b1b4w w",
                "node 0: in 8/8/8/7w/8/8/7w/b1b4w w the winner, Black, is not to move",
            ),
            (
                "8/8/8/7w/8/b7/8/2b4w b",
                "node 0: no move leads from 8/8/8/7w/8/b7/8/2b4w b to 8/8/8/7w/8/8/8/b1b4w w",
            ),
        ] {
            assert_eq!(proof.before(at(text)).unwrap_err().to_string(), expected);
        }
    }

    #[test]
    fn false_or_damaged_certificates_are_refused_with_where() {
        let proof = brute_force_proof(SLOW_WIN, RuleSet::Draw, 3).unwrap();
        let (bytes, summary) = certificate(&proof);
        let (header, entries) = entries_of(&bytes);
        let with = |header: &[u8], entries: &[u8]| {
            let mut bytes = header.to_vec();
            bytes.extend_from_slice(entries);
            check(&bytes).unwrap_err().to_string()
        };
        let count = summary.entries as usize;
        assert_eq!(entries.len(), count, "one byte an entry here");
        // An entry beyond the legal moves.
        let mut beyond = entries.clone();
        beyond[0] = 0x7f;
        let err = with(&header, &beyond);
        assert!(
            err.contains("entry 1 names move 127, but the position has"),
            "{err}"
        );
        // Cut short, and too long.
        let err = with(&header, &entries[..count - 1]);
        assert!(
            err.contains(&format!("the certificate ends after {} entries", count - 1)),
            "{err}"
        );
        let err = with(&header, &[&entries[..], &[0]].concat());
        assert!(
            err.ends_with("the strategy is complete, but more entries follow"),
            "{err}"
        );
        // An entry longer than three bytes, and a header that counts wrong.
        let err = with(&header, &[0x80, 0x80, 0x80, 0x01]);
        assert!(err.contains("an entry is longer than three bytes"), "{err}");
        let wrong_count = String::from_utf8(header.clone()).unwrap().replace(
            &format!("entries {count}"),
            &format!("entries {}", count + 1),
        );
        let err = with(wrong_count.as_bytes(), &entries);
        assert!(
            err.contains(&format!(
                "the header counts {} entries, the strategy read {count}",
                count + 1
            )),
            "{err}"
        );
        // A huge count is only a number: nothing is made by it.
        let huge = wrong_count.replace(
            &format!("entries {}", count + 1),
            "entries 18446744073709551615",
        );
        let err = with(huge.as_bytes(), &[]);
        assert!(
            err.contains("the certificate ends after 0 entries"),
            "{err}"
        );
        // Every other choice of the first move that is not a win is caught.
        let mut refused = 0;
        for index in 0..20u8 {
            let mut changed = entries.clone();
            changed[0] = index;
            if index != entries[0] {
                let mut bytes = header.clone();
                bytes.extend_from_slice(&changed);
                refused += usize::from(check(&bytes).is_err());
            }
        }
        assert!(refused > 10, "{refused}");
        // The other side named the winner.
        let white = String::from_utf8(header.clone())
            .unwrap()
            .replace("winner black", "winner white");
        let err = with(white.as_bytes(), &entries);
        assert!(err.contains("but this position needs one"), "{err}");
    }

    #[test]
    fn bad_headers_are_refused_with_their_line() {
        let good = "loa-certificate 1\nvariant standard\nrules draw\nposition 8/8/8/8/8/7w/8/b1b4w b\nwinner black\nentries 0\n";
        assert!(check(good.as_bytes()).is_ok());
        for (text, expected) in [
            (
                "",
                "line 1: expected a 'loa-certificate 1' line, found the end of the header",
            ),
            ("loa-proof 1\n", "line 1: expected 'loa-certificate 1'"),
            ("loa-certificate 1\nvariant chess\n", "line 2:"),
            (&good.replace("rules draw", "rules maybe"), "line 3:"),
            (
                &good.replace("8/8/8/8/8/7w/8/b1b4w b", "8/8 b"),
                "line 4: bad position",
            ),
            (
                &good.replace("winner black", "winner red"),
                "line 5: the winner is black or white",
            ),
            (
                &good.replace("entries 0", "entries -1"),
                "line 6: the entries are counted by a whole number",
            ),
            (
                &good.replace("entries 0\n", "entries 0"),
                "line 6: expected a 'entries' line",
            ),
            (
                &good.replace(
                    "position 8/8/8/8/8/7w/8/b1b4w b",
                    "position 8/8/8/8/8/7w/8/bb5w b",
                ),
                "after 0 entries, at 8/8/8/8/8/7w/8/bb5w b: the game is over",
            ),
        ] {
            let err = check(text.as_bytes()).unwrap_err().to_string();
            assert!(err.starts_with(expected), "{text}: {err}");
        }
        // A long line without an end is not read whole.
        let long = format!("loa-certificate 1\nvariant {}", "x".repeat(1 << 20));
        let err = check(long.as_bytes()).unwrap_err().to_string();
        assert!(err.starts_with("line 2:"), "{err}");
    }
}
