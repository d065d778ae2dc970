#!/usr/bin/env bash
# Regenerates everything in the tree that is generated, then shows what changed:
#   docs/rules.md                 iap rules --format reference
#   the table in docs/commands.md iap rules --format markdown (between its two markers)
#   every golden file             the tests below, with IAP_UPDATE_GOLDEN=1 (TestSupport's Golden)
#   README.md and docs/*.md       each console example's output and exit, and the numbers the prose
#                                 states about runs (ReadmeTests)
# The same tests without IAP_UPDATE_GOLDEN fail on a tree this script would change. Run it after
# changing a rule or an output, then read the diff: it is what users will see.
set -euo pipefail

# Every test class that calls Golden.check (UpdateDocsTests holds this list to the tests).
golden_tests='ReadmeTests|GeneratorTests|TemplateTests|ReporterTests|OtherCommandsEndToEndTests|ReportEndToEndTests|StoreKitEndToEndTests|ValidateEndToEndTests'

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

# The golden files first, then the docs, whose examples may read a golden file.
swift build --build-tests >/dev/null
for filter in "${golden_tests/ReadmeTests|/}" ReadmeTests; do
    IAP_UPDATE_GOLDEN=1 swift test --skip-build --filter "$filter" >/dev/null || {
        echo "update-docs: a test that writes generated files failed; run swift test --filter '$filter' to see why" >&2
        exit 1
    }
done
echo "update-docs: rewrote the golden files and the docs' examples and numbers; changed in docs/, README.md and Tests/ (your edits included):"
git status --short -- docs README.md Tests | sed 's/^/  /'

