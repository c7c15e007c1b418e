//! Proof trees: a forced win written so that anyone can check it with the plain rules.
//!
//! A proof is a graph of positions. At the winner's turn a node gives one move; at the
//! loser's turn it gives every legal move. Each move leads to another node, or ends the
//! game in the winner's favour (`win`). Checking it replays every move from the start
//! with [`GameState`] alone: the moves are legal, the loser's moves are all there, the
//! ends are real wins, no two nodes hold the same position and no node is reached from
//! itself, so no position repeats along any line of play and repetition never decides.
//!
//! ```text
//! loa-proof 1
//! variant standard
//! rules draw
//! position 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b
//! winner black
//! 0: b1-b3=1
//! 1: a2-a4=2 a3-c3=win ...
//! ```
//!
//! Nodes are numbered from 0, the start; a node's line lists `move=child` pairs, and may
//! come before or after the lines of its children.

use crate::{Color, GameState, RuleSet, Variant, VariantPosition};
use std::collections::HashMap;
use std::fmt::Write;

/// A node's moves (in notation) and where they lead.
type NodeMoves = Vec<(String, Next)>;

/// Where a move of a proof leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The move ends the game with the winner's win.
    Win,
    Node(usize),
}

/// A proof as read or written: the start, the winner and the nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub variant: Variant,
    pub rules: RuleSet,
    pub start: VariantPosition,
    pub winner: Color,
    /// Each node's moves (in notation) and where they lead; node 0 is the start.
    pub nodes: Vec<Vec<(String, Next)>>,
}

/// What is wrong with a proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("node {node}: {message}")]
    Invalid { node: usize, message: String },
}

/// What a checked proof holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofSummary {
    pub nodes: usize,
    /// The number of moves in all the nodes.
    pub moves: usize,
    /// The longest line of play, in moves.
    pub depth: usize,
}

/// `120 nodes, 410 moves, longest line 17 moves`.
impl std::fmt::Display for ProofSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} nodes, {} moves, longest line {} moves",
            self.nodes, self.moves, self.depth
        )
    }
}

