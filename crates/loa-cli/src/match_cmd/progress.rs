//! Live progress: a bar on a terminal (games played, W-L-D, Elo, LLR), one plain line
//! per finished game otherwise.

use crate::output::bar_style;
use indicatif::ProgressBar;
use loa_match::Progress;
use std::io::{IsTerminal, Write};
use std::time::Duration;

pub struct MatchProgress {
    bar: Option<ProgressBar>,
}

impl MatchProgress {
    /// A bar when standard error is a terminal, else plain lines on standard output.
    pub fn new(total: Option<u64>) -> MatchProgress {
        if !std::io::stderr().is_terminal() {
            return MatchProgress { bar: None };
        }
        let bar = match total {
            Some(n) => ProgressBar::new(n).with_style(
                bar_style("{elapsed_precise} [{bar:20}] {pos}/{len} {wide_msg}")
                    .progress_chars("=> "),
            ),
            None => ProgressBar::new_spinner().with_style(bar_style(
                "{elapsed_precise} {spinner} {pos} games {wide_msg}",
            )),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        MatchProgress { bar: Some(bar) }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Progress for MatchProgress {
    /// A game has finished: `line` says which and how, `status` where the match stands.
    fn game_finished(&self, line: &str, status: &str) {
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(status.to_string());
            }
            None => {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line} | {status}");
            }
        }
    }
}
