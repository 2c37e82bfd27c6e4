#!/usr/bin/env bash
# make test: the checks, then the tests once per tool we claim to support.
#
#   1. every test (unit and acceptance, TF_ACC=1) with the oldest Terraform
#      we support: the terraform on PATH (1.11);
#   2. the acceptance tests (TestAcc*) with the newest Terraform that builds
#      here, and
#   3. with OpenTofu; both built from their Go modules by scripts/tfbin.sh
#      (cached; the first build takes minutes, and runs in the background
#      while the checks and the first run go on);
#   and, after the first run, the acceptance tests in live mode against a
#   service of generation 2 (scripts/live-gen2.sh: the local API command,
#   seeded at generation 1 and restarted at 2; the tests of existing configs
#   run, those that create skip), with the terraform on PATH.
#
# Then testmatrix prints which versions ran what, and fails when a test was
# skipped in every run (a version-gated feature that no run exercised).
# TEST_TOOLS="newest tofu" chooses the extra runs ("" for none);
# TEST_LIVE_GEN2=0 leaves out the live run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
timeout=${TEST_TIMEOUT:-18m}
tools=${TEST_TOOLS-newest tofu}
live_gen2=${TEST_LIVE_GEN2:-1}

# A CLI configuration file that does not exist makes every command warn,
# and OpenTofu warns on stdout, in the way of version -json.
if [[ -n ${TF_CLI_CONFIG_FILE:-} && ! -e $TF_CLI_CONFIG_FILE ]]; then
  unset TF_CLI_CONFIG_FILE
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-test.XXXXXX")
builder=
cleanup() {
  # The builder leads a process group of its own (set -m below): kill the
  # group, so that a running tfbin.sh and its go build stop too.
  if [[ -n $builder ]]; then kill -- "-$builder" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The extra binaries, built one after the other in the background; each
# run starts as soon as its binary is there. The release check's tools come
# first: the checks' release-check waits for them (scripts/gotool.sh), and
# they are cached after their first build like the others. Job control puts the
# builder in a process group of its own, which cleanup kills as a whole.
if [[ -n $tools ]]; then
  set -m
  (
    for t in actionlint goreleaser; do scripts/gotool.sh $t >/dev/null || true; done # release-check says why
    for t in $tools; do
      case $t in
      newest) scripts/tfbin.sh terraform >"$work/bin-newest" ;;
      tofu) scripts/tfbin.sh tofu >"$work/bin-tofu" ;;
      *) echo "test.sh: unknown tool $t" >&2; exit 2 ;;
      esac
    done
  ) 2>"$work/build.log" &
  builder=$!
  set +m
fi

make --no-print-directory checks

go build -o "$work/testmatrix" ./scripts/testmatrix
oldest=$(command -v terraform)
# run LABEL BIN [-live] [PREFIX...] -- ARGS...: go test with the tool BIN
# (run by the command PREFIX, if any; -live: a run against a live instance,
# as the stream file records), reported as it goes.
run() {
  local label=$1 bin=$2 live=()
  shift 2
  if [[ $1 == -live ]]; then
    live=(-live)
    shift
  fi
  local prefix=()
  while [[ $1 != -- ]]; do
    prefix+=("$1")
    shift
  done
  shift
  TF_ACC=1 TF_ACC_TERRAFORM_PATH=$bin "${prefix[@]}" go test -count=1 -json -timeout "$timeout" "$@" 2>&1 |
    "$work/testmatrix" stream -label "$label" -tool "$bin" "${live[@]}" -out "$work/run-$label.json"
}

status=0
run oldest "$oldest" -- ./... || status=1
runs=("$work/run-oldest.json")
if [[ $live_gen2 != 0 ]]; then
  # Packages one at a time: their tests share the seeded configs.
  run live-gen2 "$oldest" -live scripts/live-gen2.sh -- -p 1 -run '^TestAcc' ./... || status=1
  runs+=("$work/run-live-gen2.json")
fi
# tool_path T: the binary of tool T, once the background build has it.
tool_path() {
  while [[ ! -s $work/bin-$1 ]]; do
    if ! kill -0 "$builder" 2>/dev/null && [[ ! -s $work/bin-$1 ]]; then
      cat "$work/build.log" >&2
      echo "test.sh: building $1 failed" >&2
      return 1
    fi
    sleep 1
  done
  cat "$work/bin-$1"
}
for t in $tools; do
  # The next tool builds while this one's run goes on.
  # A tool that did not build fails the suite, but the runs that finished
  # are still summarised below.
  if ! bin=$(tool_path "$t"); then
    status=1
    continue
  fi
  if [[ $t == tofu ]]; then
    # terraform-plugin-testing reattaches the in-process provider under this
    # address; OpenTofu resolves an unqualified provider to its own registry.
    export TF_ACC_PROVIDER_HOST=registry.opentofu.org TF_ACC_PROVIDER_NAMESPACE=hashicorp
  fi
  run "$t" "$bin" -- -run '^TestAcc' ./... || status=1
  runs+=("$work/run-$t.json")
done
grep -h '^tfbin: built' "$work/build.log" 2>/dev/null || true
"$work/testmatrix" check "${runs[@]}" || status=1
exit $status
