#!/usr/bin/env bash
# golangci-lint with the repository's .golangci.yml. Uses an installed
# golangci-lint of the pinned version when there is one, else installs it
# through the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
want=v2.15.0
bin=$(go env GOPATH)/bin/golangci-lint
if ! "$bin" version 2>/dev/null | grep -q "${want#v}"; then
  GOFLAGS= go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$want"
fi
"$bin" run ./...
