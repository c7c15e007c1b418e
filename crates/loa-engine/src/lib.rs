//! The Lines of Action engine: evaluation, alpha-beta search and its transposition table.

pub mod bench;
pub mod eval;
pub mod search;
pub mod time;
pub mod tt;

pub use search::{Engine, Info, Limits, Score, SearchResult, MATE};
pub use time::{Budget, Clock};
