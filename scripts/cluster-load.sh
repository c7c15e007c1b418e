#!/usr/bin/env bash
# The cluster benchmark (issue #25): 1,000 games at once and two watching sockets a game,
# first on two `loa serve` sharing one PostgreSQL (each game watched on both servers, its
# moves sent to the two in turn), then on one `loa serve` on SQLite (both sockets on it).
# Prints, side by side: the move's acknowledgement (p50/p99/max), how long after that
# answer the other server's watcher sees the move, moves a second, and whatever was lost
# or refused. The program is `cluster_load` in crates/loa-cli/tests/cluster_load.rs.
#
# It starts everything itself: a throw-away PostgreSQL cluster (initdb, as the postgres
# user when run as root; stopped and removed at the end), the servers on free ports, a
# SQLite file in a temporary folder. Environment:
#   LOA_LOAD_GAMES (1000), LOA_LOAD_PLIES (40: the most moves a game plays),
#   LOA_LOAD_THINK_MS (1000: each player's pause after the answer to its move)
#   LOA_CLUSTER_RUNS ("postgres sqlite"): the runs, in order
#   LOA_BIN: the loa binary the servers run (by default the release build made here)
#   LOA_PG_BIN: PostgreSQL's programs (the newest /usr/lib/postgresql/*/bin by default)
#   LOA_PG_OPTIONS: more postgres options (e.g. "-c synchronous_commit=off", which is
#     as durable as the SQLite store's synchronous=NORMAL); none by default
#   LOA_CLUSTER_SERVERS=host:port,host:port: use servers already running instead (one run,
#     named by LOA_CLUSTER_LABEL, "given" by default)
#   LOA_CLUSTER_KEEP=1: keep the folder with the servers' logs and the database
set -euo pipefail
cd "$(dirname "$0")/.."

# Each server holds a connection for every socket and every player.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

target=${CARGO_TARGET_DIR:-$PWD/target}
cargo test --release -p loa-cli --test cluster_load --no-run
bin=${LOA_BIN:-$target/release/loa}
[ -x "$bin" ] || { echo "no loa binary at $bin" >&2; exit 1; }

work=$(mktemp -d /tmp/loa-cluster.XXXXXX)
chmod 755 "$work"
results=$work/results.tsv
: >"$results"
pids=()
pg_data=
pg_bin=
address=
failed=0

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop_servers() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  pids=()
}

stop_postgres() {
  if [ -n "$pg_data" ]; then
    as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -m fast -w stop >/dev/null || true
    pg_data=
  fi
}

