//! Game records: SGF and PGN written and read back over many generated games, records in
//! other programs' styles, the sample files in `tests/data/records/`, and malformed
//! records whose errors must say where the record is wrong.

mod common {
    pub mod records;
}

use common::records::read_records;
use loa_core::record::{
    read_games, Format, GameError, GameRecord, GameSplitter, GameText, RecordError, RecordResult,
    ReplayError, ResultCheck,
};
use loa_core::{
    BoardSize, Color, Game, GameState, Move, Position, RuleSet, Variant, VariantPosition,
};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

fn pos(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("position text '{text}': {e}"))
}

/// Black to move; White's two pieces sit in corners caged by Black's, so White must pass
/// after any Black move that leaves the cages alone.
const CAGE: &str = "6bw/6bb/8/3b4/8/8/bb6/wb6 b";

/// Every variant's start on every board, positions of each variant a few moves in (which
/// records carry as position text), and positions with forced passes.
fn starts() -> Vec<VariantPosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut starts = Vec::new();
    for variant in Variant::ALL {
        for &size in variant.sizes() {
            let start = variant.start(size).unwrap();
            starts.push(start);
            let mut later = start;
            for _ in 0..3 {
                let moves = later.moves();
                later.play(moves[rng.random_range(0..moves.len())]);
            }
            starts.push(later);
        }
    }
    for text in [
        CAGE,
        "6bw/6bb/8/3b4/8/8/bb6/wb6 w",
        "8/2b5/1w1wb3/8/1bww4/1ww1b3/2w2b2/8 w",
    ] {
        starts.push(pos(text).into());
    }
    starts
}

/// A random game from `start`: random legal moves until the game ends or `max` moves.
fn playout(
    start: VariantPosition,
    rules: RuleSet,
    max: usize,
    rng: &mut ChaCha8Rng,
) -> Game<VariantPosition> {
    let mut game = Game::new(start, rules);
    while !game.is_over() && game.ply() < max {
        let moves = game.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        game.play(mv).unwrap();
    }
    game
}

/// A record of `game` with names and tags that need escaping.
fn record_of(game: &Game<VariantPosition>, i: usize, rng: &mut ChaCha8Rng) -> GameRecord {
    let mut record = GameRecord::from_game(game);
    let names = [
        "Fred \"the\" [Kok]",
        "Back\\slash",
        "Ünïcödé ]",
        "plain",
        "a;b {c} (d)",
    ];
    if rng.random_range(0..4) > 0 {
        record.black = Some(names[rng.random_range(0..names.len())].to_string());
        record.white = Some(names[rng.random_range(0..names.len())].to_string());
    }
    if rng.random_range(0..2) == 0 {
        record.event = Some(format!("Generated game {i}"));
        record.date = Some("2026.11.22".to_string());
    }
    match rng.random_range(0..3) {
        0 => record.time_control = Some("10+0.1".to_string()),
        1 => record.time_control = Some("40/60".to_string()),
        _ => {}
    }
    if rng.random_range(0..3) == 0 {
        record.extra = vec![
            ("Site".to_string(), "Maastricht".to_string()),
            ("Round".to_string(), format!("{i}")),
            ("WhiteElo".to_string(), "1800".to_string()),
        ];
    }
    if !game.is_over() {
        let (result, why) = [
            (RecordResult::Unknown, None),
            (RecordResult::WhiteWins, Some("time forfeit")),
            (RecordResult::BlackWins, Some("resignation")),
            (RecordResult::Draw, Some("adjudication")),
            (RecordResult::BlackWins, Some("illegal move d1-d4")),
        ][rng.random_range(0..5)];
        record.result = result;
        record.termination = why.map(str::to_string);
    }
    record
}

/// SGF writes dates `YYYY-MM-DD`; everything else must come back as it was.
fn assert_same_but_date(read: &GameRecord, written: &GameRecord, text: &str) {
    let mut expected = written.clone();
    expected.date = written.date.as_ref().map(|d| d.replace('.', "-"));
    assert_eq!(read, &expected, "read back from\n{text}");
}

fn check_replay(record: &GameRecord, game: &Game<VariantPosition>) {
    let replay = record.check().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replay.game.position(), game.position());
    assert_eq!(replay.game.outcome(), game.outcome());
    match replay.result {
        ResultCheck::Agrees(o) => assert_eq!(Some(o), game.outcome()),
        ResultCheck::Unfinished | ResultCheck::OffTheBoard(_) => assert!(!game.is_over()),
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(replay.result.warning(), None);
}

