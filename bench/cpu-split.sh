#!/bin/bash
# bench/cpu-split.sh <server pid or 0> -- <load command…>
# Runs the load command (wrk or pgbench) and prints the CPU each side spent per request over the
# same seconds, from /proc: the server process, every PostgreSQL process that lived through the run
# (start the server, and so its pool's backends, before this; one that starts or ends during the run
# is not counted: pgbench's own backends come and go
# with it, so for pgbench read the database's share as every process's less the load generator's on
# an otherwise idle machine), the load command itself, all processes together, and the share of the
# cores left idle. docs/performance.md ("Uncached availability: the server's thread") has its readings.
set -euo pipefail
server=$1
shift
[ "${1:-}" = "--" ] && shift
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# PostgreSQL's processes as "pid ticks" lines; pg_delta sums what each one alive at both ends spent
pg() { for p in $(pgrep -x postgres); do echo "$p $(ticks "$p")"; done; }
pg_delta() { awk 'NR == FNR { start[$1] = $2; next } ($1 in start) { s += $2 - start[$1] } END { print s + 0 }' <(echo "$1") <(echo "$2"); }
srv() { if [ "$server" = 0 ]; then echo 0; else ticks "$server"; fi; }
# idle (with iowait) and all time of every core, steal included
cpu() { head -1 /proc/stat | awk '{print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}'; }
p0=$(pg); s0=$(srv); read -r i0 t0 < <(cpu)
out=$({ /usr/bin/time -f 'LOADCPU %U %S' "$@"; } 2>&1) || { echo "$out"; echo "the load command failed" >&2; exit 1; }
p1=$(pg); s1=$(srv); read -r i1 t1 < <(cpu)
echo "$out" | grep -E 'Requests/sec|^tps|requests in|transactions actually processed' || true
# wrk prints "N requests in", pgbench "number of transactions actually processed: N".
n=$(echo "$out" | grep -oE '^ *[0-9]+ requests in|processed: [0-9]+' | grep -oE '[0-9]+' | tail -1 || true)
[ -n "$n" ] && [ "$n" -gt 0 ] || { echo "$out"; echo "no request count in the load command's output" >&2; exit 1; }
load=$(echo "$out" | awk '/^LOADCPU/ {print $2 + $3}')
tick_us=$((1000000 / $(getconf CLK_TCK)))
awk -v n="$n" -v s=$((s1 - s0)) -v p="$(pg_delta "$p0" "$p1")" -v l="$load" -v i=$((i1 - i0)) -v t=$((t1 - t0)) -v u="$tick_us" 'BEGIN {
  printf "per request: server %.1f µs, PostgreSQL %.1f µs, load generator %.1f µs; every process %.1f µs; idle %.1f %% of the cores\n",
    s * u / n, p * u / n, l * 1000000 / n, (t - i) * u / n, i * 100 / t
}'
