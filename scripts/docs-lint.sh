#!/usr/bin/env bash
# Keeps docs/ readable by the people who use the provider: every page is
# short enough to read in minutes, and none speaks of how the provider or its
# tests work inside. Fails listing each page over its limit (with its count)
# and each line that uses an internal word.
#
#   scripts/docs-lint.sh [DIR]   (default: docs)
#
# Words are counted after the front matter (which repeats the description),
# generated schema and examples included: that is what a reader scrolls
# through. What is for contributors goes to DESIGN.md or PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-docs}

page_limit=900   # a resource, data source, list resource or action page; the index
guide_limit=1500 # a guide

# Internal words: extended regular expressions, matched case-insensitively.
# Each is what a user neither needs nor can act on; say the plain thing.
internal=(
  'private state'            # Terraform's plumbing: say what the plan shows
  'schema version'           # state upgrades happen by themselves
  '\blean\b'                 # "lean resource": the authors' word for a small schema
  '[0-9][0-9.,]* ?(bytes|KiB|MiB)\b' # state sizes, memory, answer sizes: contributors' figures
  '\bgenerations?\b'         # PostHog has no "generations": "PostHog since July 2025", "a self-hosted instance older than ..."
  '\bbench'                  # benchmarks and `make bench` belong in PERFORMANCE.md
  'allocations'              # Go benchmark tables
  'local API'                # the test service; users meet PostHog
  'acceptance test'          # how the suite works is for contributors
  'ModifyPlan|plan modifier' # framework internals
  '\b(one|two|a|[0-9]+) (GET|request)s? (per|for each|of each) (plugin|config|record|page|collection)' # request budgets
  '\bcosts? (no|one|a|[0-9]+) (more )?(GET|request)' # what an operation costs in requests
)

status=0
pages=0
while IFS= read -r -d '' page; do
  case "$page" in
    "$dir"/guides/*) limit=$guide_limit ;;
    *) limit=$page_limit ;;
  esac
  # Drop the front matter (from the first line `---` to the next).
  words=$(awk 'NR==1 && /^---$/ {fm=1; next} fm && /^---$/ {fm=0; next} !fm' "$page" | wc -w)
  pages=$((pages + 1))
  if [ "$words" -gt "$limit" ]; then
    echo "docs-lint: $page: $words words (limit $limit)" >&2
    status=1
  fi
done < <(find "$dir" -name '*.md' -print0 | sort -z)

for pattern in "${internal[@]}"; do
  if hits=$(grep -rniE "$pattern" "$dir" --include='*.md'); then
    while IFS= read -r hit; do
      echo "docs-lint: internal word /$pattern/: $hit" >&2
    done <<<"$hits"
    status=1
  fi
done

if [ "$status" -ne 0 ]; then
  echo "docs-lint: shorten the pages above or move the text to DESIGN.md / PERFORMANCE.md; say the internal words in users' terms (see scripts/docs-lint.sh)" >&2
  exit 1
fi
echo "docs-lint: $pages pages within their limits, no internal words"
