//! The Lines of Action engine: evaluation, alpha-beta search and its transposition table.

pub mod bench;
pub mod eval;
mod handle;
pub mod level;
pub mod memory;
pub mod puzzles;
pub mod report;
mod score;
pub mod search;
mod searchable;
pub mod solver;
pub mod time;
pub mod tt;
mod words;

pub use handle::{SearchHandle, SearchRequest, Stopper};
pub use level::{level_in_words, level_limits, LEVEL_ELO, MAX_LEVEL};
pub use memory::{check_hash_size, HashSizeError, MAX_HASH_MB};
pub use score::{Score, MATE};
pub use search::{clock_seed, Engine, Info, SearchLimits, SearchResult, MAX_DEPTH};
pub use searchable::{evaluate_any, Searchable};
pub use time::{Clock, TimeLimit};
pub use words::Viewer;
