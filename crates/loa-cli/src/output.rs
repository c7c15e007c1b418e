//! Standard output for the commands. A closed pipe (`loa bench | head -1`) ends the
//! program quietly, as command-line programs do; any other failure to write is an error.

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

/// The look of a progress bar or spinner (on standard error) from its template.
pub fn bar_style(template: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(template).expect("a valid template")
}

/// Text from a file or another program, safe to print on a terminal: control characters
/// (an escape sequence in a player's name, a line break) are shown as escapes (`\u{1b}`,
/// `\n`) instead of acting on the terminal.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_as_escapes() {
        assert_eq!(shown("Björn \"B\" \\"), "Björn \"B\" \\");
        assert_eq!(shown("\u{1b}[31mRed\u{1b}[0m"), "\\u{1b}[31mRed\\u{1b}[0m");
        assert_eq!(shown("a\nb\tc\u{9b}2J\u{7f}"), "a\\nb\\tc\\u{9b}2J\\u{7f}");
    }
}
