//! `loa solve`: proves a position won, lost or drawn, and writes the proof; and
//! `loa verify-proof`: checks a proof with the rules alone.

use crate::certificate_file;
use crate::numbers::whole;
use crate::out_file::check_writable;
use crate::output::{bar_style, say};
use crate::setup::{rule_sets, PositionArgs};
use crate::text_file;
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::ProgressBar;
use loa_core::proof::Proof;
use loa_core::{Color, GameState, RuleSet, VariantPosition};
use loa_engine::solver::{Progress, SolveLimits, Solver, Verdict, INF};
use loa_engine::MAX_HASH_MB;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The result of a simultaneous connection.
    #[arg(long, default_value = "draw", value_parser = rule_sets())]
    rules: RuleSet,
    /// Seconds to try before answering unknown.
    #[arg(long, value_parser = crate::numbers::seconds)]
    time: Option<Duration>,
    /// The table's size in megabytes.
    #[arg(long, default_value_t = 256, allow_negative_numbers = true, value_parser = whole(1usize, MAX_HASH_MB))]
    hash: usize,
    /// Try this side's win only (black or white), for a position believed won for it:
    /// where it has none, the answer is unknown.
    #[arg(long, value_parser = crate::setup::colors())]
    prove: Option<Color>,
    /// Threads searching over the shared table.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole(1usize, 256))]
    threads: usize,
    /// Write the proof of a win or a loss to this file.
    #[arg(long)]
    proof: Option<PathBuf>,
    /// Write the proof as a certificate to this file: the winner's strategy alone,
    /// compressed (docs/solver.md).
    #[arg(long)]
    certificate: Option<PathBuf>,
    /// Write the solver's table to this file every --checkpoint-every minutes, and when
    /// stopped (out of time, or Ctrl-C) before an answer.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Minutes between checkpoints: a large table takes a while to write, and as much
    /// disk as memory.
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = whole(1u64, 10_080), requires = "checkpoint")]
    checkpoint_every: u64,
    /// Go on from a checkpoint of the same position and rules (any --hash).
    #[arg(long)]
    resume: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> Result<()> {
    let root = args.position.position()?;
    let rules = args.rules;
    if let Some(outcome) = root.outcome(rules) {
        bail!("the game is over in this position: {outcome}");
    }
    loa_engine::check_hash_size(args.hash, 0).map_err(|e| anyhow::anyhow!("--hash: {e}"))?;
    if let Some(path) = &args.proof {
        check_writable("--proof", path)?;
    }
    if let Some(path) = &args.certificate {
        check_writable("--certificate", path)?;
    }
    if let Some(path) = &args.checkpoint {
        check_writable("--checkpoint", path)?;
    }
    static STOP: AtomicBool = AtomicBool::new(false);
    // Ctrl-C stops the solver, which then writes its checkpoint.
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let stop = &STOP;
    let limits = SolveLimits {
        time: args.time,
        nodes: None,
    };
    let side = root.side_to_move();
    let bar = ProgressBar::new_spinner().with_style(bar_style("{spinner} {elapsed_precise} {msg}"));
    let mut solver = Solver::new(args.hash, rules, limits, stop)
        .with_context(|| format!("cannot have a table of {} MB", args.hash))?;
    solver.set_threads(args.threads);
    if let Some(side) = args.prove {
        solver.prove_only(side);
    }
    let mut nodes_before = 0;
    if let Some(path) = &args.resume {
        nodes_before = solver
            .resume_from(path, &root)
            .map_err(anyhow::Error::msg)?;
        eprintln!(
            "resuming from {} ({nodes_before} nodes searched before)",
            path.display()
        );
    }
    if let Some(path) = &args.checkpoint {
        solver.checkpoint_to(
            path.clone(),
            Duration::from_secs(60 * args.checkpoint_every),
        );
    }
    let ticker = bar.clone();
    // Off a terminal the spinner is hidden: a line every ten minutes tells a log how a
    // long run stands.
    let mut last_line = std::time::Instant::now();
    solver.on_progress(move |p: &Progress| {
        let whose = if p.attacker == side {
            "the side to move's"
        } else {
            "the opponent's"
        };
        // The nodes of this run only: a resumed run's count starts from the checkpoint's.
        let nps = p.nodes.saturating_sub(nodes_before) as f64 / p.elapsed.as_secs_f64().max(1e-3);
        // The root's numbers come once its first child has been searched through.
        let numbers = match (p.pn, p.dn) {
            (INF, INF) => "root not yet scored".to_string(),
            (pn, dn) => format!("root pn {pn} dn {dn}"),
        };
        let message = format!(
            "proving {whose} win ({}): {numbers}, {} nodes, {nps:.0} nodes/s",
            p.attacker, p.nodes
        );
        if ticker.is_hidden() {
            if last_line.elapsed() >= Duration::from_secs(600) {
                last_line = std::time::Instant::now();
                eprintln!("{} s: {message}", p.elapsed.as_secs());
            }
        } else {
            ticker.set_message(message);
            ticker.tick();
        }
    });
    let solution = solver.solve(&root, &[]);
    let checkpoint_error = solver.checkpoint_error.take();
    drop(solver);
    bar.finish_and_clear();
    say!("{}", solution.verdict);
    if let Some(best) = solution.best {
        say!("best move {best}");
    }
    if let (Verdict::Unknown, Some(side)) = (solution.verdict, args.prove) {
        say!("only {side}'s win was tried (--prove)");
    }
    if solution.verdict == Verdict::Unknown {
        let (attacker, pn, dn) = solution.root_numbers;
        if dn == 0 {
            // Only one side's win was tried, and it was refuted.
            say!(
                "{attacker}'s win is disproved: {attacker} cannot force a connection \
                 ({} wins or it is a draw; that was not tried)",
                !attacker
            );
        } else {
            say!("proving {attacker}'s win: root proof number {pn}, disproof number {dn}");
            say!(
                "{}",
                solution.root_moves_report(root.side_to_move(), root.count_moves())
            );
        }
    }
    if let Some(error) = checkpoint_error {
        eprintln!("warning: {error}");
    } else if let (Verdict::Unknown, Some(path)) = (solution.verdict, &args.checkpoint) {
        say!(
            "checkpoint written to {} (go on with --resume)",
            path.display()
        );
    }
    let seconds = solution.elapsed.as_secs_f64();
    say!(
        "nodes {} time {:.3} s ({:.0} nodes/s)",
        solution.nodes,
        seconds,
        (solution.nodes - nodes_before) as f64 / seconds.max(1e-9)
    );
    if let Some(proof) = &solution.proof {
        let summary = proof
            .verify()
            .context("the proof found does not check: please report this position")?;
        say!(
            "proof {summary} (checked), taken out of the table in {:.3} s of the time above",
            solution.proof_elapsed.as_secs_f64()
        );
        if let Some(path) = &args.proof {
            std::fs::write(path, proof.write())
                .with_context(|| format!("cannot write the proof to {}", path.display()))?;
            say!("proof written to {}", path.display());
        }
        if let Some(path) = &args.certificate {
            let summary = certificate_file::write(proof, path)?;
            say!(
                "certificate {summary} written to {} (checked)",
                path.display()
            );
        }
    } else if solution.verdict == Verdict::Draw
        && (args.proof.is_some() || args.certificate.is_some())
    {
        say!("no proof to write: a draw is not proved by a tree");
    } else if solution.verdict != Verdict::Unknown {
        // The value was proved, but the time ran out while the proof was being written.
        say!("no proof written: the time ran out while writing it (give more --time)");
    }
    Ok(())
}

