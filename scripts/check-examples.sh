#!/usr/bin/env bash
# Examples must be formatted the way `terraform fmt` writes them, and every
# example configuration must pass `terraform validate` against this provider
# (installed offline from a filesystem mirror).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$pipeline_root"

if ! out=$(terraform fmt -check -recursive -list=true examples); then
  echo "terraform fmt wants changes in:" >&2
  echo "$out" >&2
  echo "run: make fmt" >&2
  exit 1
fi
echo "examples: terraform fmt -check ok"

work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
pipeline_install_mirror "$work" 0.1.0

checked=0
for dir in examples/provider examples/demo examples/resources/* examples/data-sources/* examples/modules/*; do
  [ -d "$dir" ] || continue
  # Actions and list resources need Terraform 1.14 and are not validated by
  # older versions; import-by-identity needs 1.12. Docs-only files.
  files=$(find "$dir" -maxdepth 1 -name '*.tf' ! -name 'import-identity.tf' | sort)
  [ -n "$files" ] || continue
  copy="$work/check/$(echo "$dir" | tr / _)"
  mkdir -p "$copy"
  # shellcheck disable=SC2086
  cp $files "$copy/"
  if ! grep -q required_providers "$copy"/*.tf; then
    cat >"$copy/_providers.tf" <<'TF'
terraform {
  required_providers {
    pipeline = { source = "pipelinecfg/pipeline" }
  }
}
TF
  fi
  if ! terraform -chdir="$copy" init -input=false -backend=false -no-color >"$copy/init.log" 2>&1; then
    cat "$copy/init.log" >&2
    echo "examples: terraform init failed for $dir" >&2
    exit 1
  fi
  if ! terraform -chdir="$copy" validate -no-color >"$copy/validate.log" 2>&1; then
    cat "$copy/validate.log" >&2
    echo "examples: terraform validate failed for $dir" >&2
    exit 1
  fi
  checked=$((checked + 1))
done
echo "examples: terraform validate ok ($checked configurations)"
