//! Reading the other side's lines with a cap: a broken peer that writes without end (or
//! a gigabyte before its newline) costs at most [`MAX_LINE`] bytes of memory.

use std::io::{BufRead, ErrorKind};

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
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if buf.is_empty() {
                LineRead::End
            } else {
                LineRead::Line
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let content = newline.unwrap_or(available.len());
        let room = max - buf.len();
        if content > room {
            buf.extend_from_slice(&available[..room]);
            input.consume(room);
            return Ok(LineRead::TooLong);
        }
        let taken = newline.map_or(content, |at| at + 1);
        buf.extend_from_slice(&available[..taken]);
        input.consume(taken);
        if newline.is_some() {
            return Ok(LineRead::Line);
        }
    }
}

/// Passes over the rest of a line, up to and with its newline, keeping none of it.
pub fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let all = available.len();
                input.consume(all);
            }
        }
    }
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