#[test]
fn round_trips_over_many_generated_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x1234_5678_9abc_def1);
    let mut all_pgn = String::new();
    let mut all_sgf = String::new();
    let mut records = Vec::new();
    let mut passes = 0;
    let mut over = 0;
    for (s, start) in starts().into_iter().enumerate() {
        for rules in [RuleSet::Draw, RuleSet::MoverWins] {
            for g in 0..12 {
                let max = if g % 3 == 0 { 20 } else { 300 };
                let game = playout(start, rules, max, &mut rng);
                let record = record_of(&game, s * 100 + g, &mut rng);
                passes += record.moves.iter().filter(|m| m.is_pass()).count();
                over += usize::from(game.is_over());

                let text = record.to_pgn();
                let read = read_records(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(read, vec![record.clone()], "read back from\n{text}");
                check_replay(&read[0], &game);

                let text = record.to_sgf();
                let read = read_records(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(read.len(), 1);
                assert_same_but_date(&read[0], &record, &text);
                check_replay(&read[0], &game);

                // SGF to PGN gives the PGN date back.
                let again = read[0].to_pgn();
                assert_eq!(read_records(&again).unwrap(), vec![record.clone()]);

                all_pgn.push_str(&record.to_pgn());
                all_sgf.push_str(&record.to_sgf());
                records.push(record);
            }
        }
    }
    assert!(
        passes >= 10,
        "the caged starts give forced passes ({passes})"
    );
    assert!(over >= 50, "many games end on the board ({over})");

    // Whole files of games, through the format detection.
    let read = read_records(&all_pgn).unwrap();
    assert_eq!(read, records);
    let read = read_records(&all_sgf).unwrap();
    assert_eq!(read.len(), records.len());
    for (r, w) in read.iter().zip(&records) {
        assert_same_but_date(r, w, "the SGF collection");
    }
}

#[test]
fn written_forms_are_as_documented() {
    let mut game = Game::new(Position::startpos(), RuleSet::Draw);
    for m in ["b1-b3", "h4-f2", "d1xa4", "h2-e2"] {
        game.play_text(m).unwrap();
    }
    let mut record = GameRecord::from_game(&game);
    record.black = Some("Kok".to_string());
    record.white = Some("Heppell".to_string());
    record.date = Some("2026.11.22".to_string());
    record.event = Some("MSO".to_string());
    record.result = RecordResult::BlackWins;
    record.termination = Some("resignation".to_string());
    record.time_control = Some("10+0.1".to_string());

    let sgf = record.to_sgf();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        sgf.starts_with(&format!(
            "(;FF[4]GM[9]CA[UTF-8]AP[loa:{version}]SU[Standard]RU[draw]"
        )),
        "{sgf}"
    );
    for part in [
        "PB[Kok]",
        "PW[Heppell]",
        "DT[2026-11-22]",
        "EV[MSO]",
        "RE[B+R]",
        "TERMINATION[resignation]",
        "TM[10]",
        "OT[0.1 fischer]",
        ";B[b1-b3];W[h4-f2];B[d1:a4];W[h2-e2]\n)",
    ] {
        assert!(sgf.contains(part), "{part} in\n{sgf}");
    }

    let pgn = record.to_pgn();
    let expected = "[Event \"MSO\"]\n[Date \"2026.11.22\"]\n[Black \"Kok\"]\n[White \"Heppell\"]\n\
        [Result \"1-0\"]\n[Variant \"Standard\"]\n[Rules \"draw\"]\n[TimeControl \"10+0.1\"]\n\
        [Termination \"resignation\"]\n\n1. b1-b3 h4-f2 2. d1xa4 h2-e2 1-0\n\n";
    assert_eq!(pgn, expected);

    // Small boards and other starts.
    let six = GameRecord::new(
        Variant::ScrambledEggs.start(BoardSize::Six).unwrap(),
        RuleSet::MoverWins,
    );
    let sgf = six.to_sgf();
    assert!(
        sgf.contains("SU[Scrambled-eggs]SZ[6]RU[mover-wins]"),
        "{sgf}"
    );
    let pgn = six.to_pgn();
    assert!(pgn.contains("[Variant \"Scrambled Eggs\"]"), "{pgn}");
    assert!(
        pgn.contains("[SetUp \"1\"]\n[FEN \"1bwbw1/w4b/b4w/w4b/b4w/1wbwb1 b\"]"),
        "{pgn}"
    );
    let custom = GameRecord::new(pos("6bw/6bb/8/8/8/8/bb6/wb6 w"), RuleSet::Draw);
    let sgf = custom.to_sgf();
    assert!(
        sgf.contains("SU[Custom]\nAB[b1][a2][b2][g7][h7][g8]\nAW[a1][h8]PL[W]"),
        "{sgf}"
    );
    let pgn = custom.to_pgn();
    assert!(
        pgn.ends_with("[SetUp \"1\"]\n[FEN \"6bw/6bb/8/8/8/8/bb6/wb6 w\"]\n\n*\n\n"),
        "{pgn}"
    );
}

