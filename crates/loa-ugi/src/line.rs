//! Reading the other side's lines with a cap: a broken peer that writes without end (or
//! a gigabyte before its newline) costs at most [`MAX_LINE`] bytes of memory.

use std::io::{BufRead, Read};

/// The longest line either side reads, its newline not counted: far beyond any command
/// or answer (a `position` with a thousand moves is some 5 KB).
pub const MAX_LINE: usize = 1 << 20;

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, in the buffer (with its newline, if it had one).
    Line,
    /// More than `max` bytes before a newline: the buffer holds the first `max`, and
    /// the rest of the line is still to be read ([`skip_line`] passes over it).
    TooLong,
    /// The end of the input.
    End,
}

/// Reads a line into `buf` (cleared first), keeping at most `max` bytes of it.
pub fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    buf.clear();
    // One byte past the cap tells a line of exactly `max` bytes from a longer one.
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    let read = input.take(limit).read_until(b'\n', buf)?;
    Ok(if read == 0 {
        LineRead::End
    } else if buf.last() != Some(&b'\n') && buf.len() > max {
        // The byte past the cap is not a newline: it belongs to the rest of the line.
        buf.truncate(max);
        LineRead::TooLong
    } else {
        LineRead::Line
    })
}

/// Passes over the rest of a line, up to and with its newline, keeping none of it.
pub fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    input.skip_until(b'\n').map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn lines_are_read_up_to_the_cap_and_the_rest_skipped() {
        let text = format!("isready\n{}\nuci\nlast", "x".repeat(25));
        // A small buffer: lines and the cap cross its refills.
        let mut input = BufReader::with_capacity(4, text.as_bytes());
        let mut buf = Vec::new();
        let read = |input: &mut BufReader<&[u8]>, buf: &mut Vec<u8>| {
            let found = read_line(input, buf, 10).unwrap();
            (found, String::from_utf8(buf.clone()).unwrap())
        };
        assert_eq!(
            read(&mut input, &mut buf),
            (LineRead::Line, "isready\n".into())
        );
        assert_eq!(
            read(&mut input, &mut buf),
            (LineRead::TooLong, "x".repeat(10))
        );
        skip_line(&mut input).unwrap();
        assert_eq!(read(&mut input, &mut buf), (LineRead::Line, "uci\n".into()));
        assert_eq!(read(&mut input, &mut buf), (LineRead::Line, "last".into()));
        assert_eq!(read(&mut input, &mut buf), (LineRead::End, String::new()));
        // A line of exactly the cap is whole.
        let mut input = BufReader::with_capacity(3, "0123456789\n".as_bytes());
        assert_eq!(
            read(&mut input, &mut buf),
            (LineRead::Line, "0123456789\n".into())
        );
    }
}
