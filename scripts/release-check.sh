#!/usr/bin/env bash
# make release-check (part of make checks): a tag would release what the
# Terraform Registry expects. scripts/releasecheck checks that the manifest,
# .goreleaser.yml and the workflows agree with each other and with the
# provider (protocol 6, archive and binary names, platforms, the signing
# key, the files and make targets the workflows name, the test matrix's
# versions); actionlint checks the workflows' syntax and expressions; then
# `goreleaser check` validates .goreleaser.yml itself, with the GoReleaser
# the release workflow runs. Both tools come from scripts/gotool.sh: cached
# after their first build, which scripts/test.sh starts in the background.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./scripts/releasecheck
# -shellcheck= : the same verdict whether or not shellcheck is installed.
"$(scripts/gotool.sh actionlint)" -shellcheck= .github/workflows/*.yml
echo "release-check: actionlint found nothing in .github/workflows"
"$(scripts/gotool.sh goreleaser)" check .goreleaser.yml