#[test]
fn long_games_wrap_at_80_columns() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let game = playout(Position::startpos().into(), RuleSet::Draw, 120, &mut rng);
    let record = GameRecord::from_game(&game);
    for text in [record.to_pgn(), record.to_sgf()] {
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(text.lines().count() > 5, "{text}");
    }
}

#[test]
fn forced_passes_are_written_and_read() {
    let start = pos(CAGE);
    let mut game = Game::new(start, RuleSet::Draw);
    for m in ["d5-d6", "pass", "d6-d7", "pass"] {
        game.play_text(m).unwrap();
    }
    let record = GameRecord::from_game(&game);
    let pgn = record.to_pgn();
    assert!(pgn.contains("1. d5-d6 pass 2. d6-d7 pass *"), "{pgn}");
    let sgf = record.to_sgf();
    assert!(sgf.contains(";B[d5-d6];W[pass];B[d6-d7];W[pass]"), "{sgf}");
    assert_eq!(read_records(&pgn).unwrap(), vec![record.clone()]);
    assert_eq!(read_records(&sgf).unwrap(), vec![record.clone()]);

    // A forced pass left out of the record is put back.
    let short = format!("[FEN \"{CAGE}\"]\n\n1. d5-d6 2. d6-d7 pass *\n");
    assert_eq!(read_records(&short).unwrap()[0].moves, record.moves);
    let short = "(;GM[9]SU[Custom]AB[g8][g7][h7][d5][a2][b2][b1]AW[h8][a1];B[d5-d6];B[d6-d7];W[])";
    assert_eq!(read_records(short).unwrap()[0].moves, record.moves);

    // A pass that is not forced is caught by the replay.
    let text = "1. pass *";
    let record = &read_records(text).unwrap()[0];
    let err = record.replay().unwrap_err().to_string();
    assert!(
        err.starts_with("move 1 (Black, ply 1) pass: pass is only legal"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// Other programs' styles
// ---------------------------------------------------------------------------------------

fn expert_moves() -> Vec<Move> {
    let mut game = Game::new(Position::startpos(), RuleSet::Draw);
    for m in ["b1-b3", "h4-f2", "d1xa4", "h2-e2"] {
        game.play_text(m).unwrap();
    }
    game.moves().collect()
}

#[test]
fn sgf_in_other_styles() {
    let text = "  (\n ; GM [9] FF[4]\n  SU[standard] PB [ Kok ] XY[kept]\n\
        ;B[B1-B3] ;W [h4-f2]C[a comment with \\] and \\\\]XX[ignored]\n\
        ;B[D1:A4++] ;W[h2-e2!]BL[120.5]) ";
    let records = read_records(text).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.moves, expert_moves());
    assert_eq!(r.black.as_deref(), Some("Kok"));
    assert_eq!(r.extra, vec![("XY".to_string(), "kept".to_string())]);
    assert_eq!(r.start, Position::startpos().into());

    // FF[3]-style long names, soft line breaks, no SU.
    let text = "(;GaMe[9]PlayerBlack[Fred \\\n Kok]AddWhite[a1]AddBlack[c3][h8]PL[W];W[a1-b1])";
    let r = &read_records(text).unwrap()[0];
    assert_eq!(r.black.as_deref(), Some("Fred  Kok"));
    assert_eq!(r.start, pos("7b/8/8/8/8/2b5/8/w7 w").into());
    assert_eq!(r.moves.len(), 1);

    // Variations: the main line is the first one at each fork; several games.
    let text = "(;GM[9];B[b1-b3](;W[h4-f2];B[d1:a4](;W[h2-e2])(;W[a2-c2]))(;W[a2-c2]))\n\
        garbage between games is skipped\n(;GM[9]RE[B+Time];B[c1-c3];W[resign])";
    let records = read_records(text).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].moves, expert_moves());
    assert_eq!(records[1].moves.len(), 1);
    assert_eq!(records[1].result, RecordResult::BlackWins);
    assert_eq!(
        records[1].termination.as_deref(),
        Some("time forfeit"),
        "RE's reason comes first"
    );
    let resigned = &read_records("(;GM[9];B[c1-c3];W[resign])").unwrap()[0];
    assert_eq!(resigned.result, RecordResult::BlackWins);
    assert_eq!(resigned.termination.as_deref(), Some("resignation"));
    for (re, result) in [
        ("B+", RecordResult::BlackWins),
        ("W+R", RecordResult::WhiteWins),
        ("0", RecordResult::Draw),
        ("Draw", RecordResult::Draw),
        ("?", RecordResult::Unknown),
        ("Void", RecordResult::Unknown),
    ] {
        let r = &read_records(&format!("(;GM[9]RE[{re}])")).unwrap()[0];
        assert_eq!(r.result, result, "RE[{re}]");
    }
}

