#!/bin/bash
# bench/cpu-split.sh <server pid or 0> -- <load command…>
# Runs the load command (wrk or pgbench) and prints the CPU each side spent per request over the
# same seconds, from /proc: the server process, every PostgreSQL process that lived through the run
# (start the server, and so its pool's backends, before this; pgbench's own backends come and go
# with it, so for pgbench read the database's share as every process's less the load generator's on
# an otherwise idle machine), the load command itself, all processes together, and the share of the
# cores left idle. docs/performance.md ("Issue 36, fifth session") has its readings.
set -euo pipefail
server=$1
shift
[ "${1:-}" = "--" ] && shift
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg() { local s=0; for p in $(pgrep -x postgres); do s=$((s + $(ticks "$p"))); done; echo "$s"; }
srv() { if [ "$server" = 0 ]; then echo 0; else ticks "$server"; fi; }
cpu() { head -1 /proc/stat | awk '{print $5, $2 + $3 + $4 + $5 + $6 + $7 + $8}'; }
p0=$(pg); s0=$(srv); read -r i0 t0 < <(cpu)
out=$({ /usr/bin/time -f 'LOADCPU %U %S' "$@"; } 2>&1)
p1=$(pg); s1=$(srv); read -r i1 t1 < <(cpu)
echo "$out" | grep -E 'Requests/sec|^tps|requests in|transactions actually processed' || true
# wrk prints "N requests in", pgbench "number of transactions actually processed: N".
n=$(echo "$out" | grep -oE '^ *[0-9]+ requests in|processed: [0-9]+' | grep -oE '[0-9]+' | tail -1)
load=$(echo "$out" | awk '/^LOADCPU/ {print ($2 + $3) * 100}')
tick_us=$((1000000 / $(getconf CLK_TCK)))
awk -v n="$n" -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v l="$load" -v i=$((i1 - i0)) -v t=$((t1 - t0)) -v u="$tick_us" 'BEGIN {
  printf "per request: server %.1f µs, PostgreSQL %.1f µs, load generator %.1f µs; every process %.1f µs; idle %.1f %% of the cores\n",
    s * u / n, p * u / n, l * u / n, (t - i) * u / n, i * 100 / t
}'
