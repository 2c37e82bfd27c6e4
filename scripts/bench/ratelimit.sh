#!/usr/bin/env bash
# make bench-ratelimit: one terraform apply of BENCH_RL_N configs (default
# 70, half of each kind) with the provider's default settings against the
# local API limited to BENCH_RL_LIMIT requests per minute per key (default
# 40), beside the same apply without a limit; prints the ideal time for the
# limit, the measured time, their ratio and the 429s the API served. Not part
# of make test: it takes a little over a minute by nature (the acceptance
# test TestAccReliability_rateLimitConverges covers correctness).
#
#   BENCH_RL_N=70       configs
#   BENCH_RL_LIMIT=40   the API's per-key limit per minute
#   BENCH_OUT=FILE      also write the report to FILE
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

version=${VERSION:-0.1.0}
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-bench-ratelimit.XXXXXX")
cleanup() {
  pipeline_stop_localapi
  rm -rf "$work"
}
trap cleanup EXIT

echo "==> building the provider into a filesystem mirror and the benchmark" >&2
pipeline_install_mirror "$work" "$version"
(cd "$pipeline_root" && go build -o "$work/bin/bench" ./scripts/bench)

report="$work/report.md"
{
  echo "## Rate-limit benchmark $(date -u +%Y-%m-%d)"
  echo
  echo "- machine: $(uname -srm), $(nproc) CPUs, $(terraform version | head -n 1), $(go version | cut -d' ' -f3), provider $version"
  echo "- local API in memory on loopback, key phx_local_full, project 1; terraform -parallelism=10 (default)"
} >"$report"

pipeline_start_localapi "$work" -debug-routes
POSTHOG_HOST="$LOCALAPI_URL" POSTHOG_API_KEY=phx_local_full POSTHOG_PROJECT_ID=1 \
  "$work/bin/bench" -scenario ratelimit -n "${BENCH_RL_N:-70}" -rate-limit "${BENCH_RL_LIMIT:-40}" \
  -url "$LOCALAPI_URL" -work "$work/run" >>"$report"
cat "$report"

if [ -n "${BENCH_OUT:-}" ]; then
  cp "$report" "$BENCH_OUT"
  echo "==> report written to $BENCH_OUT" >&2
fi
