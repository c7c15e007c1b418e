//! Saving a game of `loa play` as PGN and SGF, and loading one to continue it.

use crate::output::shown;
use crate::record_file::RecordFile;
use anyhow::{bail, Context, Result};
use loa_core::record::{GameError, GameRecord};
use loa_core::{Color, Game, Variant, VariantPosition};
use std::path::{Path, PathBuf};

/// Where a game goes.
#[derive(Clone, Debug)]
pub enum SaveTarget {
    /// PGN and SGF files in this folder, named with the date and the players.
    Folder(PathBuf),
    /// One file, SGF if its name ends in `.sgf`, PGN otherwise.
    File(PathBuf),
    Nowhere,
}

impl SaveTarget {
    /// The games folder in the user's data folder (`~/.local/share/loa/games` on Linux).
    pub fn default_folder() -> SaveTarget {
        match dirs::data_dir() {
            Some(dir) => SaveTarget::Folder(dir.join("loa").join("games")),
            None => SaveTarget::Nowhere,
        }
    }
}

/// Saves one game, to the same files each time it is saved again.
pub struct Saver {
    target: SaveTarget,
    /// The files chosen at the first save of this game.
    files: Vec<PathBuf>,
    /// The number of moves at the last save, so an unchanged game is not saved twice.
    saved_ply: Option<usize>,
}

impl Saver {
    pub fn new(target: SaveTarget) -> Saver {
        Saver {
            target,
            files: Vec::new(),
            saved_ply: None,
        }
    }

    /// The next game gets files of its own.
    pub fn new_game(&mut self) {
        self.files.clear();
        self.saved_ply = None;
    }

    /// Saves the game unless it has no moves, or has not changed since the last save;
    /// returns the files written.
    pub fn save(
        &mut self,
        game: &Game<VariantPosition>,
        names: &[String; 2],
    ) -> Result<Vec<PathBuf>> {
        if game.ply() == 0 || self.saved_ply == Some(game.ply()) {
            return Ok(Vec::new());
        }
        let mut record = GameRecord::from_game(game);
        record.event = Some("loa play".to_string());
        record.date = Some(chrono::Local::now().format("%Y.%m.%d").to_string());
        record.black = Some(names[0].clone());
        record.white = Some(names[1].clone());
        if game.outcome().is_none() {
            record.termination = Some("unfinished".to_string());
        }
        if self.files.is_empty() {
            self.files = match &self.target {
                SaveTarget::Nowhere => return Ok(Vec::new()),
                SaveTarget::File(path) => vec![path.clone()],
                SaveTarget::Folder(folder) => {
                    std::fs::create_dir_all(folder)
                        .with_context(|| format!("cannot make the folder {}", folder.display()))?;
                    let stem = free_stem(folder, &file_stem(names));
                    vec![
                        folder.join(format!("{stem}.pgn")),
                        folder.join(format!("{stem}.sgf")),
                    ]
                }
            };
        }
        for path in &self.files {
            let text = if is_sgf(path) {
                record.to_sgf()
            } else {
                record.to_pgn()
            };
            std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        self.saved_ply = Some(game.ply());
        Ok(self.files.clone())
    }
}

fn is_sgf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

/// `2026-11-23-1830-alice-vs-loa`: the date, the time and the players.
fn file_stem(names: &[String; 2]) -> String {
    let clean = |name: &str| -> String {
        let kept: String = name
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .take(24)
            .collect();
        if kept.is_empty() {
            "player".to_string()
        } else {
            kept
        }
    };
    format!(
        "{}-{}-vs-{}",
        chrono::Local::now().format("%Y-%m-%d-%H%M"),
        clean(&names[0]),
        clean(&names[1])
    )
}

/// The stem, or the stem with `-2`, `-3`, ... when files of that name exist.
fn free_stem(folder: &Path, stem: &str) -> String {
    let taken = |s: &str| {
        ["pgn", "sgf"]
            .iter()
            .any(|ext| folder.join(format!("{s}.{ext}")).exists())
    };
    if !taken(stem) {
        return stem.to_string();
    }
    (2..)
        .map(|n| format!("{stem}-{n}"))
        .find(|s| !taken(s))
        .expect("some number is free")
}

/// The first game of a record file, replayed, and its players' names when it has them.
/// Only that game is read: the games after it do not matter.
pub fn load(path: &Path) -> Result<(Game<VariantPosition>, [Option<String>; 2])> {
    let mut file = RecordFile::open(path)?;
    let name = file.name().to_string();
    let Some(first) = file.next() else {
        bail!("{name} holds no game");
    };
    let read = first?
        .map_err(GameError::Split)
        .and_then(|text| text.read(Variant::Standard));
    let game = read.map_err(|e| anyhow::anyhow!("{name}: {}", shown(&e.to_string())))?;
    let record = game.record;
    Ok((game.replay.game, [record.black, record.white]))
}

/// The name of the person at this terminal.
pub fn user_name() -> String {
    std::env::var("USER")
        .ok()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "player".to_string())
}

/// Black's and White's names in a game against the engine.
pub fn names(human: Color, engine: &str) -> [String; 2] {
    match human {
        Color::Black => [user_name(), engine.to_string()],
        Color::White => [engine.to_string(), user_name()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::{Position, RuleSet};

    #[test]
    fn saves_both_formats_once_per_change_and_loads_them_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut saver = Saver::new(SaveTarget::Folder(dir.path().join("games")));
        let mut game = Game::new(Position::startpos().into(), RuleSet::Draw);
        let names = ["Ann B.".to_string(), "loa".to_string()];
        assert!(saver.save(&game, &names).unwrap().is_empty(), "no moves");
        game.play_text("b1-d3").unwrap();
        let files = saver.save(&game, &names).unwrap();
        assert_eq!(files.len(), 2);
        assert!(files[0].to_string_lossy().ends_with("-Ann_B_-vs-loa.pgn"));
        assert!(saver.save(&game, &names).unwrap().is_empty(), "unchanged");
        game.play_text("a2-c2").unwrap();
        assert_eq!(saver.save(&game, &names).unwrap(), files, "the same files");
        for file in &files {
            let (loaded, players) = load(file).unwrap();
            assert_eq!(
                loaded.moves().collect::<Vec<_>>(),
                game.moves().collect::<Vec<_>>()
            );
            assert_eq!(players[0].as_deref(), Some("Ann B."));
        }
        saver.new_game();
        let next = saver.save(&game, &names).unwrap();
        assert_ne!(next, files, "a new game gets files of its own");
    }

    #[test]
    fn loading_reads_the_first_game_of_an_archive_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("archive.sgf");
        let archive = "(;GaMe[9]FF[3]PB[Kok]PW[];B[B1 B3];W[h4 f2+]C[x])\n\
            (;GM[9]PB[Bad];B[b1-b9])\n(;GM[9]PB[never closed";
        std::fs::write(&file, archive).unwrap();
        let (loaded, players) = load(&file).unwrap();
        assert_eq!(loaded.ply(), 2);
        assert_eq!(players, [Some("Kok".to_string()), None]);

        std::fs::write(&file, "[Black \"\u{1b}[2J\"]\n1. b1-b2 *\n1. b1-b3 *").unwrap();
        let err = load(&file).unwrap_err().to_string();
        assert!(
            err.ends_with(
                "archive.sgf: game 1 (\\u{1b}[2J - ?): move 1 (Black, ply 1) b1-b2: 'b1-b2' is \
                 illegal: the line from b1 towards b2 holds 2 pieces, so the piece moves 2 \
                 squares, not 1"
            ),
            "{err}"
        );
    }
}
