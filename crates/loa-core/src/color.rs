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

    /// The side as requests and records name it: `black` or `white`.
    pub const fn id(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
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

/// A side's name that is neither `black` nor `white`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a side is black or white, not '{0}'")]
pub struct UnknownColor(pub String);

/// `black` or `white` (any case), as [`Color::id`] writes them.
impl std::str::FromStr for Color {
    type Err = UnknownColor;

    fn from_str(text: &str) -> Result<Color, UnknownColor> {
        Color::ALL
            .into_iter()
            .find(|c| c.id().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownColor(crate::excerpt(text).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_read_by_its_id() {
        for color in Color::ALL {
            assert_eq!(color.id().parse::<Color>(), Ok(color));
            assert_eq!(color.name().parse::<Color>(), Ok(color));
        }
        assert_eq!(
            "green".parse::<Color>().unwrap_err().to_string(),
            "a side is black or white, not 'green'"
        );
        assert!("".parse::<Color>().is_err());
    }
}