cleanup() {
  stop_servers
  stop_postgres
  if [ "${LOA_CLUSTER_KEEP:-0}" = 1 ] || [ "$failed" != 0 ]; then
    echo "logs and data kept in $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts `loa serve --db $1` with its output in $2.*; its host:port in $address.
start_server() {
  local db=$1 log=$2
  "$bin" serve --port 0 --db "$db" >"$log.out" 2>"$log.err" &
  pids+=($!)
  for _ in $(seq 1 300); do
    address=$(grep -o 'http://[^/ ]*' "$log.out" 2>/dev/null | head -1 || true)
    if [ -n "$address" ]; then
      address=${address#http://}
      return
    fi
    kill -0 "${pids[-1]}" 2>/dev/null || { cat "$log.err" >&2; return 1; }
    sleep 0.1
  done
  echo "loa serve --db $db did not start: $(cat "$log.err")" >&2
  return 1
}

# The servers' peak memory and CPU time, as figures of the run.
server_figures() {
  local label=$1 n=0 peak cpu ticks
  ticks=$(getconf CLK_TCK)
  for pid in "${pids[@]}"; do
    n=$((n + 1))
    peak=$(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$pid/status")
    cpu=$(awk -v t="$ticks" '{printf "%.1f", ($14 + $15) / t}' "/proc/$pid/stat")
    printf '%s\tserver %d peak memory MB\t%s\n' "$label" "$n" "$peak" >>"$results"
    printf '%s\tserver %d CPU s\t%s\n' "$label" "$n" "$cpu" >>"$results"
  done
}

# The servers' log lines (warnings and errors), counted and the first shown.
server_logs() {
  local label=$1 n=0 lines
  for err in "$work/$label".*.err; do
    n=$((n + 1))
    lines=$(grep -c . "$err" || true)
    printf '%s\tserver %d log lines\t%s\n' "$label" "$n" "$lines" >>"$results"
    if [ "$lines" != 0 ]; then
      echo "--- $err ($lines lines; the first 20):"
      head -20 "$err"
    fi
  done
}

# Runs the benchmark against the servers $2 (host:port,...), named $1.
bench() {
  local label=$1 servers=$2
  echo "=== $label: servers $servers"
  if ! LOA_CLUSTER_SERVERS=$servers LOA_CLUSTER_LABEL=$label LOA_CLUSTER_RESULTS=$results \
    cargo test --release -p loa-cli --test cluster_load -- --ignored --nocapture --exact cluster_load \
    2>&1 | tee "$work/$label.bench"; then
    failed=1
  fi
  # The test's exit status is lost in the pipe above: its summary line says.
  if grep -q 'test result: FAILED' "$work/$label.bench"; then failed=1; fi
}

run_postgres() {
  pg_bin=${LOA_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
  [ -x "$pg_bin/initdb" ] || { echo "PostgreSQL's initdb not found: set LOA_PG_BIN" >&2; exit 1; }
  local dir=$work/pg port
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  as_postgres "$pg_bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
  pg_data=$dir/data
  port=$(free_port)
  # shellcheck disable=SC2086 # the options are words
  as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -l "$dir/log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 ${LOA_PG_OPTIONS:-}" start >/dev/null
  "$pg_bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -c 'create database loa'
  local url=postgres://postgres@127.0.0.1:$port/loa one
  # The first server makes the tables; the second finds them made.
  start_server "$url" "$work/postgres.1"
  one=$address
  start_server "$url" "$work/postgres.2"
  bench postgres "$one,$address"
  server_figures postgres
  # The database's CPU: the postmaster and its processes (the servers' connections among
  # them, still open).
  local postmaster ticks
  postmaster=$(head -1 "$pg_data/postmaster.pid")
  ticks=$(getconf CLK_TCK)
  { echo "$postmaster"; ps -o pid= --ppid "$postmaster"; } | while read -r pid; do
    cat "/proc/$pid/stat" 2>/dev/null || true
  done | awk -v t="$ticks" '{ sub(/.*\) /, ""); s += $12 + $13 }
    END { printf "postgres\tPostgreSQL CPU s\t%.1f\n", s / t }' >>"$results"
  stop_servers
  server_logs postgres
  if grep -E 'ERROR|FATAL|PANIC' "$dir/log" >"$work/postgres.db-errors"; then
    echo "--- PostgreSQL's log has $(wc -l <"$work/postgres.db-errors") error lines; the first 20:"
    head -20 "$work/postgres.db-errors"
  fi
  stop_postgres
}

run_sqlite() {
  start_server "$work/games.db" "$work/sqlite.1"
  bench sqlite "$address"
  server_figures sqlite
  stop_servers
  server_logs sqlite
}

if [ -n "${LOA_CLUSTER_SERVERS:-}" ]; then
  bench "${LOA_CLUSTER_LABEL:-given}" "$LOA_CLUSTER_SERVERS"
else
  for run in ${LOA_CLUSTER_RUNS:-postgres sqlite}; do
    case $run in
      postgres) run_postgres ;;
      sqlite) run_sqlite ;;
      *) echo "unknown run '$run': postgres or sqlite" >&2; exit 2 ;;
    esac
  done
fi

# The table: a row a figure, a column a run.
echo
awk -F '\t' '
  !($1 in seen_run) { seen_run[$1] = 1; runs[++nruns] = $1 }
  !($2 in seen_fig) { seen_fig[$2] = 1; figs[++nfigs] = $2 }
  { value[$1, $2] = $3 }
  END {
    width = 0
    for (i = 1; i <= nfigs; i++) if (length(figs[i]) > width) width = length(figs[i])
    printf "%-" width "s", ""
    for (j = 1; j <= nruns; j++) printf "  %14s", runs[j]
    printf "\n"
    for (i = 1; i <= nfigs; i++) {
      printf "%-" width "s", figs[i]
      for (j = 1; j <= nruns; j++) {
        v = ((runs[j], figs[i]) in value) ? value[runs[j], figs[i]] : "-"
        printf "  %14s", v
      }
      printf "\n"
    }
  }' "$results"
exit "$failed"
