#!/usr/bin/env bash
# make fuzz: the generated scenarios (internal/scenario, TestScenarios) for
# as long as FUZZ_TIME says (default 10m), in rounds of FUZZ_CHECKS
# scenarios (default 1000), each round with a new seed that it prints. A
# failure stops it and prints the minimal scenario (its configuration as
# HCL, the plugin catalog, the steps) and how to replay it:
#   go test ./internal/scenario -run '^TestScenarios$' -rapid.seed=SEED
# or with the fail file rapid writes under internal/scenario/testdata/rapid.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${FUZZ_TIME:-10m}
checks=${FUZZ_CHECKS:-1000}

seconds() {
  local d=$1
  case $d in
  *h) echo $((${d%h} * 3600)) ;;
  *m) echo $((${d%m} * 60)) ;;
  *s) echo "${d%s}" ;;
  *) echo "$d" ;;
  esac
}
deadline=$(($(date +%s) + $(seconds "$duration")))
go test -c -o "${TMPDIR:-/tmp}/scenario.test" ./internal/scenario
trap 'rm -f "${TMPDIR:-/tmp}/scenario.test"' EXIT
round=0
while (($(date +%s) < deadline)); do
  round=$((round + 1))
  seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
  echo "fuzz: round $round, $checks scenarios, -rapid.seed=$seed"
  (cd internal/scenario && "${TMPDIR:-/tmp}/scenario.test" -test.run '^TestScenarios$' -test.count=1 \
    -test.timeout 0 -rapid.checks="$checks" -rapid.seed="$seed") | grep -v '^\s*$' | tail -n 3
  if [[ ${PIPESTATUS[0]} != 0 ]]; then
    echo "fuzz: round $round failed; replay with: go test ./internal/scenario -run '^TestScenarios\$' -rapid.seed=$seed" >&2
    exit 1
  fi
done
echo "fuzz: $round rounds of $checks scenarios held"
