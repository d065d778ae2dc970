#!/usr/bin/env bash
# Runs `iap validate .` and `iap lint .` at the root of each app repository under REPOS (one folder
# per repository, checked out at the commit docs/accuracy.md names) and prints, per repository,
# validate's exit status and summary, and lint's findings per rule. Every finding is written to
# OUT/<repo>.lint.txt for review.
#
#   scripts/accuracy.sh REPOS OUT [IAP]
#
# IAP defaults to .build/release/iap. Nothing here builds or runs the repositories' own code.
set -uo pipefail
repos=${1:?usage: scripts/accuracy.sh REPOS OUT [IAP]}
out=${2:?usage: scripts/accuracy.sh REPOS OUT [IAP]}
iap=${3:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/iap}
iap=$(cd "$(dirname "$iap")" && pwd)/$(basename "$iap")
mkdir -p "$out"
out=$(cd "$out" && pwd)
printf '%-40s %-10s %s\n' repository validate "lint findings per rule"
for dir in "$repos"/*/; do
    name=$(basename "$dir")
    (cd "$dir" && "$iap" validate . >"$out/$name.validate.txt" 2>&1)
    status=$?
    (cd "$dir" && "$iap" lint . >"$out/$name.lint.txt" 2>&1)
    rules=$(grep -oE '\[[a-z-]+\]$' "$out/$name.lint.txt" | sort | uniq -c | awk '{printf "%s %s  ", $2, $1}')
    printf '%-40s exit %-5s %s\n' "$name" "$status" "${rules:-none}"
done