#[test]
fn pgn_in_other_styles() {
    let text = "[Event \"x\"]\n[Black \"A\"] [White \"B\"]\n\n\
        ; a line comment\n\
        b1-b3 {no numbers} H4-F2 $14 D1:A4! (2. c1-c3 {a variation (skipped)} h2-e2) h2-e2?! *\n\n\
        1.b1-b3 1...h4-f2 2.d1-a4 h2-e2 *\n\
        1. b1-b3 h4-f2 2. d1xa4 h2-e2\n";
    let records = read_records(text).unwrap();
    assert_eq!(records.len(), 3);
    for r in &records {
        assert_eq!(r.moves, expert_moves());
        assert_eq!(r.result, RecordResult::Unknown);
    }
    assert_eq!(records[0].black.as_deref(), Some("A"));
    assert_eq!(records[1].black, None);

    // Results, Scrambled Eggs, rule sets, other tags kept in order.
    let text =
        "[Variant \"scrambled-eggs\"]\n[Rules \"Mover-Wins\"]\n[Site \"s\"]\n[PlyCount \"1\"]\n\
        [Result \"1/2-1/2\"]\n\n1. b8-b6 1/2-1/2\n";
    let r = &read_records(text).unwrap()[0];
    assert_eq!(
        r.start,
        Variant::ScrambledEggs.start(BoardSize::Eight).unwrap()
    );
    assert_eq!(r.rules, RuleSet::MoverWins);
    assert_eq!(r.result, RecordResult::Draw);
    assert_eq!(
        r.extra,
        vec![
            ("Site".to_string(), "s".to_string()),
            ("PlyCount".to_string(), "1".to_string())
        ]
    );
    // `*` after the moves leaves a known Result tag alone; a byte-order mark is skipped.
    let r = &read_records("\u{feff}[Result \"1-0\"]\n1. b1-b3 *").unwrap()[0];
    assert_eq!(r.result, RecordResult::BlackWins);
    // A result token without a Result tag.
    let r = &read_records("1. b1-b3 0-1").unwrap()[0];
    assert_eq!(r.result, RecordResult::WhiteWins);
}

// ---------------------------------------------------------------------------------------
// Sample files
// ---------------------------------------------------------------------------------------

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_expert_game_from_the_seed() {
    for name in ["expert.pgn", "expert.sgf"] {
        let records = read_records(&data(name)).unwrap();
        assert_eq!(records.len(), 1, "{name}");
        let r = &records[0];
        assert_eq!(r.moves, expert_moves(), "{name}");
        assert_eq!(r.black.as_deref(), Some("Black"));
        let replay = r.check().unwrap();
        assert_eq!(replay.result, ResultCheck::Unfinished);
        assert_eq!(
            replay.game.position().to_string(),
            "1bbbbbb1/w6w/w6w/w6w/b7/wb5w/w3ww2/2b1bbb1 b"
        );
    }
}

