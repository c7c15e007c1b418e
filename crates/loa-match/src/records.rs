//! Game records of a match: every game to `--pgn` and `--sgf` files, written with
//! [`GameRecord::to_pgn`] and [`GameRecord::to_sgf`], in the order the games were
//! handed out whatever order they finish in.

use super::engine_spec::EngineSpec;
use super::openings::Opening;
use super::referee::GameResult;
use super::schedule::Fixture;
use anyhow::{Context, Result};
use loa_core::record::{GameRecord, RecordResult};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The record of one game.
pub fn make_record(
    event: &str,
    date: &str,
    fixture: &Fixture,
    opening: &Opening,
    result: &GameResult,
    black: &EngineSpec,
    white: &EngineSpec,
) -> GameRecord {
    let mut record = GameRecord::from_game(&result.game);
    record.event = Some(event.to_string());
    record.date = Some(date.to_string());
    record.black = Some(black.name.clone());
    record.white = Some(white.name.clone());
    record.result = RecordResult::from_winner(result.winner);
    record.termination = Some(result.termination.to_string());
    let same_clock = black.limits.tc.is_some() && black.limits.tc == white.limits.tc;
    record.time_control = same_clock.then(|| black.limits.tc.expect("checked").to_string());
    record.extra.push((
        "Round".to_string(),
        format!("{}.{}", fixture.round + 1, 1 + u8::from(fixture.swapped)),
    ));
    record.extra.push(("Opening".to_string(), opening.text()));
    record
        .extra
        .push(("PlyCount".to_string(), result.game.ply().to_string()));
    // Limits other than one shared clock are written per side.
    if !same_clock || black.limits != white.limits {
        record
            .extra
            .push(("BlackLimits".to_string(), black.limits.to_string()));
        record
            .extra
            .push(("WhiteLimits".to_string(), white.limits.to_string()));
    }
    record
}

/// The text of one game in PGN.
fn pgn_text(record: &GameRecord) -> String {
    record.to_pgn()
}

/// The text of one game in SGF.
fn sgf_text(record: &GameRecord) -> String {
    record.to_sgf()
}

/// Writes records to the files as the games finish, in game order.
pub struct RecordWriter {
    pgn: Option<(PathBuf, BufWriter<File>)>,
    sgf: Option<(PathBuf, BufWriter<File>)>,
    /// Games that finished before an earlier one; `None` for a game that will have no
    /// record (abandoned).
    waiting: BTreeMap<u64, Option<GameRecord>>,
    next: u64,
}

fn create(path: &Path) -> Result<(PathBuf, BufWriter<File>)> {
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    Ok((path.to_path_buf(), BufWriter::new(file)))
}

impl RecordWriter {
    pub fn new(pgn: Option<&Path>, sgf: Option<&Path>) -> Result<RecordWriter> {
        Ok(RecordWriter {
            pgn: pgn.map(create).transpose()?,
            sgf: sgf.map(create).transpose()?,
            waiting: BTreeMap::new(),
            next: 0,
        })
    }

    pub fn is_active(&self) -> bool {
        self.pgn.is_some() || self.sgf.is_some()
    }

    /// Takes game `number`'s record (`None`: the game has none), and writes every
    /// record whose turn has come.
    pub fn add(&mut self, number: u64, record: Option<GameRecord>) -> Result<()> {
        if !self.is_active() {
            return Ok(());
        }
        self.waiting.insert(number, record);
        let mut wrote = false;
        while let Some(record) = self.waiting.remove(&self.next) {
            self.next += 1;
            if let Some(record) = record {
                self.write(&record)?;
                wrote = true;
            }
        }
        if wrote {
            // The files can be read while a long match goes on.
            self.flush()?;
        }
        Ok(())
    }

    fn write(&mut self, record: &GameRecord) -> Result<()> {
        if let Some((path, out)) = self.pgn.as_mut() {
            // The writer ends a game with a blank line, which separates games.
            let mut text = pgn_text(record);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            out.write_all(text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some((path, out)) = self.sgf.as_mut() {
            let mut text = sgf_text(record);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            out.write_all(text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }

    /// Writes whatever is still waiting (after a stop, gaps are skipped) and flushes.
    pub fn finish(&mut self) -> Result<()> {
        let waiting = std::mem::take(&mut self.waiting);
        for record in waiting.into_values().flatten() {
            self.write(&record)?;
        }
        self.flush()
    }

    fn flush(&mut self) -> Result<()> {
        for (path, out) in self.pgn.iter_mut().chain(self.sgf.iter_mut()) {
            out.flush()
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

/// Today's date as `YYYY.MM.DD` (local time), as records write it.
pub fn today() -> String {
    chrono::Local::now().format("%Y.%m.%d").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_records_write_them() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert_eq!(date.matches('.').count(), 2);
    }
}
