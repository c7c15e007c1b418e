//! Quoting what a user wrote in an error message: a long text is cut to a short prefix,
//! so an error about a 10 MB token is one short line.

use std::borrow::Cow;

/// Texts up to this many characters are quoted whole: any position text of the largest
/// board, and an engine's error line, fit.
const LIMIT: usize = 100;

/// `text` whole when short, else its first characters and how long it was.
pub fn excerpt(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(LIMIT) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let (cut, _) = text
                .char_indices()
                .nth(LIMIT - 8)
                .expect("longer than the cut");
            Cow::Owned(format!("{}... ({} bytes)", &text[..cut], text.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut() {
        assert_eq!(excerpt("b1-b3"), "b1-b3");
        let long = "x".repeat(10_000_000);
        let quoted = excerpt(&long);
        assert!(quoted.len() < 120, "{quoted}");
        assert!(quoted.ends_with("(10000000 bytes)"));
        // The 8x8 start, a rank longer: quoted whole.
        let position = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1/8 b";
        assert_eq!(excerpt(position), position);
        let wide = "é".repeat(200);
        assert!(excerpt(&wide).starts_with("éé"));
    }
}
