//! Checkpoints of a long solve: the table and where the solver stood (which side's win
//! it was proving, and whether the side to move's win was already disproved), written
//! to a file from time to time and read back by `--resume`.

use super::table::{Entry, Table, INF, WAYS};
use loa_core::Color;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"loa-dfpn";
const VERSION: u32 = 3;

/// Where a solve stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The root's key: a checkpoint resumes only the position it was made for.
    pub root: u64,
    /// 0: the rule set draw, 1: mover-wins.
    pub rules: u8,
    pub attacker: Color,
    /// The side to move's win was disproved; the opponent's is being proved.
    pub second: bool,
    pub nodes: u64,
}

/// The bytes before the entries: the magic, the version, the root, three flags, the
/// nodes and the count of entries.
const HEADER: u64 = 8 + 4 + 8 + 3 + 8 + 8;
/// The bytes of an entry: the key and three numbers.
const ENTRY: u64 = 8 + 4 + 4 + 4;

/// Writes `stage` and the table to `path`, through a file beside it renamed at the end so
/// that a checkpoint cut short never replaces a good one (nor stays beside it).
pub fn write(path: &Path, stage: &Stage, table: &Table) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    let written = write_to(&partial, stage, table).and_then(|()| std::fs::rename(&partial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

fn write_to(partial: &Path, stage: &Stage, table: &Table) -> std::io::Result<()> {
    {
        let mut out = BufWriter::new(std::fs::File::create(partial)?);
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&stage.root.to_le_bytes())?;
        out.write_all(&[
            stage.rules,
            stage.attacker.index() as u8,
            u8::from(stage.second),
        ])?;
        out.write_all(&stage.nodes.to_le_bytes())?;
        // The count goes before the entries: a place for it now, filled in after one pass
        // over the table.
        let count_at = out.stream_position()?;
        out.write_all(&0u64.to_le_bytes())?;
        let mut count = 0u64;
        for index in 0..table.len() {
            for e in (0..WAYS).filter_map(|way| table.entry(index, way)) {
                write_entry(&mut out, &e)?;
                count += 1;
            }
        }
        out.seek(SeekFrom::Start(count_at))?;
        out.write_all(&count.to_le_bytes())?;
        out.flush()?;
    }
    Ok(())
}

/// Reads a checkpoint's entries into `table` (of any size: each goes in by its key);
/// where the solve stood. A file cut short or longer than its header says is refused
/// before any entry is read, with where it ends.
pub fn read(path: &Path, table: &Table) -> std::io::Result<Stage> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let file = std::fs::File::open(path)?;
    let length = file.metadata()?.len();
    let mut input = BufReader::new(file);
    if length < HEADER {
        return Err(bad(format!(
            "the file is truncated: it ends at byte {length}, inside its header of \
             {HEADER} bytes"
        )));
    }
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic)?;
    if &magic != MAGIC {
        return Err(bad("not a checkpoint of loa solve".to_string()));
    }
    let version = read_u32(&mut input)?;
    if !(1..=VERSION).contains(&version) {
        return Err(bad("a checkpoint of another version".to_string()));
    }
    let root = read_u64(&mut input)?;
    let mut flags = [0u8; 3];
    input.read_exact(&mut flags)?;
    let nodes = read_u64(&mut input)?;
    let count = read_u64(&mut input)?;
    // Version 1 and 2 held every slot of buckets of two and three, empty ones
    // included; version 3 holds the entries only. Entries go back in by their keys, so
    // the table may have another size.
    let entries = match version {
        1 => count.checked_mul(2),
        2 => count.checked_mul(3),
        _ => Some(count),
    };
    let expected = entries
        .and_then(|n| n.checked_mul(ENTRY))
        .and_then(|n| n.checked_add(HEADER));
    if expected != Some(length) {
        let whole = (length - HEADER) / ENTRY;
        let at = match (length - HEADER) % ENTRY {
            0 => format!("after entry {whole}"),
            _ => format!("inside entry {}", whole + 1),
        };
        return Err(bad(format!(
            "the file is truncated or damaged: its header counts {count} entries, but its \
             {length} bytes end {at}"
        )));
    }
    for _ in 0..entries.unwrap_or(0) {
        let entry = Entry {
            key: read_u64(&mut input)?,
            pn: read_u32(&mut input)?,
            dn: read_u32(&mut input)?,
            work: read_u32(&mut input)?,
        };
        if entry.pn != 0 || entry.dn != 0 {
            table.put(Entry {
                pn: entry.pn.min(INF),
                dn: entry.dn.min(INF),
                ..entry
            });
        }
    }
    Ok(Stage {
        root,
        rules: flags[0],
        attacker: if flags[1] == 0 {
            Color::Black
        } else {
            Color::White
        },
        second: flags[2] != 0,
        nodes,
    })
}

