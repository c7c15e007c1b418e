use std::fmt;
use std::ops::Not;

/// A side. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in position text: `b` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
