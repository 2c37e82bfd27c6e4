#!/usr/bin/env bash
# Examples must be formatted the way `terraform fmt` writes them.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! out=$(terraform fmt -check -recursive -list=true examples); then
  echo "terraform fmt wants changes in:" >&2
  echo "$out" >&2
  echo "run: make fmt" >&2
  exit 1
fi
echo "examples: terraform fmt -check ok"