fn write_entry(out: &mut impl Write, e: &Entry) -> std::io::Result<()> {
    out.write_all(&e.key.to_le_bytes())?;
    out.write_all(&e.pn.to_le_bytes())?;
    out.write_all(&e.dn.to_le_bytes())?;
    out.write_all(&e.work.to_le_bytes())
}

fn read_u32(input: &mut impl Read) -> std::io::Result<u32> {
    let mut b = [0u8; 4];
    input.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn read_u64(input: &mut impl Read) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    input.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_is_read_back_into_a_table_of_another_size() {
        let table = Table::new(4).unwrap();
        let entries: Vec<Entry> = (1..=500u64)
            .map(|i| Entry {
                key: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                pn: (i % 7) as u32,
                dn: if i % 7 == 0 { INF } else { i as u32 },
                work: 0,
            })
            .collect();
        entries.iter().for_each(|&e| table.put(e));
        let stage = Stage {
            root: 77,
            rules: 1,
            attacker: Color::White,
            second: true,
            nodes: 123_456,
        };
        let path = std::env::temp_dir().join(format!("loa-checkpoint-{}", std::process::id()));
        write(&path, &stage, &table).unwrap();
        let bigger = Table::new(8).unwrap();
        let read_back = read(&path, &bigger);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read_back.unwrap(), stage);
        for e in entries {
            assert_eq!(bigger.get(e.key), Some(e));
        }
    }

    /// A checkpoint of a table of three entries, as bytes.
    fn three_entries() -> Vec<u8> {
        let table = Table::new(1).unwrap();
        for key in 1..=3u64 {
            table.put(Entry {
                key: key.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                pn: 1,
                dn: 2,
                work: 0,
            });
        }
        let stage = Stage {
            root: 1,
            rules: 0,
            attacker: Color::Black,
            second: false,
            nodes: 10,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("three.ckpt");
        write(&path, &stage, &table).unwrap();
        std::fs::read(&path).unwrap()
    }

    #[test]
    fn a_cut_or_damaged_checkpoint_is_refused_with_where_it_ends() {
        let bytes = three_entries();
        assert_eq!(bytes.len() as u64, HEADER + 3 * ENTRY);
        let mut huge_count = bytes.clone();
        huge_count[31..39].copy_from_slice(&u64::MAX.to_le_bytes());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.ckpt");
        for (bytes, expected) in [
            (
                &bytes[..bytes.len() - 7],
                "the file is truncated or damaged: its header counts 3 entries, but its 92 \
                 bytes end inside entry 3",
            ),
            (
                &bytes[..HEADER as usize + 20],
                "the file is truncated or damaged: its header counts 3 entries, but its 59 \
                 bytes end after entry 1",
            ),
            (
                &bytes[..20],
                "the file is truncated: it ends at byte 20, inside its header of 39 bytes",
            ),
            (
                &huge_count[..],
                "the file is truncated or damaged: its header counts 18446744073709551615 \
                 entries, but its 99 bytes end after entry 3",
            ),
        ] {
            std::fs::write(&path, bytes).unwrap();
            let err = read(&path, &Table::new(1).unwrap()).unwrap_err();
            assert_eq!(err.to_string(), expected);
        }
    }

    #[test]
    fn a_checkpoint_that_cannot_be_written_leaves_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        // A folder where the checkpoint should go: the rename at the end fails.
        let path = dir.path().join("taken");
        std::fs::create_dir(&path).unwrap();
        let stage = Stage {
            root: 1,
            rules: 0,
            attacker: Color::Black,
            second: false,
            nodes: 0,
        };
        assert!(write(&path, &stage, &Table::new(1).unwrap()).is_err());
        assert!(!dir.path().join("taken.partial").exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
