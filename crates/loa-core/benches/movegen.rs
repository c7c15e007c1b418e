//! Move-generation benchmarks over a fixed set of positions: the two 8x8 starts and
//! middle-game positions reached from them by a fixed deterministic line of play
//! (at ply `p` the move with index `(p * 7) % len` of the generated list).
//!
//! Run with `cargo bench -p loa-core --bench movegen` (add
//! `-- --warm-up-time 1 --measurement-time 3` for a shorter run).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use loa_core::perft::perft;
use loa_core::{BoardSize, Color, MoveList, Position, RuleSet, Variant};

/// Plays the deterministic line from `start` for `plies` plies (stopping early if the
/// game ends by connection).
fn line(start: Position, plies: usize) -> Position {
    let mut pos = start;
    for ply in 0..plies {
        if pos.outcome(RuleSet::Draw).is_some() {
            break;
        }
        let moves = pos.legal_moves();
        pos.play(moves[(ply * 7) % moves.len()]);
    }
    pos
}

/// The benchmark positions with their labels.
fn positions() -> Vec<(String, Position)> {
    let standard = Position::startpos();
    let eggs = Variant::ScrambledEggs
        .standard_start(BoardSize::Eight)
        .expect("8x8");
    let mut set = vec![("start".to_string(), standard), ("eggs".to_string(), eggs)];
    for plies in [8, 16, 24, 32] {
        set.push((format!("start+{plies}"), line(standard, plies)));
    }
    for plies in [12, 24] {
        set.push((format!("eggs+{plies}"), line(eggs, plies)));
    }
    set
}

fn bench_generate(c: &mut Criterion, set: &[(String, Position)]) {
    let mut group = c.benchmark_group("generate_moves");
    for (name, pos) in set {
        group.throughput(Throughput::Elements(pos.legal_moves().len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            let mut moves = MoveList::new();
            b.iter(|| {
                black_box(pos).generate_moves(&mut moves);
                black_box(moves.len())
            });
        });
    }
    group.finish();
}

fn bench_count(c: &mut Criterion, set: &[(String, Position)]) {
    let mut group = c.benchmark_group("count_moves");
    for (name, pos) in set {
        group.throughput(Throughput::Elements(pos.count_moves()));
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| black_box(pos).count_moves());
        });
    }
    group.finish();
}

fn bench_after(c: &mut Criterion, set: &[(String, Position)]) {
    // Makes every legal move of the position (moves generated outside the timing loop);
    // the XOR of the hashes keeps the results alive.
    let mut group = c.benchmark_group("after_all_moves");
    for (name, pos) in set {
        let moves = pos.legal_moves();
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| {
                let pos = black_box(pos);
                let mut acc = 0u64;
                for &mv in black_box(&moves).iter() {
                    acc ^= black_box(pos.after(mv)).hash();
                }
                acc
            });
        });
    }
    group.finish();
}

fn bench_connected(c: &mut Criterion, set: &[(String, Position)]) {
    // Both colours: two connection tests per iteration.
    let mut group = c.benchmark_group("is_connected_both");
    group.throughput(Throughput::Elements(2));
    for (name, pos) in set {
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| {
                let pos = black_box(pos);
                (
                    pos.is_connected(Color::Black),
                    pos.is_connected(Color::White),
                )
            });
        });
    }
    group.finish();
}

fn bench_perft(c: &mut Criterion) {
    let start = Position::startpos();
    let nodes = perft(&start, 3);
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("start/3", |b| b.iter(|| perft(black_box(&start), 3)));
    group.finish();
}

fn benches(c: &mut Criterion) {
    let set = positions();
    for (name, pos) in &set {
        eprintln!("{name:>9}: {pos}  ({} moves)", pos.legal_moves().len());
    }
    bench_generate(c, &set);
    bench_count(c, &set);
    bench_after(c, &set);
    bench_connected(c, &set);
    bench_perft(c);
}

criterion_group!(movegen, benches);
criterion_main!(movegen);
