//! `loa report FILE`: a recorded game's report: every position searched at one budget,
//! the evaluation after each move, the inaccuracies, mistakes and blunders with the
//! better move, and each side's accuracy; `--out` writes the record again with the report
//! as comments.

use crate::numbers::whole;
use crate::out_file::check_writable;
use crate::output::{bar_style, say, shown};
use crate::record_file::RecordFile;
use crate::setup::variant_names;
use anyhow::{bail, Context, Result};
use indicatif::ProgressBar;
use loa_core::{counted, Color, Game, Variant, VariantPosition};
use loa_engine::report::{report_game, GameReport, Slip, DEFAULT_NODES};
use loa_engine::Engine;
use std::path::PathBuf;

/// The table of the search, in MiB: the site's, so that both make the same report.
const HASH_MB: usize = 16;

#[derive(clap::Args)]
pub struct ReportArgs {
    /// The record: SGF (starts with '(') or PGN; '-' reads standard input.
    pub file: PathBuf,
    /// Report on game N of the file, counting from 1.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub game: u64,
    /// Nodes searched in each position: the same report on every machine.
    #[arg(long, default_value_t = DEFAULT_NODES, allow_negative_numbers = true,
          value_parser = whole(1_000u64, 1_000_000_000))]
    pub nodes: u64,
    /// Write the record with the report as comments; SGF when the name ends in `.sgf`,
    /// PGN otherwise.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The variant of games whose record names none (SGF `SU`, PGN `Variant`).
    #[arg(long, default_value = "standard", value_parser = variant_names())]
    pub variant: Variant,
}

pub fn run(args: ReportArgs) -> Result<()> {
    if let Some(out) = &args.out {
        check_writable("--out", out)?;
    }
    let mut file = RecordFile::open(&args.file)?;
    let name = file.name().to_string();
    let wanted = usize::try_from(args.game).unwrap_or(usize::MAX);
    let mut seen = 0;
    let mut found = None;
    for text in file.by_ref() {
        let text = text?.map_err(|e| anyhow::anyhow!("{name}: {}", shown(&e.to_string())))?;
        seen = text.number;
        if text.number == wanted {
            found = Some(text);
            break;
        }
    }
    let Some(text) = found else {
        bail!(
            "{name} holds {}; there is no game {wanted}",
            counted(seen, "game")
        );
    };
    let checked = text
        .read(args.variant)
        .map_err(|e| anyhow::anyhow!("{}", shown(&e.to_string())))?;
    let mut record = checked.record;
    let game = checked.replay.game;
    say!("Game {wanted}: {}", shown(&record.heading()));

    let bar = ProgressBar::new(game.ply() as u64 + 1).with_style(bar_style(
        "{bar:40} {pos}/{len} positions, {elapsed} (eta {eta})",
    ));
    let mut engine = Engine::new(HASH_MB);
    let report = report_game(&mut engine, &game, args.nodes, |done, _| {
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    print_report(&game, &report);

    if let Some(out) = &args.out {
        record.comments = (0..report.moves.len())
            .map(|ply| (ply, report.comment(ply)))
            .collect();
        let sgf = out
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
        let written = if sgf {
            record.to_sgf()
        } else {
            record.to_pgn()
        };
        std::fs::write(out, written)
            .with_context(|| format!("--out {}: cannot write", out.display()))?;
        say!("Written: {}", out.display());
    }
    Ok(())
}

fn print_report(game: &Game<VariantPosition>, report: &GameReport) {
    for judged in &report.moves {
        let (number, side) = game.move_number(judged.ply);
        let dots = if side == Color::Black { "." } else { "..." };
        let eval = report.positions[judged.ply + 1].for_black();
        // A plus for Black's advantage, as players write it.
        let eval = if eval.starts_with(['-', '#']) || eval == "0.00" {
            eval
        } else {
            format!("+{eval}")
        };
        let mut line = format!("{:>4}{dots:<4}{:<9}{eval:>7}", number, judged.played);
        if let Some(slip) = judged.slip {
            line.push_str(&format!("  {}", slip.name()));
            if judged.lost_win {
                line.push_str(" (a forced win let go)");
            }
            if let Some(better) = judged.better {
                line.push_str(&format!(", {better} was better"));
            }
        }
        say!("{}", line.trim_end());
    }
    for side in [Color::Black, Color::White] {
        let Some(accuracy) = report.accuracy(side) else {
            continue;
        };
        let slips = [Slip::Inaccuracy, Slip::Mistake, Slip::Blunder].map(|slip| {
            let n = report.count(side, slip);
            match (slip, n) {
                (Slip::Inaccuracy, 1) => "1 inaccuracy".to_string(),
                (Slip::Inaccuracy, _) => format!("{n} inaccuracies"),
                _ => counted(n, slip.name()),
            }
        });
        say!(
            "{side}: accuracy {accuracy:.1}; {}, {}, {}",
            slips[0],
            slips[1],
            slips[2]
        );
    }
}
