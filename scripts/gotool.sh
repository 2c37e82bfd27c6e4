#!/usr/bin/env bash
# scripts/gotool.sh goreleaser|actionlint
#
# Prints the absolute path of a tool the release check runs, at its pinned
# version, building it from its Go module into the tools cache first when
# the cache lacks it. Only the path goes to stdout; progress to stderr.
#
#   goreleaser  the version the release workflow runs
#               (.github/workflows/release.yml; scripts/releasecheck checks
#               that they agree)
#   actionlint  checks the workflows' syntax and expressions
#
# Cache: ${PIPELINE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-pipeline}
#        /<tool>-<version>/<tool>, beside scripts/tfbin.sh's tools.
# GoReleaser's first build downloads some 700 MB of modules and takes
# minutes; scripts/test.sh starts it in the background, and a caller that
# comes while it runs waits for it rather than building it again.
set -euo pipefail

case ${1:-} in
goreleaser) pkg=github.com/goreleaser/goreleaser/v2 version=v2.15.1 ;;
actionlint) pkg=github.com/rhysd/actionlint/cmd/actionlint version=v1.7.12 ;;
*)
  echo "usage: $0 goreleaser|actionlint" >&2
  exit 2
  ;;
esac
tool=$1

cache=${PIPELINE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-pipeline}
dir=$cache/$tool-${version#v}
out=$dir/$tool

if [[ ! -x $out ]]; then
  mkdir -p "$dir"
  # One build at a time: a second caller waits for the first.
  exec 9>"$dir/.lock"
  flock 9
fi
if [[ ! -x $out ]]; then
  # Installed under a temporary GOBIN, then renamed: an interrupted build
  # never leaves a broken binary at $out.
  tmp=$(mktemp -d "$dir/.build.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "gotool: building $tool $version into $dir (takes a minute or more the first time)" >&2
  start=$SECONDS
  # GOFLAGS cleared: the repository's flags are not the tool's; its own
  # module's go.mod decides, outside this repository's.
  (cd "$tmp" && GOFLAGS= GOWORK=off GOBIN="$tmp" go install "$pkg@$version")
  mv -f "$tmp/$tool" "$out"
  echo "gotool: built $tool $version in $((SECONDS - start))s" >&2
fi
echo "$out"
