#!/usr/bin/env bash
# Regenerates the documentation that is generated from the rules' descriptions:
#   docs/rules.md                 iap rules --format reference
#   the table in docs/commands.md iap rules --format markdown (between its two markers)
# ReadmeTests fails until both match; run this after adding or changing a rule, then review the diff.
# The console examples of README.md and docs/*.md are not rewritten: ReadmeTests shows what a
# changed example prints, and a person decides whether the change is the one intended.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product iap >/dev/null
iap="$(swift build --show-bin-path)/iap"

"$iap" rules --format reference > docs/rules.md

table=$(mktemp)
trap 'rm -f "$table"' EXIT
"$iap" rules --format markdown > "$table"
begin='<!-- begin: iap rules --format markdown -->'
end='<!-- end: iap rules --format markdown -->'
grep -qxF "$begin" docs/commands.md && grep -qxF "$end" docs/commands.md || {
    echo "update-docs: docs/commands.md lacks the markers around the rules table" >&2
    exit 1
}
awk -v begin="$begin" -v end="$end" -v table="$table" '
    $0 == begin { print; print ""; while ((getline line < table) > 0) print line; print ""; skipping = 1; next }
    $0 == end { skipping = 0 }
    !skipping { print }
' docs/commands.md > docs/commands.md.new
mv docs/commands.md.new docs/commands.md
echo "update-docs: wrote docs/rules.md and the rules table in docs/commands.md"
