//! The e-mails' subjects and text: plain text, short lines, every link whole on a line
//! of its own. No I/O: the callers fill in what the e-mails tell.

/// A player's move in a correspondence game, as its e-mails tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNotice {
    /// The name of the player it is written to, and of their opponent.
    pub player: String,
    pub opponent: String,
    /// `Black` or `White`: the side the player has.
    pub side: &'static str,
    /// The opponent's last move (`12. b1-d3`), if there was one.
    pub last_move: Option<String>,
    /// The board as text.
    pub diagram: String,
    /// The time the player has left for this move.
    pub time_left_ms: Option<u64>,
    /// How much longer the player's vacation holds the clock of this move.
    pub paused_for_ms: Option<u64>,
    /// The game's page.
    pub link: String,
    /// Whether a reply plays a move.
    pub by_reply: bool,
    /// One of the player's legal moves, to show how a reply writes one.
    pub example_move: Option<String>,
}

/// A game waiting for a player, as the daily digest lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitingGame {
    pub opponent: String,
    pub time_left_ms: Option<u64>,
    pub link: String,
}

/// An e-mail's subject and text.
pub type Text = (String, String);

pub fn verification(name: &str, address: &str, link: &str) -> Text {
    (
        "loa: verify your e-mail address".into(),
        format!(
            "Hello {name},\n\n\
             Open this link to make {address}\n\
             the address of your account on loa:\n\n\
             {link}\n\n\
             The link works for 7 days. Until the address is verified, loa sends it\n\
             nothing else. If you did not ask for this, ignore this e-mail.\n"
        ),
    )
}

/// A link that sets a new password for the account `name`, asked for by someone who
/// gave its address (the person, we hope).
pub fn password_reset(name: &str, link: &str) -> Text {
    (
        "Reset your loa password".into(),
        format!(
            "Hello {name},\n\n\
             Someone asked to reset the password of your account {name} on loa.\n\
             To choose a new password, open this link:\n\n\
             {link}\n\n\
             The link works for an hour, and once. A new password signs you out\n\
             everywhere else and revokes your API tokens.\n\n\
             If you did not ask for this, ignore this e-mail: nothing has changed,\n\
             and your password stays as it is.\n"
        ),
    )
}

/// A change to how one gets into an account, told to its verified address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecurityChange<'a> {
    Password,
    /// The address changed to this one, or was removed.
    Address(Option<&'a str>),
}

/// The account `name`'s password or address changed: what, and what to do if it was not
/// its owner.
pub fn security_notice(name: &str, change: SecurityChange<'_>, site: &str) -> Text {
    let (subject, what) = match change {
        SecurityChange::Password => (
            "Your loa password was changed",
            "The password of your account was changed, and every other session\n\
             and API token of it ended."
                .to_string(),
        ),
        SecurityChange::Address(Some(new)) => (
            "Your loa e-mail address was changed",
            format!(
                "The e-mail address of your account was changed to\n{new}.\n\
                 loa writes to this address no more."
            ),
        ),
        SecurityChange::Address(None) => (
            "Your loa e-mail address was removed",
            "The e-mail address of your account was removed: loa writes to this\n\
             address no more."
                .to_string(),
        ),
    };
    (
        subject.into(),
        format!(
            "Hello {name},\n\n\
             {what}\n\n\
             If it was you, there is nothing to do. If it was not, someone has your\n\
             password: choose a new one at once on your account's page,\n\n\
             {site}/account\n\n\
             or, signed out, with \"Forgot your password?\" on {site}\n"
        ),
    )
}

/// It is the player's move: the board, the last move, the time left, and how to answer.
pub fn your_move(notice: &MoveNotice) -> Text {
    (
        format!("loa: your move against {}", notice.opponent),
        format!(
            "Hello {},\n\nIt is your move ({}) against {}.\n\n{}",
            notice.player,
            notice.side,
            notice.opponent,
            position_and_answer(notice)
        ),
    )
}

/// 24 hours or less are left for the player's move.
pub fn reminder(notice: &MoveNotice) -> Text {
    (
        format!(
            "loa: 24 hours left for your move against {}",
            notice.opponent
        ),
        format!(
            "Hello {},\n\nYour move ({}) against {} is still to play, and the time\n\
             for it is nearly up: when it runs out, the game is lost on time.\n\n{}",
            notice.player,
            notice.side,
            notice.opponent,
            position_and_answer(notice)
        ),
    )
}

/// A reply that played nothing: why, and the legal moves.
pub fn refusal(notice: &MoveNotice, reason: &str, legal_moves: &[String]) -> Text {
    let legal = if legal_moves.is_empty() {
        String::new()
    } else {
        format!(
            "The legal moves are:\n{}\n\n",
            wrap(&legal_moves.join(" "), 72)
        )
    };
    (
        format!("loa: your reply against {} played nothing", notice.opponent),
        format!(
            "Hello {},\n\nYour reply played nothing: {reason}.\n\n{legal}{}",
            notice.player,
            position_and_answer(notice)
        ),
    )
}

