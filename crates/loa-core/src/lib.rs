//! The rules of Lines of Action: bitboards, move generation, both tournament rule sets for
//! a simultaneous connection, forced passes, threefold repetition, the Scrambled Eggs start,
//! 6x6 and 7x7 boards, position text, move notation, Zobrist hashing and perft.
//!
//! ```
//! use loa_core::{Game, Position, RuleSet};
//!
//! let mut game = Game::new(Position::startpos(), RuleSet::Draw);
//! game.play_text("b1-b3").unwrap();
//! assert_eq!(game.position().to_string(), "1bbbbbb1/w6w/w6w/w6w/w6w/wb5w/w6w/2bbbbb1 w");
//! ```

mod bitboard;
mod board;
pub mod certificate;
mod color;
mod counted;
mod excerpt;
mod fen;
mod game;
mod game_state;
mod movegen;
mod moves;
mod notation;
pub mod perft;
mod position;
pub mod proof;
pub mod record;
mod rules;
mod square;
pub mod symmetry;
mod text;
pub mod topology;
mod variant;
pub mod variants;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::BoardSize;
pub use color::{Color, UnknownColor};
pub use counted::counted;
pub use excerpt::excerpt;
pub use fen::ChessFen;
pub use game::{Game, PlayError};
pub use game_state::{GameState, Piece, Seat};
pub use moves::{Move, MoveError, MoveList, MoveText, TurnText};
pub use position::{Position, SetupError};
pub use rules::{Outcome, Reason, RuleSet, UnknownRuleSet};
pub use square::Square;
pub use text::PositionTextError;
pub use variant::{StartError, UnknownVariant, Variant};
pub use variants::VariantPosition;
