//! Standard output for the commands. A closed pipe (`loa bench | head -1`) ends the
//! program quietly, as command-line programs do; any other failure to write is an error.

use std::fmt::Display;
use std::io::Write;

/// Prints a line on standard output, like `println!`, but never panics.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}
pub(crate) use say;

pub fn line(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(err) = writeln!(out, "{args}").and_then(|()| out.flush()) {
        exit_on_write_error(&err);
    }
}

/// Ends the program after standard output failed: quietly for a closed pipe.
pub fn exit_on_write_error(err: &std::io::Error) -> ! {
    if err.kind() != std::io::ErrorKind::BrokenPipe {
        let _ = writeln!(
            std::io::stderr(),
            "error: cannot write to standard output: {err}"
        );
        std::process::exit(1);
    }
    std::process::exit(0);
}

/// Whether an error came from a closed standard output somewhere down its chain.
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A count with its noun, singular or plural: `1 move`, `2 moves`.
pub fn count<N: Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    let plural = if n == N::from(1) { "" } else { "s" };
    format!("{n} {noun}{plural}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(1usize, "move"), "1 move");
        assert_eq!(super::count(0u64, "node"), "0 nodes");
        assert_eq!(super::count(2usize, "move"), "2 moves");
    }
}