#[test]
fn sample_collections() {
    let pgn = read_records(&data("games.pgn")).unwrap();
    let sgf = read_records(&data("games.sgf")).unwrap();
    assert_eq!(pgn.len(), 5);
    assert_eq!(sgf.len(), 3);
    let white = pgn[0].check().unwrap();
    assert_eq!(white.game.outcome().unwrap().winner, Some(Color::White));
    assert!(matches!(white.result, ResultCheck::Agrees(_)));
    assert_eq!(pgn[0].date.as_deref(), Some("2026.11.22"));
    // The 6x6 game is in both files.
    for r in [&pgn[1], &sgf[0]] {
        let replay = r.check().unwrap();
        assert_eq!(replay.game.outcome().unwrap().winner, Some(Color::Black));
        assert!(matches!(replay.result, ResultCheck::Agrees(_)));
        assert_eq!(replay.game.ply(), 11);
        assert_eq!(r.start.size(), BoardSize::Six);
    }
    assert_eq!(pgn[1].moves, sgf[0].moves);
    // The caged game, Black first then White first.
    assert_eq!(pgn[2].moves, sgf[2].moves);
    assert_eq!(pgn[2].moves.iter().filter(|m| m.is_pass()).count(), 2);
    assert_eq!(pgn[3].start.side_to_move(), Color::White);
    assert!(pgn[3].moves[0].is_pass());
    pgn[3].replay().unwrap();
    // Scrambled Eggs.
    assert_eq!(pgn[4].moves, sgf[1].moves);
    assert_eq!(pgn[4].rules, RuleSet::MoverWins);
    assert_eq!(
        sgf[1].start,
        Variant::ScrambledEggs.start(BoardSize::Eight).unwrap()
    );
}

#[test]
fn sample_variant_records() {
    let finals = [
        (
            Variant::Parachute,
            "8/w6b/2b2w2/w3w2b/b2b3w/w6b/b6w/8 b 5 5",
        ),
        (
            Variant::AmbiLoa,
            "2bbbbb1/w6W/wb5W/w6W/w6W/wB5W/w4W2/2BBBBB1 w",
        ),
        (
            Variant::Neighbors,
            "2bbwww1/2w4b/wb5b/w6b/b6w/b6w/b6w/1wwwbbb1 b",
        ),
        (
            Variant::FieldsOfAction,
            "HGFE4/4LKJI/1CBA4/D7/8/4abcd/ijkl3h/4efg1 b",
        ),
    ];
    for file in ["variants.pgn", "variants.sgf"] {
        let records = read_records(&data(file)).unwrap();
        assert_eq!(records.len(), finals.len(), "{file}");
        for (record, (variant, text)) in records.iter().zip(finals) {
            assert_eq!(record.variant(), variant, "{file}");
            assert_eq!(record.start, variant.start(BoardSize::Eight).unwrap());
            let game = record.replay().unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(game.position().to_string(), text, "{file}: {variant}");
            // Written back, each names its variant as documented.
            assert!(record
                .to_pgn()
                .contains(&format!("[Variant \"{}\"]", variant.title())));
            assert!(record
                .to_sgf()
                .contains(&format!("SU[{}]", variant.sgf_name())));
        }
    }
}

