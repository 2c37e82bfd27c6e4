#!/usr/bin/env bash
# golangci-lint with the repository's .golangci.yml. Uses an installed
# golangci-lint of the pinned version (on PATH or where `go install` puts
# binaries) when there is one, else installs it through the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
want=v2.15.0

# is_wanted BIN: BIN runs and reports the pinned version.
is_wanted() {
  "$1" version 2>/dev/null | grep -qF "has version ${want#v} "
}

# Where `go install` puts binaries: GOBIN, else the first GOPATH entry's bin.
gobin=$(go env GOBIN)
if [ -z "$gobin" ]; then
  gopath=$(go env GOPATH)
  gobin=${gopath%%:*}/bin
fi

bin=
for b in "$(command -v golangci-lint || true)" "$gobin/golangci-lint"; do
  if [ -n "$b" ] && is_wanted "$b"; then
    bin=$b
    break
  fi
done
if [ -z "$bin" ]; then
  echo "lint.sh: installing golangci-lint $want into $gobin" >&2
  # GOFLAGS cleared: the repository's flags (e.g. -mod) are not the tool's.
  GOFLAGS= GOBIN="$gobin" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$want"
  bin=$gobin/golangci-lint
  if ! is_wanted "$bin"; then
    echo "lint.sh: $bin does not report version $want" >&2
    exit 1
  fi
fi
"$bin" run ./...
# The provider's benchmark build (profile_bench.go).
"$bin" run --build-tags benchprofile .
