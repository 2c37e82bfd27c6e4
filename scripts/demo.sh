#!/usr/bin/env bash
# make demo: the README's first example (examples/demo) against the local
# API acting as today's PostHog, which keeps the configs made before July
# 2025 but makes no new ones. Builds the provider into a filesystem mirror
# (so a plain `terraform init` works offline) and the local API; makes two
# configs as the 2024 service did, then restarts the API as today's service;
# applies the example (an import and a change), shows what the API holds,
# proves the next plan is empty, destroys, and cleans up. Everything lives
# in a temporary directory. Each step prints a line first, so that a slow
# first run never looks hung.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

version=${VERSION:-0.1.0}
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-demo.XXXXXX")
cleanup() {
  step "Cleaning up: stopping the local API, removing $work"
  pipeline_stop_localapi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n==> %s\n' "$*"; }

# With an empty module cache the first build downloads the modules: say so,
# since `go build` prints nothing while it does.
framework_version=$(awk '$1 == "github.com/hashicorp/terraform-plugin-framework" {print $2}' "$pipeline_root/go.mod")
if [ ! -d "$(go env GOMODCACHE)/github.com/hashicorp/terraform-plugin-framework@$framework_version" ]; then
  step "First run: downloading Go modules (about 400 MB, listed as they come), then building the provider and the local API (about 300 MB of build cache); about 8 minutes on 2 CPUs, later runs take seconds"
else
  step "Building the provider and the local API (a few minutes the first time, seconds later)"
fi
pipeline_install_mirror "$work" "$version"
(cd "$pipeline_root" && go build -o "$work/bin/summarize" ./scripts/summarize)

# The key PostHog users are told to make: plugin:read and plugin:write,
# limited to their project.
export POSTHOG_API_KEY=phx_local_write POSTHOG_PROJECT_ID=1

step "Starting the local API as PostHog was in 2024, and making two configs there"
pipeline_start_localapi "$work" -db "$work/pipeline.db" -today -generation 1
make_config() {
  curl -fsS -o /dev/null -H "Authorization: Bearer $POSTHOG_API_KEY" -H 'Content-Type: application/json' \
    -d "$1" "$LOCALAPI_URL/api/projects/1/pipeline_transformation_configs/"
}
make_config '{"plugin": 1, "name": "GeoIP enrichment", "order": 1}'
make_config '{"plugin": 2, "enabled": true, "order": 2}'
pipeline_stop_localapi

step "Restarting the local API as today's PostHog: the configs are kept, new ones are refused"
pipeline_start_localapi "$work" -db "$work/pipeline.db" -today
echo "local API at $LOCALAPI_URL"
export POSTHOG_HOST="$LOCALAPI_URL"

show_api() {
  curl -fsS -H "Authorization: Bearer $POSTHOG_API_KEY" \
    "$LOCALAPI_URL/api/projects/1/pipeline_transformation_configs/" | "$work/bin/summarize"
}
show_api

mkdir -p "$work/config"
cp "$pipeline_root"/examples/demo/*.tf "$work/config/"
tf() { terraform -chdir="$work/config" "$@"; }

step "terraform init (offline, from the filesystem mirror)"
tf init -input=false -no-color | grep -E "Installing|Installed|initialized" || true

step "terraform apply: import config 1, enable it, set its locale"
tf apply -input=false -auto-approve -no-color

step "What the API holds now"
show_api

step "Checking that the next plan is empty"
set +e
tf plan -input=false -detailed-exitcode -no-color >"$work/plan.log"
code=$?
set -e
if [ "$code" -ne 0 ]; then
  cat "$work/plan.log"
  echo "expected an empty plan (exit 0), got exit $code" >&2
  exit 1
fi
grep -E "No changes" "$work/plan.log"

step "terraform destroy: deletes config 1 on the service (a removed block would let it go instead)"
tf destroy -input=false -auto-approve -no-color | tail -n 1

step "What the API holds after destroy: config 1 is gone, the other is untouched"
show_api
