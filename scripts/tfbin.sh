#!/usr/bin/env bash
# scripts/tfbin.sh terraform|tofu
#
# Prints the absolute path of a terraform or tofu CLI built from its Go module
# by tools/terraform or tools/opentofu (see tools/README.md), building it first
# when the cache lacks it. Only the path goes to stdout; progress to stderr.
#
# Cache: ${PIPELINE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-pipeline}
#        /<tool>-<version>-<hash>/<tool>, <hash> covering the build module's
#        files and flags, so any change to tools/ builds anew.
# The version is the one tools/<module>/go.mod pins; to build another, bump
# the pin (tools/README.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

case ${1:-} in
terraform)
  moddir=$root/tools/terraform mainmod=github.com/hashicorp/terraform
  pkg=$mainmod
  ;;
tofu)
  moddir=$root/tools/opentofu mainmod=github.com/opentofu/opentofu
  pkg=$mainmod/cmd/tofu
  ;;
*)
  echo "usage: $0 terraform|tofu" >&2
  exit 2
  ;;
esac
bin=$1

# The pinned version, read from go.mod without running go (keeps the cached
# path fast).
version=$(awk -v m="$mainmod" '$1 == m { print $2; exit }' "$moddir/go.mod")

# dev=no drops the "-dev" prerelease suffix, as release builds do; -s -w and
# -trimpath keep the binary small and the link fast.
ldflags="-s -w -X $mainmod/version.dev=no"

# The key: the build module's go.mod, go.sum and scripts (the stand-ins'
# generator; not what it generates, should a local run have left it) plus
# the flags. Paths are relative so any checkout of the same files agrees.
hash=$({
  echo "$ldflags"
  cd "$moddir" &&
    find . \( -path ./standin/remote-state -o -path ./standin/legacy \) -prune -o \
      -type f \( -name go.mod -o -name go.sum -o -name '*.go' -o -name '*.sh' \) -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum
} | sha256sum | cut -c1-12)
cache=${PIPELINE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-pipeline}
dir=$cache/$bin-${version#v}-$hash
out=$dir/$bin

if [[ ! -x $out ]]; then
  mkdir -p "$dir"
  # One build at a time per key: parallel callers (e.g. test packages) wait
  # for the first instead of each spending minutes building the same thing.
  exec 9>"$dir/.lock"
  flock 9
fi
if [[ ! -x $out ]]; then
  # Build into the cache directory under a temporary name, then rename: an
  # interrupted build never leaves a broken binary at $out.
  tmp=$(mktemp "$dir/.$bin.XXXXXX")
  # Build in a scratch copy of the build module, where the stand-ins are
  # generated (they are not committed: nine copies of one template).
  scratch=$(mktemp -d)
  trap 'rm -rf "$tmp" "$scratch"' EXIT
  cp -R "$moddir/." "$scratch"
  work=$scratch
  if [[ -x $work/standin/generate.sh ]]; then
    "$work/standin/generate.sh"
  fi
  echo "tfbin: building $bin $version into $dir (takes minutes)" >&2
  start=$SECONDS
  (cd "$work" && GOWORK=off go build -trimpath -ldflags "$ldflags" -o "$tmp" "$pkg")
  mv -f "$tmp" "$out"
  echo "tfbin: built $bin $version in $((SECONDS - start))s" >&2
fi
echo "$out"
