//! Perft against the reference counts in `tests/data/perft.txt`.

use loa_core::perft::{divide, perft};
use loa_core::{Position, Variant, VariantPosition};

struct Case {
    position: VariantPosition,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).expect("perft data file");
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let variant: Variant = fields.next().unwrap().trim().parse().expect("variant");
            let text = fields.next().expect("a position").trim();
            let position = VariantPosition::parse(variant, text).expect("position");
            let counts = fields
                .map(|f| {
                    let (depth, nodes) = f.trim().split_once(' ').expect("D<n> <count>");
                    (
                        depth.trim_start_matches('D').parse().expect("depth"),
                        nodes.parse().expect("count"),
                    )
                })
                .collect();
            Case { position, counts }
        })
        .collect()
}

fn check(max_depth: u32) {
    let cases = cases();
    assert!(cases.len() >= 4);
    for case in cases {
        for &(depth, expected) in case.counts.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(
                perft(&case.position, depth),
                expected,
                "perft {depth} of {}",
                case.position
            );
        }
    }
}

#[test]
fn perft_to_depth_5() {
    check(5);
}

#[test]
#[ignore = "slow: about two billion nodes per start"]
fn perft_depth_6() {
    check(6);
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::startpos();
    let split = divide(&pos, 3);
    assert_eq!(split.len(), 36);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 44_952);
}