/// The games waiting for the player, once a day.
pub fn digest(name: &str, games: &[WaitingGame]) -> Text {
    let count = loa_core::counted(games.len(), "game");
    let mut body = format!("Hello {name},\n\n{count} waiting for your move:\n\n");
    for game in games {
        body.push_str(&format!("- against {}", game.opponent));
        if let Some(left) = game.time_left_ms {
            body.push_str(&format!(", {} left", duration(left)));
        }
        body.push_str(&format!("\n  {}\n", game.link));
    }
    (format!("loa: {count} waiting for your move"), body)
}

/// The end of every e-mail: where the settings are, and the link that stops them.
pub fn footer(settings: &str, unsubscribe: &str) -> String {
    format!(
        "\n-- \nloa e-mails you when it is your move in a correspondence game.\n\
         Your settings:\n{settings}\n\
         Stop these e-mails:\n{unsubscribe}\n"
    )
}

fn position_and_answer(notice: &MoveNotice) -> String {
    let mut text = String::new();
    if let Some(last) = &notice.last_move {
        text.push_str(&format!("{} played {last}.\n\n", notice.opponent));
    }
    // Without the spaces ending its lines, the e-mail goes as plain 7-bit text.
    for line in notice.diagram.lines() {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text.push('\n');
    match (notice.time_left_ms, notice.paused_for_ms) {
        (Some(left), Some(paused)) => text.push_str(&format!(
            "Your vacation holds this game's clock for {} more; after it, you\n\
             have {} for this move.\n\n",
            duration(paused),
            duration(left)
        )),
        (Some(left), None) => {
            text.push_str(&format!("You have {} for this move.\n\n", duration(left)));
        }
        (None, _) => {}
    }
    text.push_str(&format!("The game: {}\n", notice.link));
    if notice.by_reply {
        let example = match &notice.example_move {
            Some(mv) => format!("(for example {mv}), "),
            None => String::new(),
        };
        text.push_str(&format!(
            "\nTo play, reply to this e-mail with your move on the first line\n\
             {example}or resign, or draw (to offer one, or to accept your\n\
             opponent's offer).\n"
        ));
    }
    text
}

/// `2 days 3 hours`, `5 hours 10 minutes`, `40 minutes`: the two largest units, of the
/// time rounded up to the minute (3 days less the moment it took to write is 3 days).
pub fn duration(ms: u64) -> String {
    let minutes = ms.div_ceil(60_000);
    let (days, hours, minutes) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let part = |n: u64, unit: &str| loa_core::counted(usize::try_from(n).unwrap_or(0), unit);
    match (days, hours) {
        (0, 0) => part(minutes, "minute"),
        (0, h) if minutes == 0 => part(h, "hour"),
        (0, h) => format!("{} {}", part(h, "hour"), part(minutes, "minute")),
        (d, 0) => part(d, "day"),
        (d, h) => format!("{} {}", part(d, "day"), part(h, "hour")),
    }
}

/// Words on lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice() -> MoveNotice {
        MoveNotice {
            player: "Ann".into(),
            opponent: "Bob".into(),
            side: "White",
            last_move: Some("1. b1-b3".into()),
            diagram: " 8  .  b  . \n    a  b  c \n".into(),
            time_left_ms: Some(3 * 24 * 3600 * 1000),
            paused_for_ms: None,
            link: "https://loa.example/game/abc".into(),
            by_reply: true,
            example_move: Some("h2-f4".into()),
        }
    }

    #[test]
    fn the_your_move_email_says_who_what_how_long_and_where() {
        let (subject, body) = your_move(&notice());
        assert_eq!(subject, "loa: your move against Bob");
        for said in [
            "It is your move (White) against Bob.",
            "Bob played 1. b1-b3.",
            " 8  .  b  .\n    a  b  c\n\n",
            "You have 3 days for this move.",
            "The game: https://loa.example/game/abc\n",
            "reply to this e-mail with your move on the first line\n(for example h2-f4), or",
        ] {
            assert!(body.contains(said), "{said:?} not in:\n{body}");
        }
        // Short lines without trailing spaces: sent as 7-bit text, links whole.
        let full = body
            + &footer(
                "https://loa.example/account",
                "https://loa.example/mail/unsubscribe/abcdefghijkmnpqrstuvwxyz23",
            );
        for line in full.lines() {
            assert!(line.len() < 75, "{line:?}");
            assert!(line == "-- " || !line.ends_with(' '), "{line:?}");
        }
        let quiet = MoveNotice {
            by_reply: false,
            ..notice()
        };
        assert!(!your_move(&quiet).1.contains("reply to this e-mail"));
        // On vacation: the clock waits, and the e-mail says for how long.
        let away = MoveNotice {
            paused_for_ms: Some(2 * 24 * 3600 * 1000 + 5 * 3600 * 1000),
            ..notice()
        };
        let body = your_move(&away).1;
        assert!(
            body.contains(
                "Your vacation holds this game's clock for 2 days 5 hours more; after it, you\n\
                 have 3 days for this move."
            ),
            "{body}"
        );
        assert!(!body.contains("You have"), "{body}");
    }

    #[test]
    fn a_security_notice_says_what_changed_and_what_to_do() {
        let site = "https://loa.example";
        for (change, subject, said) in [
            (
                SecurityChange::Password,
                "Your loa password was changed",
                "password of your",
            ),
            (
                SecurityChange::Address(Some("ann@new.example")),
                "Your loa e-mail address was changed",
                "changed to\nann@new.example.",
            ),
            (
                SecurityChange::Address(None),
                "Your loa e-mail address was removed",
                "removed",
            ),
        ] {
            let (got, body) = security_notice("Ann", change, site);
            assert_eq!(got, subject);
            assert!(body.starts_with("Hello Ann,\n\n"), "{body}");
            assert!(body.contains(said), "{body}");
            assert!(body.contains("\nhttps://loa.example/account\n"), "{body}");
            assert!(body.lines().all(|line| line.len() < 75), "{body}");
        }
    }

    #[test]
    fn a_refusal_gives_the_reason_and_the_legal_moves_wrapped() {
        let moves: Vec<String> = (0..30).map(|i| format!("a{}-b{}", i % 8, i % 7)).collect();
        let (subject, body) = refusal(&notice(), "'z9' is not a move", &moves);
        assert_eq!(subject, "loa: your reply against Bob played nothing");
        assert!(body.contains("Your reply played nothing: 'z9' is not a move."));
        assert!(body.contains("The legal moves are:\na0-b0 a1-b1"));
        assert!(body.lines().all(|line| line.len() <= 76), "{body}");
    }

    #[test]
    fn durations_name_their_two_largest_units() {
        let minute = 60_000;
        assert_eq!(duration(0), "0 minutes");
        assert_eq!(duration(minute), "1 minute");
        assert_eq!(duration(3 * 24 * 60 * minute - 150), "3 days");
        assert_eq!(duration(60 * minute), "1 hour");
        assert_eq!(duration(61 * minute), "1 hour 1 minute");
        assert_eq!(duration(24 * 60 * minute), "1 day");
        assert_eq!(
            duration((2 * 24 * 60 + 3 * 60 + 59) * minute),
            "2 days 3 hours"
        );
        assert_eq!(duration(59 * minute + 1), "1 hour");
    }

    #[test]
    fn the_digest_lists_each_game_with_its_link() {
        let games = [
            WaitingGame {
                opponent: "Bob".into(),
                time_left_ms: Some(5 * 3600 * 1000),
                link: "https://loa.example/game/a".into(),
            },
            WaitingGame {
                opponent: "Cy".into(),
                time_left_ms: None,
                link: "https://loa.example/game/b".into(),
            },
        ];
        let (subject, body) = digest("Ann", &games);
        assert_eq!(subject, "loa: 2 games waiting for your move");
        assert!(body
            .contains("- against Bob, 5 hours left\n  https://loa.example/game/a\n- against Cy\n"));
    }

    #[test]
    fn a_reset_names_the_account_carries_its_link_and_says_to_ignore_it_if_not_asked() {
        let (subject, body) = password_reset("Ann", "https://x/password-reset/s");
        assert_eq!(subject, "Reset your loa password");
        assert!(body.starts_with("Hello Ann,\n\n"), "{body}");
        assert!(body.contains("your account Ann on loa"), "{body}");
        assert!(body.contains("\nhttps://x/password-reset/s\n"), "{body}");
        assert!(body.contains("for an hour, and once"), "{body}");
        assert!(
            body.contains("If you did not ask for this, ignore this e-mail: nothing has changed"),
            "{body}"
        );
        assert!(body.lines().all(|line| line.len() <= 72), "{body}");
    }

    #[test]
    fn the_verification_and_the_footer_carry_their_links() {
        let (_, body) = verification("Ann", "ann@example.org", "https://x/mail/verify/s");
        assert!(body.contains("\nhttps://x/mail/verify/s\n"));
        assert!(body.contains("to make ann@example.org\n"));
        let footer = footer("https://x/account", "https://x/mail/unsubscribe/u");
        assert!(footer.starts_with("\n-- \n"));
        assert!(footer.contains("Stop these e-mails:\nhttps://x/mail/unsubscribe/u\n"));
    }
}
