//! Whole sessions over memory: ordered answers, and random command lines that never
//! make it panic.

use super::*;
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The session's output, kept in memory.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs a whole session over `input`, returning what it wrote.
fn session(input: &[u8]) -> String {
    let sink = Sink::default();
    Session::new(Box::new(sink.clone())).serve(input);
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes).expect("the output is UTF-8")
}

#[test]
fn a_session_over_memory_answers_in_order() {
    let text = session(b"ugi\nposition startpos moves b1d3\nisready\ngo depth 2\nquit\n");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last().map(|l| &l[..9]), Some("bestmove "));
    assert!(lines.contains(&"ugiok"), "{text}");
    assert!(lines.contains(&"readyok"), "{text}");
}

#[test]
fn a_line_beyond_the_cap_is_refused_and_the_next_one_answered() {
    let mut input = b"position startpos moves ".to_vec();
    input.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE));
    input.extend_from_slice(b"\nisready\n");
    let text = session(&input);
    assert_eq!(
        text,
        "info string error: a line longer than 1048576 bytes (1 MB) is ignored; it starts \
         'position startpos moves xxxxxxxx'\nreadyok\n"
    );
}

/// Arguments that are sometimes right and often wrong.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("startpos".to_string()),
        Just("fen".to_string()),
        Just("moves".to_string()),
        Just("name".to_string()),
        Just("value".to_string()),
        Just("b1d3".to_string()),
        Just("a2c2".to_string()),
        Just("0000".to_string()),
        Just("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1".to_string()),
        Just("1bbbb1/w4w/w4w/w4w/w4w/1bbbb1".to_string()),
        Just("1pppppp1/P6P/P6P/P6P/P6P/P6P/P6P/1pppppp1".to_string()),
        Just("-".to_string()),
        Just("linesofaction".to_string()),
        Just("UCI_Variant".to_string()),
        Just("b".to_string()),
        Just("w".to_string()),
        Just("Hash".to_string()),
        Just("Threads".to_string()),
        Just("MoveOverhead".to_string()),
        Just("SimultaneousConnection".to_string()),
        Just("mover-wins".to_string()),
        Just("depth".to_string()),
        Just("nodes".to_string()),
        Just("movetime".to_string()),
        Just("p1time".to_string()),
        Just("wtime".to_string()),
        Just("infinite".to_string()),
        // Numbers small enough that a table or a search stays small.
        (0u64..40).prop_map(|n| n.to_string()),
        Just("-1".to_string()),
        Just("18446744073709551616".to_string()),
        "[a-h][1-8][a-h][1-8]",
        "\\PC{0,12}",
    ]
}

fn command_line() -> impl Strategy<Value = String> {
    let command = prop_oneof![
        Just("ugi"),
        Just("uci"),
        Just("isready"),
        Just("uginewgame"),
        Just("setoption"),
        Just("position"),
        Just("go"),
        Just("stop"),
        Just("query"),
        Just("validmoves"),
        Just("perft"),
        Just("d"),
        Just("eval"),
        Just("gameover"),
    ];
    prop_oneof![
    8 => (command, proptest::collection::vec(word(), 0..8))
        .prop_map(|(c, args)| format!("{c} {}", args.join(" "))),
    1 => "\\PC{0,40}",
    ]
}

static PANICS: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Random command lines: answers for each, a search thread that never panics, and
    /// short lines.
    #[test]
    fn random_sessions_never_panic(lines in proptest::collection::vec(command_line(), 0..16)) {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        hook(info);
    }));
    let input = lines.join("\n");
    let text = session(input.as_bytes());
    let _ = std::panic::take_hook();
    prop_assert_eq!(PANICS.load(Ordering::SeqCst), 0);
    for line in text.lines() {
        prop_assert!(line.len() < 4_096, "{}", line.len());
    }
    }
}
