#!/usr/bin/env bash
# The full load test of `loa serve`: 100 games at once on loopback through the API and the
# WebSockets, each player moving 100 ms after the answer to its last move
# (LOA_LOAD_GAMES, LOA_LOAD_PLIES and LOA_LOAD_THINK_MS change it; LOA_LOAD_SIGNED_IN=1 plays
# each game between two accounts paired by a rated seek, moving with their sessions, and
# times their sign-ins; a think time of 0 gives
# the saturation throughput). Prints the moves a second, the
# median and 99th percentile of a move's acknowledgement, and the server's peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -p loa-cli --test serve_load -- --ignored --nocapture full_load
