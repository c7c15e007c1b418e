//! Openings: read from a book (one per line), made at random from the variant's start,
//! or the book that comes with the program (crates/loa-match/data/openings.txt, built in,
//! for the standard game).
//!
//! A book line is one of
//! - position text of the variant: `1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b`;
//! - moves from the variant's start in the rule book's notation: `b1-d3 h2-f2 c8xa6`
//!   (`b1d3`, `b1:d3` and move numbers such as `1.` are read too);
//! - position text, `;`, then moves from it: `<position> ; moves b1-d3 h2-f2`
//!   (the word `moves` may be left out; `startpos` names the variant's start).
//!
//! `#` starts a comment; blank lines are skipped.

use anyhow::{bail, Context, Result};
use loa_core::{BoardSize, Game, GameState, Move, RuleSet, Variant, VariantPosition};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// The longest random opening that may be asked for.
pub const MAX_RANDOM_PLIES: usize = 200;

/// The book that comes with the program: balanced openings from the standard start,
/// made by scripts/make_book.sh.
pub const DEFAULT_BOOK: &str = include_str!("../data/openings.txt");

/// Where a game starts: a position and the moves played from it before the engines
/// take over (the moves are part of the game and of its record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: VariantPosition,
    pub moves: Vec<Move>,
}

/// The 8x8 start of a variant: where openings start unless a book says otherwise.
fn start_of(variant: Variant) -> VariantPosition {
    variant
        .start(BoardSize::Eight)
        .expect("every variant is played on 8x8")
}

impl Opening {
    /// The game after the opening moves.
    pub fn game(&self, rules: RuleSet) -> Game<VariantPosition> {
        let mut game = Game::new(self.start, rules);
        for &mv in &self.moves {
            game.play(mv).expect("opening moves were checked when read");
        }
        game
    }

    /// As a book line: moves alone from the variant's start, else `<position> ; moves`.
    pub fn text(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        if Variant::of_start(&self.start).is_some() && self.start.size() == BoardSize::Eight {
            if moves.is_empty() {
                "startpos".to_string()
            } else {
                moves.join(" ")
            }
        } else if moves.is_empty() {
            self.start.to_string()
        } else {
            format!("{} ; {}", self.start, moves.join(" "))
        }
    }
}

/// Reads one book line of `variant`; `None` for a blank or comment line. The opening
/// must leave a game that is not over (under either rule set).
pub fn parse_line(line: &str, variant: Variant) -> Result<Option<Opening>> {
    let line = match line.find('#') {
        Some(at) => &line[..at],
        None => line,
    }
    .trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (start, moves_text) = match line.split_once(';') {
        Some((pos, moves)) => (parse_start(pos.trim(), variant)?, moves.trim()),
        None if line.contains('/') => (parse_start(line, variant)?, ""),
        None => (start_of(variant), line),
    };
    let mut game = Game::new(start, RuleSet::Draw);
    if game.is_over() {
        bail!("the position is already decided");
    }
    let mut words = moves_text.split_whitespace().peekable();
    if words
        .peek()
        .is_some_and(|w| w.eq_ignore_ascii_case("moves"))
    {
        words.next();
    }
    for word in words {
        // Move numbers: `1.`, `12...`, or `1.b1-d3` glued to the move.
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if word.is_empty() {
            continue;
        }
        game.play_text(word)
            .with_context(|| format!("move {} '{word}'", game.ply() + 1))?;
        if game.is_over() {
            bail!(
                "the game is over after move {} '{word}' ({})",
                game.ply(),
                game.outcome().expect("over")
            );
        }
    }
    // A simultaneous connection ends the game under both rule sets, so the check
    // under `draw` holds for `mover-wins` too.
    Ok(Some(Opening {
        start,
        moves: game.moves().collect(),
    }))
}

