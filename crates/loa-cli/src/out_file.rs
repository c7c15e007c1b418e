//! Files a command writes after long work (a proof, a checkpoint, game records, a book):
//! each is checked before the work starts, so that a mistyped folder is found at once
//! rather than after hours of solving or a match.

use anyhow::{bail, Context, Result};
use std::fs::OpenOptions;
use std::path::Path;

/// Checks that `path`, given to `option`, can be written: its folder exists and the file
/// can be created there, or, when it exists, opened for writing. Nothing is changed: a
/// file created to try is removed again.
pub fn check_writable(option: &str, path: &Path) -> Result<()> {
    let shown = path.display();
    if path.is_dir() {
        bail!("{option} {shown}: that is a folder, not a file");
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        bail!(
            "{option} {shown}: the folder {} does not exist",
            folder.display()
        );
    }
    let tried = if path.exists() {
        OpenOptions::new().append(true).open(path).map(drop)
    } else {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|file| {
                drop(file);
                std::fs::remove_file(path)
            })
    };
    tried.with_context(|| format!("{option} {shown}: the file cannot be written"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_written_is_named_with_why() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-folder").join("proof.txt");
        let err = check_writable("--proof", &missing).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "--proof {}: the folder {} does not exist",
                missing.display(),
                dir.path().join("no-such-folder").display()
            )
        );
        let err = check_writable("--pgn", dir.path()).unwrap_err();
        assert!(
            err.to_string().ends_with("that is a folder, not a file"),
            "{err}"
        );
        // A new file is tried and removed; an existing one is left as it is.
        let new = dir.path().join("new.txt");
        check_writable("--proof", &new).unwrap();
        assert!(!new.exists());
        std::fs::write(&new, "kept").unwrap();
        check_writable("--proof", &new).unwrap();
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "kept");
    }
}