impl Proof {
    /// The proof as text.
    pub fn write(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "loa-proof 1");
        let _ = writeln!(text, "variant {}", self.variant.name());
        let _ = writeln!(text, "rules {}", self.rules);
        let _ = writeln!(text, "position {}", self.start);
        let winner = match self.winner {
            Color::Black => "black",
            Color::White => "white",
        };
        let _ = writeln!(text, "winner {winner}");
        for (id, moves) in self.nodes.iter().enumerate() {
            let _ = write!(text, "{id}:");
            for (mv, next) in moves {
                match next {
                    Next::Win => {
                        let _ = write!(text, " {mv}=win");
                    }
                    Next::Node(child) => {
                        let _ = write!(text, " {mv}={child}");
                    }
                }
            }
            text.push('\n');
        }
        text
    }

    /// Reads a proof's text (its moves are checked by [`Proof::verify`]).
    pub fn parse(text: &str) -> Result<Proof, ProofError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let syntax = |line: usize, message: &str| ProofError::Syntax {
            line,
            message: message.to_string(),
        };
        let mut header = |name: &str| -> Result<(usize, String), ProofError> {
            let (line, text) = lines
                .next()
                .ok_or_else(|| syntax(0, &format!("the proof ends before its '{name}' line")))?;
            let value = text
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .ok_or_else(|| syntax(line, &format!("expected '{name} ...'")))?;
            Ok((line, value.trim().to_string()))
        };
        let (line, version) = header("loa-proof")?;
        if version != "1" {
            return Err(syntax(line, "only version 1 proofs are known"));
        }
        let (line, variant) = header("variant")?;
        let variant: Variant = variant.parse().map_err(|e| syntax(line, &format!("{e}")))?;
        let (line, rules) = header("rules")?;
        let rules: RuleSet = rules.parse().map_err(|e| syntax(line, &format!("{e}")))?;
        let (line, position) = header("position")?;
        let start = VariantPosition::parse(variant, &position)
            .map_err(|e| syntax(line, &format!("bad position: {e}")))?;
        let (line, winner) = header("winner")?;
        let winner = match winner.to_ascii_lowercase().as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            _ => return Err(syntax(line, "the winner is black or white")),
        };
        // Each node with its id and line, in file order: the ids are checked against the
        // number of nodes before any table is made by them.
        let mut given: Vec<(usize, usize, NodeMoves)> = Vec::new();
        for (line, text) in lines {
            if text.is_empty() {
                continue;
            }
            let (id, rest) = text
                .split_once(':')
                .ok_or_else(|| syntax(line, "expected 'id: move=next ...'"))?;
            let id: usize = id
                .trim()
                .parse()
                .map_err(|_| syntax(line, "a node's id is a whole number"))?;
            let mut moves = Vec::new();
            for pair in rest.split_whitespace() {
                let (mv, next) = pair
                    .split_once('=')
                    .ok_or_else(|| syntax(line, "expected 'move=next'"))?;
                let next = if next == "win" {
                    Next::Win
                } else {
                    Next::Node(
                        next.parse()
                            .map_err(|_| syntax(line, "a move leads to a node id or 'win'"))?,
                    )
                };
                moves.push((mv.to_string(), next));
            }
            given.push((id, line, moves));
        }
        let count = given.len();
        let mut nodes: Vec<Option<NodeMoves>> = vec![None; count];
        for (id, line, moves) in given {
            let slot = nodes.get_mut(id).ok_or_else(|| {
                syntax(
                    line,
                    &format!(
                        "node {id}: the proof has {count} node lines, so its nodes are \
                         numbered 0 to {}",
                        count.saturating_sub(1)
                    ),
                )
            })?;
            if slot.replace(moves).is_some() {
                return Err(syntax(line, &format!("node {id} is given twice")));
            }
        }
        // As many distinct ids below `count` as there are lines: every node is given.
        let nodes: Vec<NodeMoves> = nodes.into_iter().flatten().collect();
        if nodes.is_empty() {
            return Err(syntax(0, "the proof has no nodes"));
        }
        Ok(Proof {
            variant,
            rules,
            start,
            winner,
            nodes,
        })
    }

    /// The longest line of play through the proof's graph, in moves, read from its
    /// structure alone (no rules: [`Proof::verify`] checks those); `None` when a line
    /// comes back to a node or leads to a node that does not exist.
    pub fn longest_line(&self) -> Option<usize> {
        self.depths().map(|depths| depths[0])
    }

    /// The line the proof shows: the winner's moves, and at each of the loser's turns
    /// the move that holds out longest; `None` where [`Proof::longest_line`] is.
    pub fn main_line(&self) -> Option<Vec<String>> {
        let depths = self.depths()?;
        let mut line = Vec::new();
        let mut node = 0;
        loop {
            let length = |next: &Next| match *next {
                Next::Win => 0,
                Next::Node(child) => depths[child] + 1,
            };
            let (mv, next) = self.nodes[node]
                .iter()
                .max_by_key(|(_, next)| length(next))?;
            line.push(mv.clone());
            match *next {
                Next::Win => return Some(line),
                Next::Node(child) => node = child,
            }
        }
    }

    /// Each node's longest line, in moves.
    fn depths(&self) -> Option<Vec<usize>> {
        // Depth-first with an explicit stack; `None`: not reached, `Some(None)`: on the
        // current line, `Some(Some(d))`: the longest line from the node.
        let mut longest: Vec<Option<Option<usize>>> = vec![None; self.nodes.len()];
        let mut stack = vec![(0usize, 0usize, 0usize)];
        longest[0] = Some(None);
        while let Some(&mut (node, ref mut next, ref mut deepest)) = stack.last_mut() {
            let Some((_, to)) = self.nodes.get(node)?.get(*next) else {
                let depth = *deepest;
                longest[node] = Some(Some(depth));
                stack.pop();
                if let Some(parent) = stack.last_mut() {
                    parent.2 = parent.2.max(depth + 1);
                }
                continue;
            };
            *next += 1;
            match *to {
                Next::Win => *deepest = (*deepest).max(1),
                Next::Node(child) => match *longest.get(child)? {
                    None => {
                        longest[child] = Some(None);
                        stack.push((child, 0, 0));
                    }
                    Some(None) => return None,
                    Some(Some(depth)) => *deepest = (*deepest).max(depth + 1),
                },
            }
        }
        // A node no line reaches counts none (verify refuses it).
        Some(
            longest
                .into_iter()
                .map(|depth| depth.flatten().unwrap_or(0))
                .collect(),
        )
    }

    /// The proof from `before`, a position from which the winner reaches this proof's
    /// start in one move: that move, then this proof (a proof of the position after a
    /// winning first move is one of the position before it).
    pub fn before(&self, before: VariantPosition) -> Result<Proof, ProofError> {
        let invalid = |message: String| ProofError::Invalid { node: 0, message };
        if before.variant() != self.variant {
            return Err(invalid(format!(
                "{before} is a position of {}, the proof's of {}",
                before.variant().title(),
                self.variant.title()
            )));
        }
        if before.side_to_move() != self.winner {
            return Err(invalid(format!(
                "in {before} the winner, {}, is not to move",
                self.winner
            )));
        }
        let first = before
            .moves()
            .into_iter()
            .find(|&mv| before.after(mv) == self.start)
            .ok_or_else(|| invalid(format!("no move leads from {before} to {}", self.start)))?;
        let shifted = |next: &Next| match *next {
            Next::Node(id) => Next::Node(id + 1),
            Next::Win => Next::Win,
        };
        let mut nodes = vec![vec![(first.to_string(), Next::Node(1))]];
        nodes.extend(self.nodes.iter().map(|moves| {
            moves
                .iter()
                .map(|(mv, next)| (mv.clone(), shifted(next)))
                .collect()
        }));
        Ok(Proof {
            start: before,
            nodes,
            ..self.clone()
        })
    }

    /// Checks the proof with the rules alone.
    pub fn verify(&self) -> Result<ProofSummary, ProofError> {
        let invalid = |node: usize, message: String| ProofError::Invalid { node, message };
        if self.start.outcome(self.rules).is_some() {
            return Err(invalid(0, "the game is already over at the start".into()));
        }
        let count = self.nodes.len();
        let mut position: Vec<Option<VariantPosition>> = vec![None; count];
        position[0] = Some(self.start);
        let mut seen: HashMap<VariantPosition, usize> = HashMap::new();
        // Depth-first, with an explicit stack: (node, index of the next move to check).
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum State {
            New,
            OnPath,
            Done,
        }
        let mut state = vec![State::New; count];
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        state[0] = State::OnPath;
        seen.insert(self.start, 0);
        let mut moves_total = 0;
        while let Some(&mut (node, ref mut next_move)) = stack.last_mut() {
            let pos = position[node].expect("a node on the stack has its position");
            let moves = &self.nodes[node];
            if *next_move == 0 {
                // First visit: the moves given are the right ones for whoever is to move.
                moves_total += moves.len();
                let legal = pos.moves();
                if pos.side_to_move() == self.winner {
                    if moves.len() != 1 {
                        return Err(invalid(
                            node,
                            format!("the winner's node gives {} moves, not one", moves.len()),
                        ));
                    }
                } else {
                    // Read as the winner's moves are (any case, any way a record writes
                    // them), so that a bad text is named as such.
                    let mut given = Vec::with_capacity(moves.len());
                    for (text, _) in moves {
                        let mv = pos
                            .parse_move(text)
                            .map_err(|e| invalid(node, format!("{text}: {e}")))?;
                        if given.contains(&mv) {
                            return Err(invalid(
                                node,
                                format!("the loser's move {mv} is given twice"),
                            ));
                        }
                        given.push(mv);
                    }
                    if let Some(mv) = legal.iter().find(|mv| !given.contains(mv)) {
                        return Err(invalid(
                            node,
                            format!("the loser's move {mv} is not answered"),
                        ));
                    }
                }
            }
            if *next_move == moves.len() {
                state[node] = State::Done;
                stack.pop();
                continue;
            }
            let (text, next) = &moves[*next_move];
            *next_move += 1;
            let mv = pos
                .parse_move(text)
                .map_err(|e| invalid(node, format!("{text}: {e}")))?;
            let after = pos.after(mv);
            let outcome = after.outcome_after(mv, self.rules);
            match (next, outcome) {
                (Next::Win, Some(o)) if o.winner == Some(self.winner) => {}
                (Next::Win, _) => {
                    return Err(invalid(node, format!("{text} does not win")));
                }
                (Next::Node(_), Some(o)) => {
                    return Err(invalid(
                        node,
                        format!("{text} ends the game ({o}), not in a node"),
                    ));
                }
                (&Next::Node(child), None) => {
                    if child >= count {
                        return Err(invalid(
                            node,
                            format!("{text} leads to node {child}, which is not given"),
                        ));
                    }
                    match position[child] {
                        None => {
                            if let Some(&other) = seen.get(&after) {
                                return Err(invalid(
                                    child,
                                    format!("its position is node {other}'s too"),
                                ));
                            }
                            seen.insert(after, child);
                            position[child] = Some(after);
                        }
                        Some(known) if known != after => {
                            return Err(invalid(
                                child,
                                format!("{text} from node {node} leads to another position"),
                            ));
                        }
                        Some(_) => {}
                    }
                    match state[child] {
                        State::New => {
                            state[child] = State::OnPath;
                            stack.push((child, 0));
                        }
                        State::OnPath => {
                            return Err(invalid(
                                child,
                                "the position repeats along a line of play".into(),
                            ));
                        }
                        State::Done => {}
                    }
                }
            }
        }
        let unreached = state.iter().position(|s| *s == State::New);
        if let Some(node) = unreached {
            return Err(invalid(node, "no line of play reaches this node".into()));
        }
        Ok(ProofSummary {
            nodes: count,
            moves: moves_total,
            // Every node reached and no line coming back to one: the graph has its depth.
            depth: self.longest_line().unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black (a1, c1) to move joins its two pieces with a1-b2; White has h1 and h3.
    fn proof(text_nodes: &str) -> String {
        format!(
            "loa-proof 1\nvariant standard\nrules draw\nposition 8/8/8/8/8/7w/8/b1b4w b\nwinner black\n{text_nodes}"
        )
    }

    #[test]
    fn a_win_in_one_is_checked() {
        let text = proof("0: a1-b2=win\n");
        let p = Proof::parse(&text).unwrap();
        let summary = p.verify().unwrap();
        assert_eq!(
            summary,
            ProofSummary {
                nodes: 1,
                moves: 1,
                depth: 1
            }
        );
        assert_eq!(
            summary.to_string(),
            "1 nodes, 1 moves, longest line 1 moves"
        );
        assert_eq!(Proof::parse(&p.write()).unwrap(), p);
    }

    #[test]
    fn the_longest_line_is_read_from_the_graph() {
        let start = Proof::parse(&proof("0: a1-b2=win\n")).unwrap();
        let with = |nodes: Vec<Vec<(&str, Next)>>| Proof {
            nodes: nodes
                .into_iter()
                .map(|n| n.into_iter().map(|(m, to)| (m.to_string(), to)).collect())
                .collect(),
            ..start.clone()
        };
        assert_eq!(start.longest_line(), Some(1));
        let graph = with(vec![
            vec![("a", Next::Node(1))],
            vec![("b", Next::Node(2)), ("c", Next::Win), ("d", Next::Node(3))],
            vec![("e", Next::Node(3))],
            vec![("f", Next::Win)],
        ]);
        assert_eq!(graph.longest_line(), Some(4));
        // At node 1 the loser's b holds out longest (3 more moves), then e and f.
        assert_eq!(
            graph.main_line(),
            Some(
                vec!["a", "b", "e", "f"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            )
        );
        assert_eq!(start.main_line(), Some(vec!["a1-b2".to_string()]));
        let cycle = with(vec![vec![("a", Next::Node(1))], vec![("b", Next::Node(0))]]);
        assert_eq!(cycle.longest_line(), None);
        let dangling = with(vec![vec![("a", Next::Node(7))]]);
        assert_eq!(dangling.longest_line(), None);
    }

    #[test]
    fn false_claims_are_caught() {
        for (nodes, expected) in [
            ("0: a1-a2=win\n", "does not win"),
            ("0: a1-b2=win a1-a2=win\n", "not one"),
            ("0: a1-a5=win\n", "a1-a5"),
            (
                "0: a1-a2=1\n1: h3-h2=win\n",
                "node 1: h3-h2: 'h3-h2' is illegal",
            ),
            (
                "0: a1-a2=1\n1: h3-g2=win\n",
                "node 1: the loser's move h1-f1 is not answered",
            ),
            ("0: a1-a2=1\n1: zz=win\n", "node 1: zz: 'zz' is not a move"),
            (
                "0: a1-a2=1\n1: h3-g2=win H3G2=win\n",
                "node 1: the loser's move h3-g2 is given twice",
            ),
            ("0: a1-a2=1\n", "not given"),
        ] {
            let err = Proof::parse(&proof(nodes))
                .and_then(|p| p.verify())
                .unwrap_err();
            assert!(err.to_string().contains(expected), "{nodes}: {err}");
        }
    }

    #[test]
    fn node_ids_beyond_the_node_lines_are_refused_by_their_line() {
        // Memory follows the lines given, not the numbers written in them.
        for (nodes, expected) in [
            (
                "0: a1-a2=1\n99999999: h3-h2=win\n",
                "line 7: node 99999999: the proof has 2 node lines, so its nodes are \
                 numbered 0 to 1",
            ),
            (
                "0: a1-a2=1\n1000: h3-h2=win\n",
                "line 7: node 1000: the proof has 2 node lines, so its nodes are numbered \
                 0 to 1",
            ),
            (
                "0: a1-a2=18446744073709551615\n1: h3-h2=win\n",
                "node 0: a1-a2 leads to node 18446744073709551615, which is not given",
            ),
        ] {
            let err = Proof::parse(&proof(nodes))
                .and_then(|p| p.verify())
                .unwrap_err();
            assert_eq!(err.to_string(), expected, "{nodes}");
        }
    }

    #[test]
    fn bad_text_is_refused_with_its_line() {
        for text in [
            "",
            "loa-proof 2\n",
            "loa-proof 1\nvariant chess\n",
            &proof("x: a1-a2=win\n"),
            &proof("0: a1-a2\n"),
            &proof("0: a1-b2=win\n0: a1-b2=win\n"),
            &proof("2: a1-b2=win\n"),
        ] {
            assert!(Proof::parse(text).is_err(), "{text}");
        }
    }
}
