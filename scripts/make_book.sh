#!/usr/bin/env bash
# Makes crates/loa-match/data/openings.txt, the opening book built into `loa match`:
# random sequences of 4-8 plies from the standard start, kept when `loa engine` at a
# short search scores the position within 60 centipawns of equal, no two reaching the
# same position.
#
#   scripts/make_book.sh [LINES] [DEPTH] [SEED]
#
# The result is the same for the same arguments and the same engine. Rebuild `loa`
# afterwards: the book is compiled into the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-300}
depth=${2:-5}
seed=${3:-20261122}
cargo build --release -p loa-cli --quiet
target/release/loa match --make-book crates/loa-match/data/openings.txt \
    --engine cmd=target/release/loa arg=engine name=loa "depth=$depth" option.Hash=16 \
    --book-lines "$lines" --book-plies 4-8 --book-margin 60 --seed "$seed"
