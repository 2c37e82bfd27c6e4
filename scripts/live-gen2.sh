#!/usr/bin/env bash
# The acceptance suite in live mode against a service of generation 2, one
# that no longer creates configs: the local API command, as a process of its
# own, first at generation 1 on a -db file, where scripts/livegen2 seeds
# configs of both kinds through its HTTP API; then restarted at -generation 2
# on the same file. The suite runs with POSTHOG_HOST, POSTHOG_API_KEY and
# POSTHOG_PROJECT_ID pointing at it, PIPELINE_TEST_<KIND>_CONFIG_ID naming
# the seeded configs, and detects the generation itself: the tests of
# existing configs run, those that must create are skipped with that reason.
# Afterwards every seeded config must hold what it held before.
#
#   scripts/live-gen2.sh [COMMAND ARGS...]
#
# runs COMMAND in that environment (make test passes its go test); without
# one, TF_ACC=1 go test -p 1 -count=1 -run '^TestAcc' ./... . Packages run
# one at a time (-p 1): their tests share the seeded configs, as they would
# share the configs of a real live instance. Its messages go to stderr, so
# that stdout is the command's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$pipeline_root"

work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-live-gen2.XXXXXX")
trap 'pipeline_stop_localapi; rm -rf "$work"' EXIT
say() { echo "live-gen2: $*" >&2; }

go build -o "$work/bin/livegen2" ./scripts/livegen2
pipeline_start_localapi "$work" -db "$work/pipeline.db" -generation 1
say "seeding configs at generation 1 ($LOCALAPI_URL)"
"$work/bin/livegen2" seed -host "$LOCALAPI_URL" -snapshot "$work/before.json" >"$work/ids.env"
pipeline_stop_localapi

pipeline_start_localapi "$work" -db "$work/pipeline.db" -generation 2
say "the same database at generation 2 ($LOCALAPI_URL): $(tr '\n' ' ' <"$work/ids.env")"
set -a
# shellcheck disable=SC1091
. "$work/ids.env"
set +a
export POSTHOG_HOST=$LOCALAPI_URL POSTHOG_API_KEY=phx_local_full POSTHOG_PROJECT_ID=1
# The key is a legacy one; the plugins are the local API's (the tests that
# would create configs of them skip at generation 2).
export PIPELINE_ACC_LEGACY_KEY=1 PIPELINE_ACC_TRANSFORMATION_PLUGINS=1,2 PIPELINE_ACC_IMPORT_APP_PLUGINS=3,4
unset POSTHOG_SERVICE_GENERATION

status=0
if [[ $# -gt 0 ]]; then
  "$@" || status=$?
else
  TF_ACC=1 go test -p 1 -count=1 -run '^TestAcc' ./... || status=$?
fi
"$work/bin/livegen2" check -host "$LOCALAPI_URL" -snapshot "$work/before.json" || status=1
exit $status
