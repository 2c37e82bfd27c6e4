#!/usr/bin/env bash
# make demo: build the provider and the local API, start the API, install the
# provider into a filesystem mirror so a plain `terraform init` works offline,
# apply examples/demo, show the result, prove the next plan is empty, destroy,
# and stop the server. Everything lives in a temporary directory.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=${VERSION:-0.1.0}
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-demo.XXXXXX")
server_pid=""

cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -INT "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n==> %s\n' "$*"; }

step "Building the provider and the local API"
platform="$(go env GOOS)_$(go env GOARCH)"
mirror="$work/mirror"
plugin_dir="$mirror/registry.terraform.io/pipelinecfg/pipeline/$version/$platform"
mkdir -p "$plugin_dir" "$work/bin" "$work/config"
(cd "$root" && go build -ldflags "-s -w -X main.version=$version" \
  -o "$plugin_dir/terraform-provider-pipeline_v$version" .)
(cd "$root" && go build -o "$work/bin/localapi" ./internal/localapi/cmd/localapi && go build -o "$work/bin/summarize" ./scripts/summarize)

step "Starting the local API"
"$work/bin/localapi" -addr 127.0.0.1:0 >"$work/localapi.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 100); do
  first=$(head -n 1 "$work/localapi.log" 2>/dev/null || true)
  case "$first" in
    "listening "*) url=${first#listening }; break ;;
  esac
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/localapi.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "local API did not start" >&2; cat "$work/localapi.log" >&2; exit 1; }
echo "local API at $url"

# Offline installation: the provider comes from the mirror, nothing else is
# fetched, and no dev_overrides are involved.
cat >"$work/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/pipelinecfg/pipeline"]
  }
  direct {
    exclude = ["registry.terraform.io/pipelinecfg/pipeline"]
  }
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc"
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
export POSTHOG_HOST="$url" POSTHOG_API_KEY=phx_local_full POSTHOG_PROJECT_ID=1
cp "$root"/examples/demo/*.tf "$work/config/"
tf() { terraform -chdir="$work/config" "$@"; }

step "terraform init (offline, from the filesystem mirror)"
tf init -input=false -no-color | grep -E "Installing|Installed|initialized" || true

step "terraform apply"
tf apply -input=false -auto-approve -no-color

step "What the API holds now"
for collection in pipeline_transformation_configs pipeline_import_apps_configs; do
  echo "$collection:"
  curl -fsS -H "Authorization: Bearer $POSTHOG_API_KEY" \
    "$url/api/projects/1/$collection/" |
    "$work/bin/summarize"
done

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

step "Done: the demo's configs are soft-deleted on the API and the server stops"
