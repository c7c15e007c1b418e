//! The variants of Lines of Action: which game is played. Each has one name used
//! everywhere a game is set up (the command line, the engine option `UCI_Variant`, records),
//! its start on each board it is played on, and its names in records.

use crate::variants::{
    AmbiPosition, FieldsPosition, NeighborsPosition, ParachutePosition, VariantPosition,
};
use crate::{Bitboard, BoardSize, Color, GameState, Position, Square};
use std::fmt;
use std::str::FromStr;

/// A variant of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The standard game: Black on the first and last ranks, White on the first and last
    /// files, corners empty.
    #[default]
    Standard,
    /// The standard rules from the same squares with the colours alternating around the
    /// board.
    ScrambledEggs,
    /// Six pieces each on the board and six in reserve, placed by the opponent.
    Parachute,
    /// Two kinds of piece a side, moved in strict rotation; also for four players.
    AmbiLoa,
    /// A piece moves as many squares as it has neighbours.
    Neighbors,
    /// Numbered pieces; five consecutive captures win.
    FieldsOfAction,
}

impl Variant {
    pub const ALL: [Variant; 6] = [
        Variant::Standard,
        Variant::ScrambledEggs,
        Variant::Parachute,
        Variant::AmbiLoa,
        Variant::Neighbors,
        Variant::FieldsOfAction,
    ];

