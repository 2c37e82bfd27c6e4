#!/usr/bin/env bash
# scripts/goreleaser.sh
#
# Prints the absolute path of GoReleaser at the version the release workflow
# uses (.github/workflows/release.yml; scripts/releasecheck checks that they
# agree), building it from its Go module into the tools cache first when the
# cache lacks it. Only the path goes to stdout; progress to stderr.
#
# Cache: ${PIPELINE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-pipeline}
#        /goreleaser-<version>/goreleaser, beside scripts/tfbin.sh's tools.
# The first build downloads its modules (some 700 MB of module cache) and
# takes minutes; scripts/test.sh starts it in the background, and a caller
# that comes while it runs waits for it rather than building it again.
set -euo pipefail
version=v2.15.1

cache=${PIPELINE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-pipeline}
dir=$cache/goreleaser-${version#v}
out=$dir/goreleaser

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
  echo "goreleaser.sh: building goreleaser $version into $dir (the first time takes minutes)" >&2
  start=$SECONDS
  # GOFLAGS cleared: the repository's flags are not the tool's; its own
  # module's go.mod decides, outside this repository's.
  (cd "$tmp" && GOFLAGS= GOWORK=off GOBIN="$tmp" go install "github.com/goreleaser/goreleaser/v2@$version")
  mv -f "$tmp/goreleaser" "$out"
  echo "goreleaser.sh: built goreleaser $version in $((SECONDS - start))s" >&2
fi
echo "$out"
