//! Every command and response prints to a line that reads back as itself, and no line,
//! however malformed, makes the parsers panic.

use loa_engine::Score;
use loa_ugi::{Command, Go, InfoLine, OptionDecl, OptionKind, Query, Response, Start};
use proptest::prelude::*;
use std::time::Duration;

/// A word as a line holds it: no white space, and not a keyword of the line around it.
fn word(excluded: &'static [&'static str]) -> impl Strategy<Value = String> {
    "[!-~]{1,8}".prop_filter("a keyword", move |w| {
        !excluded.iter().any(|k| w.eq_ignore_ascii_case(k))
    })
}

fn words(excluded: &'static [&'static str], n: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(word(excluded), 1..=n)
}

fn ms() -> impl Strategy<Value = Duration> {
    (0u64..(1 << 40)).prop_map(Duration::from_millis)
}

fn go() -> impl Strategy<Value = Go> {
    (
        [prop::option::of(ms()), prop::option::of(ms())],
        [prop::option::of(ms()), prop::option::of(ms())],
        prop::option::of(any::<u32>()),
        prop::option::of(ms()),
        prop::option::of(1u32..=127),
        prop::option::of(1u64..),
        any::<bool>(),
    )
        .prop_map(
            |(time, increment, moves_to_go, move_time, depth, nodes, infinite)| Go {
                time,
                increment,
                moves_to_go,
                move_time,
                depth,
                nodes,
                infinite,
            },
        )
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Ugi),
        Just(Command::Uci),
        Just(Command::IsReady),
        Just(Command::Stop),
        Just(Command::Quit),
        Just(Command::ValidMoves),
        Just(Command::Display),
        Just(Command::Eval),
        any::<bool>().prop_map(|uci| Command::NewGame { uci }),
        (words(&["value"], 3), prop::option::of(words(&[], 3))).prop_map(|(name, value)| {
            Command::SetOption {
                name: name.join(" "),
                value: value.map(|v| v.join(" ")),
            }
        }),
        (
            prop::option::of(prop::collection::vec(word(&["moves"]), 0..5)),
            prop::collection::vec(word(&[]), 0..6)
        )
            .prop_map(|(fen, moves)| Command::Position {
                start: match fen {
                    None => Start::StartPos,
                    Some(fields) => Start::Fen(fields.join(" ")),
                },
                moves,
            }),
        go().prop_map(Command::Go),
        prop_oneof![
            Just(Query::GameOver),
            Just(Query::P1Turn),
            Just(Query::Result)
        ]
        .prop_map(Command::Query),
        (0u32..=64).prop_map(Command::Perft),
    ]
}

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![
        any::<i32>().prop_map(Score::Cp),
        any::<i32>().prop_map(Score::Mate)
    ]
}

fn info() -> impl Strategy<Value = InfoLine> {
    (
        (
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u32>()),
            prop::option::of(score()),
        ),
        (
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(ms()),
            prop::option::of(any::<u32>()),
            prop::collection::vec(word(&[]), 0..6),
        ),
    )
        .prop_map(
            |((depth, seldepth, multipv, score), (nodes, nps, time, hashfull, pv))| InfoLine {
                depth,
                seldepth,
                multipv,
                score,
                nodes,
                nps,
                time,
                hashfull,
                pv,
            },
        )
}

const DECL_WORDS: &[&str] = &["name", "type", "default", "min", "max", "var"];

fn option_decl() -> impl Strategy<Value = OptionDecl> {
    let kind = prop_oneof![
        (any::<i64>(), any::<i64>(), any::<i64>())
            .prop_map(|(default, min, max)| OptionKind::Spin { default, min, max }),
        (
            word(DECL_WORDS),
            prop::collection::vec(word(DECL_WORDS), 0..4)
        )
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        word(DECL_WORDS).prop_map(|default| OptionKind::String { default }),
        Just(OptionKind::Button),
    ];
    (words(DECL_WORDS, 3), kind).prop_map(|(name, kind)| OptionDecl {
        name: name.join(" "),
        kind,
    })
}

const RESPONSE_WORDS: &[&str] = &[
    "id", "option", "ugiok", "uciok", "readyok", "bestmove", "info", "response",
];

fn response() -> impl Strategy<Value = Response> {
    prop_oneof![
        words(&[], 4).prop_map(|w| Response::IdName(w.join(" "))),
        words(&[], 4).prop_map(|w| Response::IdAuthor(w.join(" "))),
        option_decl().prop_map(Response::Option),
        Just(Response::UgiOk),
        Just(Response::UciOk),
        Just(Response::ReadyOk),
        prop::option::of(word(&["(none)"])).prop_map(Response::BestMove),
        info().prop_map(Response::Info),
        words(&[], 5).prop_map(|w| Response::InfoString(w.join(" "))),
        words(&[], 3).prop_map(|w| Response::Answer(w.join(" "))),
        (word(RESPONSE_WORDS), prop::collection::vec(word(&[]), 0..4)).prop_map(|(first, rest)| {
            let mut line = vec![first];
            line.extend(rest);
            Response::Text(line.join(" "))
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn commands_read_back_as_printed(command in command()) {
        let line = command.to_string();
        prop_assert_eq!(line.parse::<Command>(), Ok(command), "{}", line);
    }

    #[test]
    fn responses_read_back_as_printed(response in response()) {
        let line = response.to_string();
        prop_assert_eq!(line.parse::<Response>(), Ok(response), "{}", line);
    }

    #[test]
    fn no_line_makes_the_parsers_panic(line in "\\PC{0,80}") {
        let _ = line.parse::<Command>();
        let _ = line.parse::<Response>();
    }

    #[test]
    fn near_misses_make_no_panic_either(
        first in prop_oneof![Just("go"), Just("position"), Just("setoption"), Just("option"),
                             Just("info"), Just("perft"), Just("query"), Just("bestmove")],
        rest in prop::collection::vec(
            prop_oneof![Just("name".to_string()), Just("value".to_string()),
                        Just("type".to_string()), Just("spin".to_string()),
                        Just("score".to_string()), Just("cp".to_string()),
                        Just("moves".to_string()), Just("fen".to_string()),
                        Just("depth".to_string()), Just("-1".to_string()),
                        "[0-9]{1,25}", "\\PC{0,6}"],
            0..10),
    ) {
        let line = format!("{first} {}", rest.join(" "));
        let _ = line.parse::<Command>();
        let _ = line.parse::<Response>();
    }
}