    /// The variant's place in [`Variant::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name used wherever a game is set up: `standard`, `scrambled-eggs`,
    /// `parachute`, `ambiloa`, `neighbors`, `fields-of-action`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::ScrambledEggs => "scrambled-eggs",
            Variant::Parachute => "parachute",
            Variant::AmbiLoa => "ambiloa",
            Variant::Neighbors => "neighbors",
            Variant::FieldsOfAction => "fields-of-action",
        }
    }

    /// The name as records' `Variant` tags write it: `Standard`, `Scrambled Eggs`, ...
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Standard => "Standard",
            Variant::ScrambledEggs => "Scrambled Eggs",
            Variant::Parachute => "Parachute",
            Variant::AmbiLoa => "AmbiLOA",
            Variant::Neighbors => "Neighbors",
            Variant::FieldsOfAction => "Fields of Action",
        }
    }

    /// The SGF `SU` value: `Standard`, `Scrambled-eggs`, `Parachute`, `AmbiLOA`,
    /// `Neighbors`, `Fields-of-action`.
    pub const fn sgf_name(self) -> &'static str {
        match self {
            Variant::Standard => "Standard",
            Variant::ScrambledEggs => "Scrambled-eggs",
            Variant::Parachute => "Parachute",
            Variant::AmbiLoa => "AmbiLOA",
            Variant::Neighbors => "Neighbors",
            Variant::FieldsOfAction => "Fields-of-action",
        }
    }

    /// Whether the standard game's rules apply (only the start differs).
    pub const fn has_standard_rules(self) -> bool {
        matches!(self, Variant::Standard | Variant::ScrambledEggs)
    }

    /// Whether the game is won by connection (all but Fields of Action).
    pub const fn connection_decides(self) -> bool {
        !matches!(self, Variant::FieldsOfAction)
    }

    /// The boards the variant is played on: 6x6, 7x7 and 8x8 for the standard rules,
    /// 8x8 for the others.
    pub const fn sizes(self) -> &'static [BoardSize] {
        if self.has_standard_rules() {
            &BoardSize::ALL
        } else {
            &[BoardSize::Eight]
        }
    }

    /// Where a game of this variant starts, as a front end is told: position text of the
    /// variant, or else its start on a board of `side` squares (8 when none is named).
    pub fn setup(
        self,
        side: Option<u8>,
        text: Option<&str>,
    ) -> Result<VariantPosition, StartError> {
        if let Some(text) = text {
            let pos = VariantPosition::parse(self, text).map_err(|error| StartError::Text {
                text: crate::excerpt(text).into_owned(),
                variant: self,
                error,
            })?;
            if let Some(side) = side.filter(|&s| s != pos.size().side()) {
                return Err(StartError::SizeDiffers {
                    side,
                    size: pos.size(),
                });
            }
            return Ok(pos);
        }
        let side = side.unwrap_or(8);
        let size = BoardSize::from_len(usize::from(side)).ok_or(StartError::Board(side))?;
        self.start(size).ok_or(StartError::NotOnBoard {
            variant: self,
            size,
        })
    }

    /// The start on a board of the given size, or `None` when the variant is not played
    /// on it.
    pub fn start(self, size: BoardSize) -> Option<VariantPosition> {
        if !self.sizes().contains(&size) {
            return None;
        }
        Some(match self {
            Variant::Standard | Variant::ScrambledEggs => {
                VariantPosition::Standard(self.standard_start(size)?)
            }
            Variant::Parachute => VariantPosition::Parachute(ParachutePosition::start()),
            Variant::AmbiLoa => VariantPosition::AmbiLoa(AmbiPosition::start()),
            Variant::Neighbors => VariantPosition::Neighbors(NeighborsPosition::start()),
            Variant::FieldsOfAction => VariantPosition::FieldsOfAction(FieldsPosition::start()),
        })
    }

    /// The start of a variant of the standard rules (the standard game and Scrambled
    /// Eggs) on a board of the given size, Black to move; `None` for the others.
    ///
    /// Scrambled Eggs on 6x6 and 7x7 continues the 8x8 pattern: along the top rank from
    /// the b-file Black, White, ...; down the a-file from the top White, Black, ...;
    /// down the last file Black, White, ...; along rank 1 from the b-file White, Black, ...
    pub fn standard_start(self, size: BoardSize) -> Option<Position> {
        if !self.has_standard_rules() {
            return None;
        }
        let n = size.side();
        let mut pieces = [Bitboard::EMPTY; 2];
        for i in 0..n - 2 {
            // i counts from the b-file rightwards along the edge ranks, and from the top
            // downwards along the edge files.
            let top = Square::from_coords(1 + i, n - 1);
            let bottom = Square::from_coords(1 + i, 0);
            let left = Square::from_coords(0, n - 2 - i);
            let right = Square::from_coords(n - 1, n - 2 - i);
            let (top_c, bottom_c, left_c, right_c) = match self {
                Variant::ScrambledEggs => {
                    let even = i % 2 == 0;
                    let pick = |first: Color| if even { first } else { !first };
                    (
                        pick(Color::Black),
                        pick(Color::White),
                        pick(Color::White),
                        pick(Color::Black),
                    )
                }
                _ => (Color::Black, Color::Black, Color::White, Color::White),
            };
            for (sq, c) in [
                (top, top_c),
                (bottom, bottom_c),
                (left, left_c),
                (right, right_c),
            ] {
                pieces[c.index()] = pieces[c.index()].with(sq);
            }
        }
        Some(
            Position::from_parts(pieces[0], pieces[1], Color::Black, size)
                .expect("starting arrays have pieces of both colours"),
        )
    }

    /// The variant whose start on its board `pos` is, if any.
    pub fn of_start(pos: &VariantPosition) -> Option<Variant> {
        use crate::GameState;
        Variant::ALL
            .into_iter()
            .find(|v| v.start(pos.size()).as_ref() == Some(pos))
    }

    /// Reads a name in any of the forms records and people write: `scrambled-eggs`,
    /// `Scrambled Eggs`, `scrambled_eggs`, `ScrambledEggs`.
    fn from_loose_name(text: &str) -> Option<Variant> {
        let key: String = text
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Variant::ALL.into_iter().find(|v| {
            let name: String = v.name().chars().filter(|c| *c != '-').collect();
            key == name
        })
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}': expected {names}", names = Variant::ALL.map(Variant::name).join(", "))]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::from_loose_name(s).ok_or_else(|| UnknownVariant(crate::excerpt(s).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_arrays_match_the_rule_book() {
        let cases = [
            (
                Variant::Standard,
                BoardSize::Eight,
                "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b",
            ),
            (
                Variant::ScrambledEggs,
                BoardSize::Eight,
                "1bwbwbw1/w6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 b",
            ),
            (
                Variant::Standard,
                BoardSize::Six,
                "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b",
            ),
            (
                Variant::Standard,
                BoardSize::Seven,
                "1bbbbb1/w5w/w5w/w5w/w5w/w5w/1bbbbb1 b",
            ),
            (
                Variant::ScrambledEggs,
                BoardSize::Six,
                "1bwbw1/w4b/b4w/w4b/b4w/1wbwb1 b",
            ),
            (
                Variant::ScrambledEggs,
                BoardSize::Seven,
                "1bwbwb1/w5b/b5w/w5b/b5w/w5b/1wbwbw1 b",
            ),
        ];
        for (variant, size, text) in cases {
            let start = variant.start(size).unwrap();
            assert_eq!(start.to_string(), text, "{variant} {size}");
            assert_eq!(Variant::of_start(&start), Some(variant));
        }
        let eights = [
            (Variant::Parachute, "8/w6b/b6w/w6b/b6w/w6b/b6w/8 b 6 6"),
            (
                Variant::AmbiLoa,
                "1bbbbbb1/w6W/w6W/w6W/w6W/w6W/w6W/1BBBBBB1 B",
            ),
            (
                Variant::Neighbors,
                "1bbbwww1/w6b/w6b/w6b/b6w/b6w/b6w/1wwwbbb1 b",
            ),
            (
                Variant::FieldsOfAction,
                "HGFE4/4LKJI/DCBA4/8/8/4abcd/ijkl4/4efgh b",
            ),
        ];
        for (variant, text) in eights {
            let start = variant.start(BoardSize::Eight).unwrap();
            assert_eq!(start.to_string(), text);
            assert_eq!(Variant::of_start(&start), Some(variant));
            assert_eq!(variant.start(BoardSize::Six), None, "{variant} is 8x8 only");
        }
    }

    #[test]
    fn piece_counts_are_equal() {
        for size in BoardSize::ALL {
            for variant in [Variant::Standard, Variant::ScrambledEggs] {
                let pos = variant.standard_start(size).unwrap();
                let n = 2 * (size.side() as u32 - 2);
                assert_eq!(pos.pieces(Color::Black).count(), n, "{variant} {size}");
                assert_eq!(pos.pieces(Color::White).count(), n, "{variant} {size}");
            }
        }
    }

    #[test]
    fn names_in_every_form() {
        for variant in Variant::ALL {
            assert_eq!(variant.name().parse(), Ok(variant));
            assert_eq!(variant.title().parse(), Ok(variant));
            assert_eq!(variant.sgf_name().parse(), Ok(variant));
        }
        assert_eq!("scrambled_eggs".parse(), Ok(Variant::ScrambledEggs));
        let err = "chess".parse::<Variant>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown variant 'chess': expected standard, scrambled-eggs, parachute, ambiloa, \
             neighbors, fields-of-action"
        );
        assert_eq!("Fields of Action".parse(), Ok(Variant::FieldsOfAction));
        assert_eq!("AmbiLOA".parse(), Ok(Variant::AmbiLoa));
    }
}

