#!/usr/bin/env bash
# make bench-check (part of make test): the benchmark end to end at N=2, so
# that make bench keeps working, and its request targets hold: a no-change
# plan within ceil(N/100)+5 requests, exactly N creates (and a few looks
# besides), one update per
# config changed or destroyed, no 429 at the live service's rate limit. Time
# and size targets are the full benchmark's business.
set -euo pipefail
out=$(mktemp "${TMPDIR:-/tmp}/pipeline-bench-check.XXXXXX")
trap 'rm -f "$out"' EXIT
BENCH_N=2 BENCH_PLAN_REPEAT=1 BENCH_OUT="$out" "$(dirname "$0")/bench.sh" >/dev/null
failed=0
for target in 'no-change plan ≤ ceil(N/100)+5' 'apply: exactly N = 2 creates' 'apply: other requests' \
  'apply (update all): exactly N = 2 updates' 'destroy: exactly N = 2 updates' 'plan at 480/min: zero 429s'; do
  if ! grep -F "| $target" "$out" | grep -q '| met |$'; then
    echo "bench-check: target not met: $target" >&2
    failed=1
  fi
done
if [ "$failed" -ne 0 ]; then
  cat "$out" >&2
  exit 1
fi
# The comparison of two builds (BENCH_BASE) runs too: this tree against its
# own HEAD, one round, a row for every phase.
BENCH_N=2 BENCH_PLAN_REPEAT=1 BENCH_ROUNDS=1 BENCH_BASE=HEAD BENCH_OUT="$out" "$(dirname "$0")/bench.sh" >/dev/null
rows=$(grep -c '^| \(apply\|plan\|destroy\)' "$out" || true)
if [ "$rows" -ne 4 ]; then
  echo "bench-check: the comparison reported $rows phases, want 4" >&2
  cat "$out" >&2
  exit 1
fi
echo "bench-check: make bench runs; request targets met at N=2; BENCH_BASE compares"