#[test]
fn sample_bad_files() {
    let r = &read_records(&data("bad-illegal.pgn")).unwrap()[0];
    let err = r.replay().unwrap_err();
    assert_eq!(err.ply(), 3);
    let msg = err.to_string();
    assert!(
        msg.starts_with("move 2 (Black, ply 3) d1-b3: 'd1-b3' is illegal"),
        "{msg}"
    );
    assert!(msg.contains("holds 3 pieces"), "{msg}");

    let r = &read_records(&data("bad-after-end.pgn")).unwrap()[0];
    let err = r.replay().unwrap_err();
    assert!(
        matches!(err, ReplayError::AfterEnd { ply: 12, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("move 6 (White, ply 12) a6-b6: the game was already over after move 6 (Black): Black wins by connection"),
        "{msg}"
    );

    let err = read_records(&data("bad-unterminated.sgf")).unwrap_err();
    assert_eq!((err.line, err.column), (2, 12));
    assert_eq!(
        err.to_string(),
        "SGF line 2, column 12: the value of property W is never closed: missing ']'"
    );

    let err = read_records(&data("bad-result.pgn"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "PGN game 1, line 2, column 1: tag Result: unknown result '2-0' (expected 1-0, 0-1, 1/2-1/2 or *)"
    );
    let err = read_records(&data("bad-fen.pgn")).unwrap_err().to_string();
    assert!(
        err.starts_with("PGN game 1, line 2, column 1: tag FEN: bad position text"),
        "{err}"
    );
    assert!(err.contains("rank 6 ('w7w') covers 9 squares"), "{err}");

    let r = &read_records(&data("mismatch.pgn")).unwrap()[0];
    let replay = r.check().unwrap();
    let warning = replay.result.warning().unwrap();
    assert_eq!(
        warning,
        "the record says 0-1 (White wins) but on the board Black wins by connection (1-0)"
    );
}

// ---------------------------------------------------------------------------------------
// Malformed records
// ---------------------------------------------------------------------------------------

/// The first error in `text`, which must be read as `format`.
fn error_in(format: Format, text: &str) -> String {
    let err = read_records(text).unwrap_err();
    assert_eq!(err.format, format, "{text:?}: {err}");
    err.to_string()
}

fn sgf_err(text: &str) -> String {
    error_in(Format::Sgf, text)
}

fn pgn_err(text: &str) -> String {
    error_in(Format::Pgn, text)
}

#[test]
fn malformed_sgf_says_where() {
    // A text with no game is read as PGN (below); the splitter's tests give SGF's words.
    let cases: [(&str, &str); 16] = [
        ("(;GM[9];B[b1-b3]", "SGF line 1, column 1: the game tree opened here is never closed"),
        ("(;GM[9]\nPB[x;B(b1-b3)", "SGF line 2, column 3: the value of property PB is never closed"),
        ("(;GM[9];B[b1-b3];W[h4-f9])", "SGF game 1, line 1, column 19: W[h4-f9] at move 1 (White): 'h4-f9': f9 is not a square"),
        ("(;GM[9];B[b1-b3];B[c1-c3])", "SGF game 1, line 1, column 18: B[c1-c3], ply 2: White is to move, not Black"),
        ("(;GM[9];W[h4-f2])", "SGF game 1, line 1, column 9: W[h4-f2], ply 1: Black is to move, not White"),
        ("(;GM[1];B[dd])", "SGF game 1, line 1, column 5: GM[1]: not a Lines of Action game"),
        ("(;GM[9]RE[B+2.5x]x)", "SGF game 1, line 1, column 18: 'x' is not a property name"),
        ("(;GM[9]RE[Black wins])", "SGF game 1, line 1, column 10: RE[Black wins]: unknown result (expected B+, W+, 0 for a draw, or ?)"),
        ("(;GM[9]RU[olympiad])", "SGF game 1, line 1, column 10: RU[olympiad]: unknown rule set 'olympiad'"),
        ("(;GM[9]SZ[19])", "SGF game 1, line 1, column 10: SZ[19]: boards are 6, 7 or 8 squares a side"),
        ("(;GM[9]SU[Custom]AB[a1])", "SGF game 1, line 1, column 1: the start position: White has no piece"),
        ("(;GM[9];B[b1-b3]\n(;W[h4-f2]);B[c1-c3])", "SGF game 1, line 2, column 12: a node ';' after a variation"),
        ("(;GM[9]SU[Chess])", "SGF game 1, line 1, column 10: SU[Chess]: unknown variant 'Chess'"),
        ("(;GM[9]SU[Parachute]SZ[7])", "SGF game 1, line 1, column 1: Parachute is played on 8x8, not 7x7"),
        ("(;GM[9]SU[Neighbors]AB[a1]AW[h8])", "SGF game 1, line 1, column 1: AB/AW/AE cannot set up a Neighbors position"),
        ("(;GM[9]SU[AmbiLOA]FEN[8/8/8/8/8/8/8/BW6 x])", "SGF game 1, line 1, column 22: FEN[8/8/8/8/8/8/8/BW6 x]: not a valid AmbiLOA position"),
    ];
    for (text, expected) in cases {
        let err = sgf_err(text);
        assert!(
            err.starts_with(expected),
            "{text:?}:\n  got      {err}\n  expected {expected}"
        );
    }
    let err = sgf_err("(;GM[9]AB[z9]AW[a1])");
    assert_eq!(
        err,
        "SGF game 1, line 1, column 10: AB[z9]: 'z9' is not a square"
    );
    let err = sgf_err("(;GM[9];B[b1-b3]PL[W])");
    assert!(
        err.contains("PL: setup properties are read only in the first node"),
        "{err}"
    );
    let err = sgf_err("(;GM[9];B[b1-b3]W[h4-f2])");
    assert!(err.contains("a node holds one move"), "{err}");
}

#[test]
fn malformed_pgn_says_where() {
    let cases: [(&str, &str); 10] = [
        ("", "PGN line 1, column 1: no game found"),
        ("  \n", "PGN line 1, column 1: no game found"),
        ("[Event \"x]\n1. b1-b3 *", "PGN game 1, line 1, column 1: tag Event: the value's closing '\"' is missing"),
        ("[Event x]", "PGN game 1, line 1, column 8: tag Event: expected its value in quotes"),
        ("1. b1-b3 {never closed\nh4-f2 *", "PGN line 1, column 10: comment '{' is never closed"),
        ("1. b1-b3 (h4-f2 *", "PGN line 1, column 10: variation '(' is never closed"),
        ("1. b1-b3 h4-f2\n2. d1-a4 h2-e9 *", "PGN game 1, line 2, column 10: move 2 (White): 'h2-e9': e9 is not a square"),
        ("[Result \"1-0\"]\n\n1. b1-b3 0-1", "PGN game 1, line 3, column 10: the result 0-1 after the moves differs from the Result tag \"1-0\""),
        ("[Variant \"Chess\"]\n1. b1-b3 *", "PGN game 1, line 1, column 1: tag Variant: unknown variant 'Chess'"),
        ("[Variant \"Parachute\"]\n[FEN \"8/w6b/b6w/w6b/b6w/w6b/b6w/8 b\"]\n*", "PGN game 1, line 2, column 1: tag FEN: bad position text '8/w6b/b6w/w6b/b6w/w6b/b6w/8 b' for Parachute: missing Black's reserve after the side to move"),
    ];
    for (text, expected) in cases {
        let err = pgn_err(text);
        assert!(
            err.starts_with(expected),
            "{text:?}:\n  got      {err}\n  expected {expected}"
        );
    }
    // Moves are checked by the replay: a Parachute turn without its placement.
    let record = &read_records("[Variant \"Parachute\"]\n1. a6-c6 *").unwrap()[0];
    let err = record.replay().unwrap_err().to_string();
    assert!(err.contains("a placement is due after the move"), "{err}");
    let err = pgn_err("[Rules \"gamut\"]\n*");
    assert_eq!(
        err,
        "PGN game 1, line 1, column 1: tag Rules: unknown rule set 'gamut': expected draw or mover-wins"
    );
    let err = pgn_err("1. b1-b3 h4-f2 2. d1~a4 *");
    assert!(
        err.contains("column 19: move 2 (Black): 'd1~a4' is not a move"),
        "{err}"
    );
}

#[test]
fn illegal_moves_are_found_by_the_replay() {
    // Every kind of wrong move, at move 3 (White).
    for (bad, reason) in [
        (
            "a2-a4",
            "'a2-a4' is illegal: the line from a2 towards a4 holds",
        ),
        (
            "b8-b6",
            "there is no piece of the side to move (White) on b8",
        ),
        (
            "h3-f3",
            "'h3-f3' is illegal: the line from h3 towards f3 holds 4 pieces",
        ),
        ("a3xb2", "'a3xb2' is written as a capture but b2 is empty"),
        (
            "pass",
            "pass is only legal when the side to move has no move",
        ),
    ] {
        let text = format!("1. b1-b3 h4-f2 2. d1:a4 h2-e2 3. c1-c3 {bad} *");
        let record = &read_records(&text).unwrap()[0];
        let err = record.replay().unwrap_err();
        assert_eq!(err.ply(), 6, "{bad}");
        let msg = err.to_string();
        assert!(msg.starts_with("move 3 (White, ply 6)"), "{bad}: {msg}");
        assert!(msg.contains(reason), "{bad}: {msg}");
        // The replay stops before the bad move.
        assert_eq!(err.position().side_to_move(), Color::White);
    }
    // Off the board of a small board.
    let text = "[FEN \"1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b\"]\n1. b1-b7 *";
    let err = read_records(text).unwrap()[0]
        .replay()
        .unwrap_err()
        .to_string();
    assert!(err.contains("b7 is off the 6x6 board"), "{err}");
    // A hand-built move with a wrong capture flag.
    let mut record = GameRecord::new(Position::startpos(), RuleSet::Draw);
    let b1 = loa_core::Square::parse("b1").unwrap();
    let b3 = loa_core::Square::parse("b3").unwrap();
    record.moves.push(Move::new(b1, b3, true));
    let err = record.replay().unwrap_err().to_string();
    assert!(err.contains("b3 is empty"), "{err}");
    // A start that is already over.
    let mut record = GameRecord::new(pos("8/8/8/8/8/8/8/bw6 b"), RuleSet::Draw);
    record.moves.push(Move::PASS);
    let err = record.replay().unwrap_err().to_string();
    assert!(
        err.contains("the game was already over at the start"),
        "{err}"
    );
}

#[test]
fn each_game_keeps_its_own_error() {
    let text = "1. b1-b3 *\n\n[Result \"3-0\"]\n1. b1-b3 *\n\n1. c1-c3 *\n";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    let Err(GameError::Text { number, error, .. }) = &games[1] else {
        panic!("{:?}", games[1]);
    };
    assert_eq!((*number, error.game, error.line), (2, Some(2), 3));
    assert!(read_records(text).is_err());

    let text = "(;GM[9];B[b1-b3])(;GM[9];B[b1-b9])(;GM[9])";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    let Err(GameError::Text { error, .. }) = &games[1] else {
        panic!("{:?}", games[1]);
    };
    assert_eq!((error.format, error.game), (Format::Sgf, Some(2)));
}

#[test]
fn result_checks() {
    let over = Game::new(pos("8/8/8/8/8/8/8/bw6 b"), RuleSet::Draw);
    let outcome = over.outcome().unwrap();
    assert_eq!(
        ResultCheck::new(RecordResult::Unknown, Some(outcome)),
        ResultCheck::Unrecorded(outcome)
    );
    assert_eq!(
        ResultCheck::new(RecordResult::from_outcome(Some(outcome)), Some(outcome)),
        ResultCheck::Agrees(outcome)
    );
    assert_eq!(
        ResultCheck::new(RecordResult::BlackWins, None),
        ResultCheck::OffTheBoard(RecordResult::BlackWins)
    );
    assert!(ResultCheck::new(RecordResult::Draw, None)
        .warning()
        .is_none());
}

/// The games of `text`, cut from blocks of `block` bytes.
fn cut_in_blocks(text: &str, block: usize) -> Vec<Result<GameText, RecordError>> {
    let mut splitter = GameSplitter::new();
    let mut games = Vec::new();
    for bytes in text.as_bytes().chunks(block) {
        splitter.push(bytes);
        games.extend(std::iter::from_fn(|| splitter.next_game()));
    }
    splitter.finish();
    games.extend(std::iter::from_fn(|| splitter.next_game()));
    games
}

/// Garbage and damaged records give errors, never a panic; blocks of any size cut them
/// into the same games.
#[test]
fn garbage_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let alphabet: Vec<char> =
        "()[];\\{}$%\"\n\r\t :-x.+!?*/0123456789abcdefghBWPLAEGMSUZRTX½é\u{feff}"
            .chars()
            .collect();
    let mut samples: Vec<String> = ["expert.pgn", "expert.sgf", "games.pgn", "games.sgf"]
        .iter()
        .map(|n| data(n))
        .collect();
    let game = playout(pos(CAGE).into(), RuleSet::MoverWins, 40, &mut rng);
    let mut record = GameRecord::from_game(&game);
    record
        .extra
        .push(("Odd key: \"x\"".to_string(), "v]\\".to_string()));
    record.extra.push((String::new(), "empty key".to_string()));
    samples.push(record.to_pgn());
    samples.push(record.to_sgf());
    let exercise = |text: &str| {
        let whole = cut_in_blocks(text, text.len().max(1));
        assert_eq!(cut_in_blocks(text, 1 + text.len() % 5), whole, "{text:?}");
        for game in read_games(text) {
            let record = match game {
                Ok(game) => {
                    let _ = game.replay.result.warning();
                    game.record
                }
                Err(GameError::Moves { record, .. }) => *record,
                Err(error) => {
                    let _ = (error.number(), error.names(), error.to_string());
                    continue;
                }
            };
            let _ = read_records(&record.to_pgn());
            let _ = read_records(&record.to_sgf());
        }
    };
    for _ in 0..3000 {
        let len = rng.random_range(0..60);
        let text: String = (0..len)
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        exercise(&text);
    }
    for sample in &samples {
        let chars: Vec<char> = sample.chars().collect();
        for _ in 0..400 {
            let mut damaged = chars.clone();
            for _ in 0..1 + rng.random_range(0..4) {
                let at = rng.random_range(0..damaged.len() + 1);
                match rng.random_range(0..3) {
                    0 if at < damaged.len() => {
                        damaged.remove(at);
                    }
                    1 if at < damaged.len() => {
                        damaged[at] = alphabet[rng.random_range(0..alphabet.len())];
                    }
                    _ => damaged.insert(at, alphabet[rng.random_range(0..alphabet.len())]),
                }
            }
            exercise(&damaged.into_iter().collect::<String>());
        }
    }
    // Odd tag names still make a readable record.
    let read = read_records(&record.to_pgn()).unwrap();
    assert_eq!(read[0].moves, record.moves);
    assert_eq!(read[0].tag("Odd_key___x_"), Some("v]\\"));
    let read = read_records(&record.to_sgf()).unwrap();
    assert_eq!(read[0].tag("Odd key_ \"x\""), Some("v]\\"));
}