#[derive(Args)]
pub struct VerifyArgs {
    /// A proof or a certificate written by `loa solve` (`--proof`, `--certificate`).
    file: PathBuf,
    /// Check it under this rule set instead of the one it names (a win proved under one
    /// rule set can hold under the other).
    #[arg(long, value_parser = rule_sets())]
    rules: Option<RuleSet>,
    /// Write the checked proof as a certificate to this file.
    #[arg(long)]
    certificate: Option<PathBuf>,
    /// Take the proof back one move to this position (its variant's text), from which
    /// the winner reaches the proof's start: the proof of a winning first move is then
    /// one of the position before it.
    #[arg(long)]
    from: Option<String>,
}

pub fn verify(args: VerifyArgs) -> Result<()> {
    if let Some(path) = &args.certificate {
        check_writable("--certificate", path)?;
    }
    if certificate_file::is_certificate(&args.file)? {
        if args.certificate.is_some() {
            bail!("{} is a certificate already", args.file.display());
        }
        if args.from.is_some() {
            bail!("--from takes a proof back, not a certificate");
        }
        let bar = ProgressBar::new(0).with_style(bar_style(
            "{spinner} {elapsed_precise} {human_pos}/{human_len} entries {per_sec}",
        ));
        let (header, summary) = certificate_file::verify(&args.file, args.rules, &bar)?;
        bar.finish_and_clear();
        say!(
            "valid: {} wins from {} ({}, {} rules): {summary}",
            header.winner,
            header.start,
            header.variant.title(),
            header.rules
        );
        return Ok(());
    }
    let text = text_file::read(&args.file)?;
    let mut proof =
        Proof::parse(&text).with_context(|| format!("{} is not a proof", args.file.display()))?;
    drop(text);
    if let Some(rules) = args.rules {
        proof.rules = rules;
    }
    if let Some(text) = &args.from {
        let before = VariantPosition::parse(proof.variant, text).with_context(|| {
            format!("--from {text}: not a position of {}", proof.variant.title())
        })?;
        proof = proof.before(before).context("--from")?;
    }
    let summary = proof
        .verify()
        .with_context(|| format!("{} does not prove a win", args.file.display()))?;
    say!(
        "valid: {} wins from {} ({}, {} rules): {summary}",
        proof.winner,
        proof.start,
        proof.variant.title(),
        proof.rules
    );
    if let Some(path) = &args.certificate {
        let summary = certificate_file::write(&proof, path)?;
        say!(
            "certificate {summary} written to {} (checked)",
            path.display()
        );
    }
    Ok(())
}
