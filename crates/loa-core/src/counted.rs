//! Counts in messages, singular or plural: `1 move`, `2 moves`, one way for the engine's
//! words, the web server's log and the command line.

use std::fmt::Display;

/// `n` with its noun, singular for one: `1 move`, `0 nodes`, `2 games`.
pub fn counted<N: Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    let plural = if n == N::from(1) { "" } else { "s" };
    format!("{n} {noun}{plural}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular() {
        assert_eq!(counted(1usize, "move"), "1 move");
        assert_eq!(counted(0u64, "node"), "0 nodes");
        assert_eq!(counted(2usize, "move"), "2 moves");
    }
}
