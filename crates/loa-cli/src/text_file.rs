//! Reading a text file that a person or another program wrote (records, books). Text that
//! is not UTF-8 is read as Latin-1, the encoding of many old PGN files, with a warning
//! that says where the first byte that is not UTF-8 stands.

use anyhow::{Context, Result};
use std::io::Read;
use std::path::Path;

/// The file's text; `-` reads standard input.
pub fn read(path: &Path) -> Result<String> {
    let name = path.display().to_string();
    let bytes = if name == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        bytes
    } else {
        std::fs::read(path).with_context(|| format!("cannot read {name}"))?
    };
    let (text, warning) = decode(bytes);
    if let Some(warning) = warning {
        eprintln!("warning: {name}: {warning}");
    }
    Ok(text)
}

/// UTF-8 text as it is; anything else as Latin-1, with a warning.
pub fn decode(bytes: Vec<u8>) -> (String, Option<String>) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(err) => {
            let at = err.utf8_error().valid_up_to();
            let bytes = err.into_bytes();
            let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            let line_start = bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let column = 1 + String::from_utf8_lossy(&bytes[line_start..at])
                .chars()
                .count();
            let warning = format!(
                "not UTF-8 (byte 0x{:02x} at line {line}, column {column}); read as Latin-1",
                bytes[at]
            );
            (
                bytes.iter().map(|&b| char::from(b)).collect(),
                Some(warning),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_is_read_and_the_first_bad_byte_named() {
        let (text, warning) = decode(b"[Black \"Bj\xf6rnsson\"]\n".to_vec());
        assert_eq!(text, "[Black \"Björnsson\"]\n");
        let warning = warning.unwrap();
        assert!(
            warning.contains("byte 0xf6 at line 1, column 11"),
            "{warning}"
        );
        let (text, warning) = decode("[Black \"Björnsson\"]".as_bytes().to_vec());
        assert_eq!(text, "[Black \"Björnsson\"]");
        assert_eq!(warning, None);
    }
}
