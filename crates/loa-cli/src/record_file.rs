//! A record file (or standard input) read one game at a time: blocks of the file go to
//! the record splitter as they are read, so a file of any size is read in the memory of
//! one game. Text that is not UTF-8 is read as Latin-1, the encoding of many old records,
//! with a warning that says where the first such byte stands.

use anyhow::{Context, Result};
use loa_core::record::{GameSplitter, GameText, RecordError};
use std::io::Read;
use std::path::Path;

use crate::output::shown;

/// Bytes read at a time.
const BLOCK: usize = 1 << 16;

pub struct RecordFile {
    /// The file's name as the user gave it, safe to print.
    name: String,
    input: Box<dyn Read>,
    block: Vec<u8>,
    splitter: GameSplitter,
    warned: bool,
    failed: bool,
}

impl RecordFile {
    /// The file; `-` is standard input.
    pub fn open(path: &Path) -> Result<RecordFile> {
        let name = shown(&path.display().to_string()).into_owned();
        let input: Box<dyn Read> = if path.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path).with_context(|| format!("cannot read {name}"))?)
        };
        Ok(RecordFile {
            name,
            input,
            block: vec![0; BLOCK],
            splitter: GameSplitter::new(),
            warned: false,
            failed: false,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    fn warn_if_latin1(&mut self, text: &GameText) {
        if let (false, Some(not_utf8)) = (self.warned, text.not_utf8()) {
            self.warned = true;
            eprintln!("warning: {}: {not_utf8}", self.name);
        }
    }
}

/// Each game's text, or the error that ends the cutting into games (see
/// [`GameSplitter::next_game`]); an error reading the file ends the games.
impl Iterator for RecordFile {
    type Item = Result<Result<GameText, RecordError>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed {
                return None;
            }
            if let Some(game) = self.splitter.next_game() {
                if let Ok(text) = &game {
                    self.warn_if_latin1(text);
                }
                return Some(Ok(game));
            }
            if self.splitter.is_finished() {
                return None;
            }
            match self.input.read(&mut self.block) {
                Ok(0) => self.splitter.finish(),
                Ok(n) => self.splitter.push(&self.block[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e).with_context(|| format!("cannot read {}", self.name)));
                }
            }
        }
    }
}
