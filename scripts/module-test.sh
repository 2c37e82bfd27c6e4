#!/usr/bin/env bash
# Runs `terraform test` for every module under examples/modules against the
# local API acting as today's PostHog, with the provider installed from a
# filesystem mirror (offline).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-module-test.XXXXXX")
trap 'pipeline_stop_localapi; rm -rf "$work"' EXIT

pipeline_install_mirror "$work" 0.1.0
pipeline_start_localapi "$work" -today
# A scoped key: what the module asks of the service must work without a
# legacy key.
export POSTHOG_HOST="$LOCALAPI_URL" POSTHOG_API_KEY=phx_local_write POSTHOG_PROJECT_ID=1

for module in "$pipeline_root"/examples/modules/*/; do
  name=$(basename "$module")
  # A copy, so .terraform and lock files never land in the repository.
  cp -r "$module" "$work/$name"
  terraform -chdir="$work/$name" init -input=false -no-color >/dev/null
  echo "module $name:"
  terraform -chdir="$work/$name" test -no-color
done
