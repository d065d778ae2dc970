#!/usr/bin/env bash
# Runs `iap validate .` and `iap lint .` at the root of each app repository under REPOS (one folder
# per repository, checked out at the commit docs/accuracy.md names) and prints, per repository,
# validate's exit status and summary, and lint's findings per rule. Every finding is written to
# OUT/<repo>.lint.txt for review.
#
# With --check, each repository is also copied to a temporary folder (the checkout is never
# written to) where `iap init` then `iap check` run, as a new user's first two commands; their
# output goes to OUT/<repo>.init.txt and OUT/<repo>.check.txt, the iap.yml init wrote to
# OUT/<repo>.iap.yml, and the table gains their exit statuses.
#
#   scripts/accuracy.sh [--check] REPOS OUT [IAP]
#
# IAP defaults to .build/release/iap. Nothing here builds or runs the repositories' own code.
set -uo pipefail
check=false
if [ "${1:-}" = --check ]; then check=true; shift; fi
usage='usage: scripts/accuracy.sh [--check] REPOS OUT [IAP]'
repos=${1:?$usage}
out=${2:?$usage}
iap=${3:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/iap}
iap=$(cd "$(dirname "$iap")" && pwd)/$(basename "$iap")
mkdir -p "$out"
out=$(cd "$out" && pwd)
if $check; then
    printf '%-40s %-10s %-7s %-7s %-7s %s\n' repository validate lint init check "lint findings per rule"
else
    printf '%-40s %-10s %s\n' repository validate "lint findings per rule"
fi
for dir in "$repos"/*/; do
    name=$(basename "$dir")
    (cd "$dir" && "$iap" validate . >"$out/$name.validate.txt" 2>&1)
    status=$?
    (cd "$dir" && "$iap" lint . >"$out/$name.lint.txt" 2>&1)
    lint_status=$?
    rules=$(grep -oE '\[[a-z-]+\]$' "$out/$name.lint.txt" | sort | uniq -c | awk '{printf "%s %s  ", $2, $1}')
    if ! $check; then
        printf '%-40s exit %-5s %s\n' "$name" "$status" "${rules:-none}"
        continue
    fi
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/iap-accuracy.XXXXXX")
    cp -R "$dir" "$scratch/$name"
    (cd "$scratch/$name" && "$iap" init >"$out/$name.init.txt" 2>&1)
    init_status=$?
    cp "$scratch/$name/iap.yml" "$out/$name.iap.yml" 2>/dev/null || : >"$out/$name.iap.yml"
    (cd "$scratch/$name" && "$iap" check >"$out/$name.check.txt" 2>&1)
    check_status=$?
    rm -rf "$scratch"
    printf '%-40s exit %-5s %-7s %-7s %-7s %s\n' "$name" "$status" "$lint_status" "$init_status" \
        "$check_status" "${rules:-none}"
done
