# Shared by the scripts that run the real terraform against the local API
# (demo, module tests, benchmarks). Source it; it defines functions only.
#
#   pipeline_install_mirror WORK VERSION  build the provider into a filesystem
#       mirror under WORK and point TF_CLI_CONFIG_FILE at a CLI config that
#       installs it from there (offline; no dev_overrides); sets
#       PIPELINE_PROVIDER_BIN to the installed binary. PIPELINE_BUILD_TAGS,
#       when set, are the provider's build tags. Every provider of the
#       pipelinecfg namespace comes from the mirror:
#   pipeline_mirror_path WORK TYPE VERSION  where a provider binary of that
#       type goes in the mirror
#   pipeline_start_localapi WORK [FLAGS]  build and start the local API; sets
#       LOCALAPI_URL and LOCALAPI_PID
#   pipeline_stop_localapi                stop it (SIGINT, then wait)

pipeline_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

pipeline_mirror_path() {
  local work=$1 type=$2 version=$3
  local dir="$work/mirror/registry.terraform.io/pipelinecfg/$type/$version/$(go env GOOS)_$(go env GOARCH)"
  mkdir -p "$dir"
  echo "$dir/terraform-provider-${type}_v$version"
}

pipeline_install_mirror() {
  local work=$1 version=$2
  local mirror="$work/mirror"
  PIPELINE_PROVIDER_BIN=$(pipeline_mirror_path "$work" pipeline "$version")
  (cd "$pipeline_root" && go build -tags "${PIPELINE_BUILD_TAGS:-}" \
    -ldflags "-s -w -X main.version=$version" -o "$PIPELINE_PROVIDER_BIN" .)
  cat >"$work/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/pipelinecfg/*"]
  }
  direct {
    exclude = ["registry.terraform.io/pipelinecfg/*"]
  }
}
RC
  export TF_CLI_CONFIG_FILE="$work/terraformrc"
  export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
}

pipeline_start_localapi() {
  local work=$1
  shift
  mkdir -p "$work/bin"
  (cd "$pipeline_root" && go build -o "$work/bin/localapi" ./internal/localapi/cmd/localapi)
  "$work/bin/localapi" -addr 127.0.0.1:0 "$@" >"$work/localapi.log" 2>&1 &
  LOCALAPI_PID=$!
  LOCALAPI_URL=""
  local first
  for _ in $(seq 1 100); do
    first=$(head -n 1 "$work/localapi.log" 2>/dev/null || true)
    case "$first" in
      "listening "*) LOCALAPI_URL=${first#listening }; return 0 ;;
    esac
    kill -0 "$LOCALAPI_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "the local API did not start:" >&2
  cat "$work/localapi.log" >&2
  return 1
}

pipeline_stop_localapi() {
  if [ -n "${LOCALAPI_PID:-}" ] && kill -0 "$LOCALAPI_PID" 2>/dev/null; then
    kill -INT "$LOCALAPI_PID" 2>/dev/null || true
    wait "$LOCALAPI_PID" 2>/dev/null || true
  fi
  LOCALAPI_PID=""
}
