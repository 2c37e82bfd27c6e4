#!/usr/bin/env bash
# make demo: build the provider and the local API, start the API, install the
# provider into a filesystem mirror so a plain `terraform init` works offline,
# apply examples/demo, show the result, prove the next plan is empty, destroy,
# and stop the server. Everything lives in a temporary directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

version=${VERSION:-0.1.0}
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-demo.XXXXXX")
trap 'pipeline_stop_localapi; rm -rf "$work"' EXIT

step() { printf '\n==> %s\n' "$*"; }

step "Building the provider into a local filesystem mirror, and the local API"
pipeline_install_mirror "$work" "$version"
(cd "$pipeline_root" && go build -o "$work/bin/summarize" ./scripts/summarize)

step "Starting the local API"
pipeline_start_localapi "$work"
echo "local API at $LOCALAPI_URL"

export POSTHOG_HOST="$LOCALAPI_URL" POSTHOG_API_KEY=phx_local_full POSTHOG_PROJECT_ID=1
mkdir -p "$work/config"
cp "$pipeline_root"/examples/demo/*.tf "$work/config/"
tf() { terraform -chdir="$work/config" "$@"; }

show_api() {
  for collection in pipeline_transformation_configs pipeline_import_apps_configs; do
    echo "$collection:"
    curl -fsS -H "Authorization: Bearer $POSTHOG_API_KEY" \
      "$LOCALAPI_URL/api/projects/1/$collection/" | "$work/bin/summarize"
  done
}

step "terraform init (offline, from the filesystem mirror)"
tf init -input=false -no-color | grep -E "Installing|Installed|initialized" || true

step "terraform apply"
tf apply -input=false -auto-approve -no-color

step "What the API holds now"
show_api

step "A second plan is empty"
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

step "terraform destroy"
tf destroy -input=false -auto-approve -no-color | tail -n 1

step "What the API holds after destroy: the configs are deleted (and disabled)"
show_api