fn parse_start(text: &str, variant: Variant) -> Result<VariantPosition> {
    if text.eq_ignore_ascii_case("startpos") {
        return Ok(start_of(variant));
    }
    VariantPosition::parse(variant, text).with_context(|| {
        format!(
            "bad position text '{}' for {}",
            loa_core::excerpt(text),
            variant.title()
        )
    })
}

/// Reads a whole book of `variant`; errors name the line.
pub fn parse_book(text: &str, source: &str, variant: Variant) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let opening = parse_line(line, variant)
            .with_context(|| format!("{source}, line {}: '{}'", i + 1, line.trim()))?;
        openings.extend(opening);
    }
    if openings.is_empty() {
        bail!("{source} holds no opening");
    }
    Ok(openings)
}

/// The random plies a variant's games open with when no book is given: the built-in
/// book holds openings of the standard game only.
const VARIANT_OPENING_PLIES: usize = 4;

/// Random games that end too soon are tried again, this many times in all.
const RANDOM_TRIES: usize = 1_000;

/// `plies` random legal moves from `variant`'s start, leaving a game that goes on; an
/// error when every try ended sooner.
pub fn random_opening(
    rng: &mut ChaCha8Rng,
    plies: usize,
    variant: Variant,
) -> Result<Opening, String> {
    random_opening_in(rng, plies, variant, RANDOM_TRIES)
}

fn random_opening_in(
    rng: &mut ChaCha8Rng,
    plies: usize,
    variant: Variant,
    tries: usize,
) -> Result<Opening, String> {
    let start = start_of(variant);
    'attempt: for _ in 0..tries {
        let mut game = Game::new(start, RuleSet::Draw);
        for _ in 0..plies {
            let moves = game.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("a legal move");
            if game.is_over() {
                continue 'attempt;
            }
        }
        return Ok(Opening {
            start,
            moves: game.moves().collect(),
        });
    }
    Err(format!(
        "no random opening of {plies} plies: in {tries} tries every random game ended \
         sooner; ask for fewer plies"
    ))
}

/// Which opening each round plays.
pub enum OpeningSource {
    /// A list, in the order given; rounds past the end start again from the top.
    List(Vec<Opening>),
    /// A fresh random opening of this many plies from the variant's start for every round.
    Random {
        plies: usize,
        seed: u64,
        variant: Variant,
    },
}

impl OpeningSource {
    /// The openings of a match that names none: the built-in book for the standard game
    /// (in file order, or shuffled with the seed), random openings for the others.
    pub fn default_for(variant: Variant, in_order: bool, seed: u64) -> Result<OpeningSource> {
        if variant != Variant::Standard {
            return Ok(OpeningSource::Random {
                plies: VARIANT_OPENING_PLIES,
                seed,
                variant,
            });
        }
        let book = parse_book(DEFAULT_BOOK, "the built-in book", variant)?;
        Ok(crate::book(book, in_order, seed))
    }

