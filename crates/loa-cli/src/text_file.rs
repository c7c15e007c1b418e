//! Reading a text file that a person or another program wrote (records, books). Text that
//! is not UTF-8 is read as Latin-1, the encoding of many old PGN files, with a warning
//! that says where the first byte that is not UTF-8 stands.

use anyhow::{Context, Result};
use loa_core::record::decode_text;
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
    let (text, not_utf8) = decode_text(bytes);
    if let Some(not_utf8) = not_utf8 {
        eprintln!("warning: {name}: {not_utf8}");
    }
    Ok(text)
}
