#!/usr/bin/env bash
# make bench-order: the requests and wall time of one apply of an order
# resource over N configs listed reversed (BENCH_N, default "10 100 1000"),
# with the legacy key and a scoped one, against the local API limited to
# the live service's 480 requests/minute per key and the provider's default
# pace. Not part of make test: at N=1000 an apply takes minutes by nature.
#
#   BENCH_N="10 100 1000"    config counts
#   BENCH_BASE=REV           also time the provider built from git REV
#                            ("before"), ahead of this tree ("after")
#   BENCH_LATENCY=0s         latency the local API adds to each request of
#                            the timed applies (e.g. 150ms, a distant service)
#   BENCH_OUT=FILE           also write the report to FILE
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

version=${VERSION:-0.1.0}
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-bench-order.XXXXXX")
cleanup() {
  pipeline_stop_localapi
  if [ -d "$work/base-tree" ]; then git -C "$pipeline_root" worktree remove --force "$work/base-tree"; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "==> building the provider into a filesystem mirror behind the launcher, and the benchmark" >&2
pipeline_install_mirror "$work" "$version"
mkdir -p "$work/bin"
mv "$PIPELINE_PROVIDER_BIN" "$work/bin/provider-after"
(cd "$pipeline_root" && go build -o "$PIPELINE_PROVIDER_BIN" ./scripts/bench/launcher && go build -o "$work/bin/bench" ./scripts/bench)
base=()
if [ -n "${BENCH_BASE:-}" ]; then
  echo "==> building the provider at $BENCH_BASE" >&2
  git -C "$pipeline_root" worktree add --detach "$work/base-tree" "$BENCH_BASE" >/dev/null
  (cd "$work/base-tree" && go build -ldflags "-s -w -X main.version=$version" -o "$work/bin/provider-before" .)
  git -C "$pipeline_root" worktree remove --force "$work/base-tree"
  base=(-base-bin "$work/bin/provider-before" -base-label "$BENCH_BASE ($(git -C "$pipeline_root" rev-parse --short "$BENCH_BASE"))")
fi

report="$work/report.md"
{
  echo "## Order benchmark $(date -u +%Y-%m-%d)"
  echo
  echo "- machine: $(uname -srm), $(nproc) CPUs, $(terraform version | head -n 1), $(go version | cut -d' ' -f3), provider $version"
  echo "- local API in memory on loopback, project 1, a fresh one per N"
} >"$report"
after="this tree ($(git -C "$pipeline_root" describe --always --dirty))"
for n in ${BENCH_N:-10 100 1000}; do
  echo "==> N=$n" >&2
  pipeline_start_localapi "$work" -debug-routes
  POSTHOG_HOST="$LOCALAPI_URL" POSTHOG_PROJECT_ID=1 \
    "$work/bin/bench" -scenario order -n "$n" -url "$LOCALAPI_URL" -work "$work/n$n" -latency "${BENCH_LATENCY:-0s}" \
    "${base[@]}" -cand-bin "$work/bin/provider-after" -cand-label "$after" >>"$report"
  pipeline_stop_localapi
done
cat "$report"
if [ -n "${BENCH_OUT:-}" ]; then
  cp "$report" "$BENCH_OUT"
  echo "==> report written to $BENCH_OUT" >&2
fi