    /// The opening of round `round` (from 0). Random openings depend only on the seed
    /// and the round, so they do not change with the concurrency.
    pub fn get(&self, round: u64) -> Result<Opening, String> {
        match self {
            OpeningSource::List(list) => Ok(list[(round % list.len() as u64) as usize].clone()),
            OpeningSource::Random {
                plies,
                seed,
                variant,
            } => {
                let mut rng = ChaCha8Rng::seed_from_u64(*seed);
                rng.set_stream(round);
                random_opening(&mut rng, *plies, *variant)
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            OpeningSource::List(list) => format!("{} openings", list.len()),
            OpeningSource::Random {
                plies,
                seed,
                variant,
            } => format!(
                "random {plies}-ply openings of {} (seed {seed})",
                variant.title()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::Position;

    const STD: Variant = Variant::Standard;

    #[test]
    fn a_match_without_openings_plays_the_book_or_random_openings() {
        let book = OpeningSource::default_for(STD, true, 1).unwrap();
        let in_file = parse_book(DEFAULT_BOOK, "the book", STD).unwrap();
        assert!(matches!(book, OpeningSource::List(list) if list == in_file));
        let parachute = OpeningSource::default_for(Variant::Parachute, true, 1).unwrap();
        assert!(matches!(
            parachute,
            OpeningSource::Random {
                plies: VARIANT_OPENING_PLIES,
                variant: Variant::Parachute,
                ..
            }
        ));
    }

    #[test]
    fn reads_every_line_form() {
        let from_moves = parse_line("b1-d3 h2-f2 # a comment", STD).unwrap().unwrap();
        assert_eq!(from_moves.start, Position::startpos().into());
        assert_eq!(from_moves.text(), "b1-d3 h2-f2");
        let numbered = parse_line("1. b1d3 h2f2", STD).unwrap().unwrap();
        assert_eq!(numbered, from_moves);
        let glued = parse_line("1.b1-d3 h2-f2", STD).unwrap().unwrap();
        assert_eq!(glued, from_moves);
        let pos = parse_line("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", STD)
            .unwrap()
            .unwrap();
        assert!(pos.moves.is_empty());
        assert_eq!(pos.text(), "startpos");
        let both = parse_line("startpos ; moves b1-d3", STD).unwrap().unwrap();
        assert_eq!(both.moves.len(), 1);
        let other = parse_line("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w ; a2-c2", STD)
            .unwrap()
            .unwrap();
        assert_eq!(
            other.text(),
            "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w ; a2-c2"
        );
        assert_eq!(parse_line("   # only a comment", STD).unwrap(), None);
        assert_eq!(parse_line("", STD).unwrap(), None);
    }

    #[test]
    fn bad_lines_say_why_and_where() {
        let err = format!(
            "{:#}",
            parse_book("b1-d3\nb1-b4\n", "book", STD).unwrap_err()
        );
        assert!(err.contains("book, line 2"), "{err}");
        assert!(err.contains("move 1 'b1-b4'"), "{err}");
        let err = format!("{:#}", parse_book("# nothing\n", "book", STD).unwrap_err());
        assert!(err.contains("no opening"), "{err}");
        let err = format!("{:#}", parse_line("8/8/8/8/8/8/8/b6w b", STD).unwrap_err());
        assert!(err.contains("already decided"), "{err}");
    }

    #[test]
    fn the_built_in_book_reads() {
        let book = parse_book(DEFAULT_BOOK, "crates/loa-match/data/openings.txt", STD).unwrap();
        assert!(book.len() >= 10, "{} openings", book.len());
    }

    #[test]
    fn random_openings_are_legal_and_repeatable() {
        for round in 0..20 {
            let a = OpeningSource::Random {
                plies: 8,
                seed: 3,
                variant: STD,
            }
            .get(round)
            .unwrap();
            let b = OpeningSource::Random {
                plies: 8,
                seed: 3,
                variant: STD,
            }
            .get(round)
            .unwrap();
            assert_eq!(a, b);
            assert_eq!(a.moves.len(), 8);
            assert!(!a.game(RuleSet::Draw).is_over());
        }
        let a = OpeningSource::Random {
            plies: 8,
            seed: 3,
            variant: STD,
        }
        .get(0)
        .unwrap();
        let c = OpeningSource::Random {
            plies: 8,
            seed: 4,
            variant: STD,
        }
        .get(0)
        .unwrap();
        assert_ne!(a, c);
    }

    #[test]
    fn random_openings_give_up_with_a_message() {
        let failure = (0..100)
            .find_map(|seed| {
                random_opening_in(
                    &mut ChaCha8Rng::seed_from_u64(seed),
                    MAX_RANDOM_PLIES,
                    STD,
                    1,
                )
                .err()
            })
            .expect("some random game ends before 200 plies");
        assert!(
            failure.contains("no random opening of 200 plies: in 1 tries"),
            "{failure}"
        );
    }
}
