//! What a reply to a your-move e-mail says, and which reply address it was sent to. As in
//! postal play, the first line is the move; what follows (quoted text, a signature) is
//! ignored.

/// What the first line of a reply asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move as written (`b1-d3`, `b1d3`, `b1xd3`): the game reads it.
    Move(String),
    Resign,
    /// Offers a draw, or accepts the opponent's offer.
    Draw,
    /// Nothing before the quoted text.
    Empty,
}

/// The longest first line read as a move: anything longer is not one.
const MAX_LINE: usize = 100;

/// The command a reply's text holds: its first line that says something, before any
/// quoted text or signature.
pub fn command(text: &str) -> Command {
    for line in text.lines() {
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if line.is_empty() {
            continue;
        }
        if is_quote_or_signature(line) {
            return Command::Empty;
        }
        let words: String = line
            .chars()
            .take(MAX_LINE)
            .collect::<String>()
            .trim_end_matches(['.', '!'])
            .to_string();
        if words.is_empty() {
            return Command::Empty;
        }
        return match words.to_ascii_lowercase().as_str() {
            "resign" | "i resign" => Command::Resign,
            "draw" | "offer draw" | "accept draw" => Command::Draw,
            // Moves are written in lower case: `B1-D3` is read as `b1-d3`.
            _ => Command::Move(words.to_ascii_lowercase()),
        };
    }
    Command::Empty
}

/// Where a reply's own words end: a quote, the line that introduces one, a signature.
fn is_quote_or_signature(line: &str) -> bool {
    line.starts_with('>')
        || line == "--"
        || line.starts_with("-----Original Message")
        || (line.starts_with("On ") && line.ends_with("wrote:"))
}

/// The secret of a reply address (`loa+secret@loa.example` for the local part `loa`),
/// if `recipient` is one: the local part is compared without regard to case.
pub fn secret_of(recipient: &str, local_part: &str) -> Option<String> {
    let recipient = recipient
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    let (local, _domain) = recipient.rsplit_once('@')?;
    let (base, secret) = local.split_once('+')?;
    if !base.eq_ignore_ascii_case(local_part) {
        return None;
    }
    let secret = secret.to_ascii_lowercase();
    super::is_secret(&secret).then_some(secret)
}

/// The text of a message as received (headers and MIME body): its first text part, or
/// its HTML made text. `None` when it cannot be read as a message.
pub fn text_of(message: &[u8]) -> Option<String> {
    let parsed = mail_parser::MessageParser::default().parse(message)?;
    parsed.body_text(0).map(|text| text.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever arrives, reading it ends with a command or nothing, never a panic,
        /// and a move is never longer than a line is read.
        #[test]
        fn any_message_is_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
            if let Some(text) = text_of(&bytes) {
                if let Command::Move(words) = command(&text) {
                    prop_assert!(words.chars().count() <= MAX_LINE);
                }
            }
            let _ = secret_of(&String::from_utf8_lossy(&bytes), "loa");
        }

        #[test]
        fn any_text_gives_a_bounded_command(text in "\\PC{0,300}") {
            if let Command::Move(words) = command(&text) {
                prop_assert!(!words.is_empty() && words.chars().count() <= MAX_LINE);
            }
        }
    }

    #[test]
    fn the_first_line_is_the_move_and_the_rest_is_ignored() {
        let reply = "b1-d3\n\nthanks for the game\n-- \nAnn\n";
        assert_eq!(command(reply), Command::Move("b1-d3".into()));
        assert_eq!(
            command("\n\n  B1D3.  \r\n> It is your move"),
            Command::Move("b1d3".into())
        );
        assert_eq!(command("Resign\n"), Command::Resign);
        assert_eq!(command("draw!\n"), Command::Draw);
        assert_eq!(command("accept draw"), Command::Draw);
    }

    #[test]
    fn a_reply_with_nothing_before_the_quote_is_empty() {
        assert_eq!(command(""), Command::Empty);
        assert_eq!(command("\n\n> b1-d3\n"), Command::Empty);
        assert_eq!(
            command("On Tue, 3 Mar 2026, loa wrote:\n> It is your move"),
            Command::Empty
        );
        assert_eq!(command("--\nAnn"), Command::Empty);
        assert_eq!(command("...\nb1-d3"), Command::Empty);
    }

    #[test]
    fn a_long_first_line_is_cut_and_read_as_a_move() {
        let long = "x".repeat(10_000);
        assert_eq!(command(&long), Command::Move("x".repeat(MAX_LINE)));
    }

    #[test]
    fn reply_addresses_give_their_secret_and_nothing_else_does() {
        let secret = "abcdefghijkmnpqrstuvwxyz23";
        let address = format!("loa+{secret}@loa.example");
        assert_eq!(secret_of(&address, "loa").as_deref(), Some(secret));
        let shouted = format!("<LOA+{}@LOA.EXAMPLE>", secret.to_uppercase());
        assert_eq!(secret_of(&shouted, "loa").as_deref(), Some(secret));
        for other in [
            "loa@loa.example".to_string(),
            format!("other+{secret}@loa.example"),
            "loa+short@loa.example".into(),
            format!("loa+{secret}"),
            String::new(),
        ] {
            assert_eq!(secret_of(&other, "loa"), None, "{other}");
        }
    }

    #[test]
    fn the_text_of_a_mime_message_is_its_plain_part() {
        let message = b"From: ann@example.org\r\nTo: loa+x@loa.example\r\nSubject: Re: your move\r\n\
            MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b\"\r\n\r\n\
            --b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
            b1-d3=0A=0A> It is your move\r\n\
            --b\r\nContent-Type: text/html\r\n\r\n<p>b1-d3</p>\r\n--b--\r\n";
        let text = text_of(message).unwrap();
        assert_eq!(command(&text), Command::Move("b1-d3".into()));
        // As a webmail sends a reply with no plain part.
        let html = b"Content-Type: text/html\r\n\r\n<div dir=\"ltr\">resign</div><br>\
            <div class=\"quote\">On Thu, loa wrote:<br><blockquote>old</blockquote></div>\r\n";
        assert_eq!(command(&text_of(html).unwrap()), Command::Resign);
    }
}
