//! Saving a game of `loa play` as PGN and SGF, and loading one to continue it.

use crate::output::shown;
use crate::record_file::RecordFile;
use anyhow::{bail, Context, Result};
use loa_core::record::{GameError, GameRecord};
use loa_core::{Game, Move, Variant, VariantPosition};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

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

/// Saves the games of a session, each to files of its own, the same files each time a
/// game is saved again.
pub struct Saver {
    target: SaveTarget,
    /// Black's and White's names, for the records.
    names: [String; 2],
    /// The game as last noted: what a save writes.
    game: Option<Game<VariantPosition>>,
    /// The files chosen at the first save of this game.
    files: Vec<PathBuf>,
    /// The moves at the last save, so an unchanged game is not saved twice.
    saved: Option<Vec<Move>>,
    /// Whether a game of this session has taken the file `--save` named, so the next
    /// game goes to a file of its own beside it.
    file_taken: bool,
}

impl Saver {
    pub fn new(target: SaveTarget, names: [String; 2]) -> Saver {
        Saver {
            target,
            names,
            game: None,
            files: Vec::new(),
            saved: None,
            file_taken: false,
        }
    }

    /// Notes the game as it stands, for the next save.
    pub fn note(&mut self, game: &Game<VariantPosition>) {
        self.game = Some(game.clone());
    }

    /// The next game gets files of its own.
    pub fn new_game(&mut self) {
        self.game = None;
        self.files.clear();
        self.saved = None;
    }

    /// Saves the noted game unless it has no moves, or has not changed since the last
    /// save; returns the files written.
    pub fn save(&mut self) -> Result<Vec<PathBuf>> {
        let Some(game) = &self.game else {
            return Ok(Vec::new());
        };
        let moves: Vec<Move> = game.moves().collect();
        if moves.is_empty() || self.saved.as_ref() == Some(&moves) {
            return Ok(Vec::new());
        }
        let mut record = GameRecord::from_game(game);
        record.event = Some("loa play".to_string());
        record.date = Some(chrono::Local::now().format("%Y.%m.%d").to_string());
        record.black = Some(self.names[0].clone());
        record.white = Some(self.names[1].clone());
        if game.outcome().is_none() {
            record.termination = Some("unfinished".to_string());
        }
        if self.files.is_empty() {
            self.files = match &self.target {
                SaveTarget::Nowhere => return Ok(Vec::new()),
                SaveTarget::File(path) if !self.file_taken => {
                    self.file_taken = true;
                    vec![path.clone()]
                }
                SaveTarget::File(path) => vec![free_sibling(path)],
                SaveTarget::Folder(folder) => {
                    std::fs::create_dir_all(folder)
                        .with_context(|| format!("cannot make the folder {}", folder.display()))?;
                    let stem = free_stem(folder, &file_stem(&self.names));
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
        self.saved = Some(moves);
        Ok(self.files.clone())
    }
}

/// The saver, even if a thread panicked while holding it: a save writes whole files.
pub fn lock(saver: &Mutex<Saver>) -> MutexGuard<'_, Saver> {
    saver.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Saves the noted game, saying where; a failure to save is said too.
pub fn save_and_say(saver: &mut Saver, out: &mut impl Write) {
    let message = match saver.save() {
        Ok(files) if files.is_empty() => return,
        Ok(files) => {
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            format!("Saved the game to {}.", names.join(" and "))
        }
        Err(err) => format!("Could not save the game: {err:#}."),
    };
    let _ = writeln!(out, "{message}");
}

/// `games-2.pgn` beside `games.pgn`, or `-3`, ...: the first name no file has.
fn free_sibling(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (2..)
        .map(|n| path.with_file_name(format!("{stem}-{n}{ext}")))
        .find(|p| !p.exists())
        .expect("some number is free")
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
    let taken = |s: &String| {
        ["pgn", "sgf"]
            .iter()
            .any(|ext| folder.join(format!("{s}.{ext}")).exists())
    };
    std::iter::once(stem.to_string())
        .chain((2..).map(|n| format!("{stem}-{n}")))
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

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::{Position, RuleSet};

    #[test]
    fn saves_both_formats_once_per_change_and_loads_them_back() {
        let dir = tempfile::tempdir().unwrap();
        let names = ["Ann B.".to_string(), "loa".to_string()];
        let mut saver = Saver::new(SaveTarget::Folder(dir.path().join("games")), names);
        let mut game = Game::new(Position::startpos().into(), RuleSet::Draw);
        saver.note(&game);
        assert!(saver.save().unwrap().is_empty(), "no moves");
        game.play_text("b1-d3").unwrap();
        saver.note(&game);
        let files = saver.save().unwrap();
        assert_eq!(files.len(), 2);
        assert!(files[0].to_string_lossy().ends_with("-Ann_B_-vs-loa.pgn"));
        assert!(saver.save().unwrap().is_empty(), "unchanged");
        game.play_text("a2-c2").unwrap();
        saver.note(&game);
        assert_eq!(saver.save().unwrap(), files, "the same files");
        for file in &files {
            let (loaded, players) = load(file).unwrap();
            assert_eq!(
                loaded.moves().collect::<Vec<_>>(),
                game.moves().collect::<Vec<_>>()
            );
            assert_eq!(players[0].as_deref(), Some("Ann B."));
        }
        saver.new_game();
        saver.note(&game);
        let next = saver.save().unwrap();
        assert_ne!(next, files, "a new game gets files of its own");
    }

    #[test]
    fn a_move_taken_back_and_another_played_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.pgn");
        let names = ["Ann".to_string(), "loa".to_string()];
        let mut saver = Saver::new(SaveTarget::File(file.clone()), names);
        let mut game = Game::new(Position::startpos().into(), RuleSet::Draw);
        game.play_text("b1-d3").unwrap();
        saver.note(&game);
        saver.save().unwrap();
        game.undo();
        game.play_text("c1-c3").unwrap();
        saver.note(&game);
        assert_eq!(saver.save().unwrap(), std::slice::from_ref(&file));
        let pgn = std::fs::read_to_string(&file).unwrap();
        assert!(pgn.contains("1. c1-c3 *"), "{pgn}");
    }

    #[test]
    fn each_game_of_a_session_has_a_file_of_its_own_beside_the_one_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mine.pgn");
        std::fs::write(dir.path().join("mine-2.pgn"), "kept").unwrap();
        let names = ["Ann".to_string(), "loa".to_string()];
        let mut saver = Saver::new(SaveTarget::File(file.clone()), names);
        let mut game = Game::new(Position::startpos().into(), RuleSet::Draw);
        game.play_text("b1-d3").unwrap();
        let mut written = Vec::new();
        for _ in 0..3 {
            saver.note(&game);
            written.extend(saver.save().unwrap());
            saver.new_game();
        }
        let named = |name: &str| dir.path().join(name);
        assert_eq!(
            written,
            [named("mine.pgn"), named("mine-3.pgn"), named("mine-4.pgn")]
        );
        assert_eq!(
            std::fs::read_to_string(named("mine-2.pgn")).unwrap(),
            "kept"
        );
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
