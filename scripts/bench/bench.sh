#!/usr/bin/env bash
# make bench: time terraform with the provider against the local API beside
# the same operations on terraform_data (the floor) and on the smallest
# framework provider (the plugin floor), for N records per run (BENCH_N,
# default "100 1000"), and print a Markdown report. Not part of make test:
# N=1000 takes minutes.
#
#   BENCH_N="100 1000"   record counts, half of each kind
#   BENCH_RPM=0          provider requests_per_minute for the timed phases
#                        (0: no client-side limit; empty: the default, 400)
#   BENCH_PLAN_REPEAT=3  no-change plans timed per N (median reported)
#   BENCH_OUT=FILE       also write the report to FILE
#   BENCH_KEEP=1         keep the scratch directory (configurations, state)
#   BENCH_PROFILE=1      build the provider with the benchprofile tag and keep
#                        a CPU profile of each provider process (implies
#                        BENCH_KEEP); see the report's last lines
#   BENCH_BASE=REV       instead, compare the provider built from git REV
#                        ("before") with this tree ("after"), taking turns
#                        phase by phase for BENCH_ROUNDS (2) rounds
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

version=${VERSION:-0.1.0}
if [ -n "${BENCH_PROFILE:-}" ]; then
  export PIPELINE_BUILD_TAGS=benchprofile BENCH_KEEP=1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-bench.XXXXXX")
cleanup() {
  pipeline_stop_localapi
  if [ -d "$work/base-tree" ]; then git -C "$pipeline_root" worktree remove --force "$work/base-tree"; fi
  if [ -n "${BENCH_KEEP:-}" ]; then echo "==> kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "==> building the provider into a filesystem mirror, the launcher and the benchmark" >&2
pipeline_install_mirror "$work" "$version"
# The mirror gets the launcher, which runs the real provider as its child
# and reports its peak RSS when it exits (scripts/bench/launcher).
mkdir -p "$work/bin"
mv "$PIPELINE_PROVIDER_BIN" "$work/bin/terraform-provider-pipeline"
export BENCH_PROVIDER_BIN="$work/bin/terraform-provider-pipeline"
# The plugin floor: the smallest framework provider (scripts/bench/nullprovider).
(cd "$pipeline_root" && go build -o "$PIPELINE_PROVIDER_BIN" ./scripts/bench/launcher &&
  go build -o "$(pipeline_mirror_path "$work" benchnull "$version")" ./scripts/bench/nullprovider &&
  go build -o "$work/bin/bench" ./scripts/bench)

report="$work/report.md"
{
  echo "## Benchmark $(date -u +%Y-%m-%d)"
  echo
  echo "- machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM"
  echo "- $(terraform version | head -n 1), $(go version | cut -d' ' -f3), provider $version"
  echo "- local API in memory on loopback, key phx_local_full, project 1; terraform -parallelism=10 (default)"
} >"$report"
cat "$report"

if [ -n "${BENCH_BASE:-}" ]; then
  echo "==> building the provider at $BENCH_BASE" >&2
  base_tree="$work/base-tree"
  git -C "$pipeline_root" worktree add --detach "$base_tree" "$BENCH_BASE" >/dev/null
  (cd "$base_tree" && go build -ldflags "-s -w -X main.version=$version" -o "$work/bin/base-provider" .)
  git -C "$pipeline_root" worktree remove --force "$base_tree"
fi

for n in ${BENCH_N:-100 1000}; do
  if [ -n "${BENCH_BASE:-}" ]; then
    echo "==> N=$n: $BENCH_BASE against this tree, on a fresh local API" >&2
    pipeline_start_localapi "$work" -debug-routes
    POSTHOG_HOST="$LOCALAPI_URL" POSTHOG_API_KEY=phx_local_full POSTHOG_PROJECT_ID=1 \
      "$work/bin/bench" -scenario compare -n "$n" -url "$LOCALAPI_URL" -work "$work/n$n" -rpm "${BENCH_RPM-0}" \
      -plan-repeat "${BENCH_PLAN_REPEAT:-3}" -rounds "${BENCH_ROUNDS:-2}" \
      -base-bin "$work/bin/base-provider" -base-label "$BENCH_BASE ($(git -C "$pipeline_root" rev-parse --short "$BENCH_BASE"))" \
      -cand-bin "$BENCH_PROVIDER_BIN" -cand-label "this tree ($(git -C "$pipeline_root" describe --always --dirty))" | tee -a "$report"
    pipeline_stop_localapi
    continue
  fi
  echo "==> N=$n: starting a fresh local API" >&2
  pipeline_start_localapi "$work" -debug-routes
  POSTHOG_HOST="$LOCALAPI_URL" POSTHOG_API_KEY=phx_local_full POSTHOG_PROJECT_ID=1 \
    "$work/bin/bench" -n "$n" -url "$LOCALAPI_URL" -work "$work/n$n" \
    -rpm "${BENCH_RPM-0}" -plan-repeat "${BENCH_PLAN_REPEAT:-3}" ${BENCH_PROFILE:+-profile} | tee -a "$report"
  pipeline_stop_localapi
done

if [ -n "${BENCH_OUT:-}" ]; then
  cp "$report" "$BENCH_OUT"
  echo "==> report written to $BENCH_OUT" >&2
fi
