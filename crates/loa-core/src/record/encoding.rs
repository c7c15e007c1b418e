//! Text that is not UTF-8, read as Latin-1, the encoding of many old records: every byte
//! is a character, so nothing is refused, and where the first byte that is not UTF-8
//! stands is kept for a warning. Record files, opening books and proofs are read so.

use super::Location;
use std::fmt;

/// The first byte that is not UTF-8, and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    pub at: Location,
    pub byte: u8,
}

impl NotUtf8 {
    /// The first byte of `bytes` that is not UTF-8, when `bytes` start at `start`.
    pub(crate) fn find(bytes: &[u8], start: Location) -> Option<NotUtf8> {
        let at = std::str::from_utf8(bytes).err()?.valid_up_to();
        Some(NotUtf8 {
            at: start.after(&bytes[..at]),
            byte: bytes[at],
        })
    }
}

/// The warning: `not UTF-8 (byte 0xf6 at line 1, column 11); read as Latin-1`.
impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not UTF-8 (byte 0x{:02x} at line {}, column {}); read as Latin-1",
            self.byte, self.at.line, self.at.column
        )
    }
}

/// A file's bytes as text: UTF-8 as it is, anything else as Latin-1, with the first byte
/// that is not UTF-8.
pub fn decode_text(bytes: Vec<u8>) -> (String, Option<NotUtf8>) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(err) => {
            let bytes = err.into_bytes();
            (latin1(&bytes), NotUtf8::find(&bytes, Location::START))
        }
    }
}

/// Each byte as the character of that number.
pub(crate) fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_is_read_and_the_first_bad_byte_named() {
        let (text, warning) = decode_text(b"[Black \"Bj\xf6rnsson\"]\n".to_vec());
        assert_eq!(text, "[Black \"Björnsson\"]\n");
        let warning = warning.unwrap().to_string();
        assert!(
            warning.contains("byte 0xf6 at line 1, column 11"),
            "{warning}"
        );
        let (text, warning) = decode_text("[Black \"Björnsson\"]".as_bytes().to_vec());
        assert_eq!(text, "[Black \"Björnsson\"]");
        assert_eq!(warning, None);
    }
}