/// Why a game cannot start where a front end was told.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("bad position text '{text}' for {}: {error}", .variant.title())]
    Text {
        text: String,
        variant: Variant,
        error: crate::PositionTextError,
    },
    #[error("board is 6, 7 or 8, not {0}")]
    Board(u8),
    #[error("{} is played on 8x8 only, not {size}", .variant.title())]
    NotOnBoard { variant: Variant, size: BoardSize },
    #[error("the board size ({side}) differs from the position's ({size})")]
    SizeDiffers { side: u8, size: BoardSize },
}

#[cfg(test)]
mod setup_tests {
    use super::*;

    #[test]
    fn a_start_from_text_or_a_board_with_a_reason_when_it_cannot_be() {
        let start = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b";
        assert_eq!(
            Variant::Standard.setup(None, None).unwrap().to_string(),
            start
        );
        assert_eq!(
            Variant::Standard
                .setup(Some(8), Some(start))
                .unwrap()
                .to_string(),
            start
        );
        assert_eq!(
            Variant::Standard
                .setup(Some(6), None)
                .unwrap()
                .size()
                .side(),
            6
        );
        for (result, message) in [
            (
                Variant::Standard.setup(Some(9), None),
                "board is 6, 7 or 8, not 9",
            ),
            (
                Variant::Parachute.setup(Some(6), None),
                "Parachute is played on 8x8 only, not 6x6",
            ),
            (
                Variant::Standard.setup(Some(6), Some(start)),
                "the board size (6) differs from the position's (8x8)",
            ),
        ] {
            assert_eq!(result.unwrap_err().to_string(), message);
        }
        let bad = Variant::Neighbors
            .setup(None, Some("zz"))
            .unwrap_err()
            .to_string();
        assert!(
            bad.starts_with("bad position text 'zz' for Neighbors: "),
            "{bad}"
        );
    }
}
