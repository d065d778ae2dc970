#!/usr/bin/env bash
# Builds issue 22's hostile inputs (docs/robustness.md, ## Budgets) in WORK and runs iap on each,
# printing the input's size, iap's peak resident memory and elapsed time (GNU time's %M and %e,
# the child's own wait4 figures) and its exit status, or the signal that ended it.
#
#   scripts/budgets.sh WORK [IAP] [SCALE]
#
# IAP defaults to .build/release/iap. SCALE (default 1) multiplies the inputs that grow: run it
# with 1 and with 10 to see that time and memory grow linearly. Sparse files need a file system
# that has them; WORK needs about 1.5 GB free. Nothing here needs the network.
set -uo pipefail
work=${1:?usage: scripts/budgets.sh WORK [IAP] [SCALE]}
iap=${2:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/iap}
scale=${3:-1}
iap=$(cd "$(dirname "$iap")" && pwd)/$(basename "$iap")
[[ -x /usr/bin/time ]] || { echo "budgets.sh needs GNU time (/usr/bin/time)" >&2; exit 64; }
command -v python3 >/dev/null || { echo "budgets.sh needs python3 to write the inputs" >&2; exit 64; }
mkdir -p "$work" && cd "$work" || exit 2

python3 - "$scale" <<'PY'
import gzip, json, os, struct, sys
scale = int(sys.argv[1])
def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    open(path, "w").write(text)
# 1. A binary plist whose references all name one string: object 0 a string of S bytes, object 1
#    (the top) an array of N one-byte references to it.
def shared(s, n, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    body = bytearray(b"bplist00"); offsets = [8]
    body += bytes([0x5F, 0x12]) + struct.pack(">I", s) + b"a" * s
    offsets.append(len(body)); body += bytes([0xAF, 0x12]) + struct.pack(">I", n) + bytes(n)
    table = len(body)
    for o in offsets: body += struct.pack(">I", o)
    body += bytes(6) + bytes([4, 1]) + struct.pack(">QQQ", 2, 1, table)
    open(path, "wb").write(body)
shared(50_000 * scale, 50_000 * scale, "shared/Settings.plist")
write("shared/IAP_ProductIDs.plist", "<plist><array><string>com.acme.app.coins</string></array></plist>\n")
write("catalog/IAP_ProductIDs.plist", "<plist><array><string>com.acme.app.coins</string></array></plist>\n")
# 2. A stale generated file: written by the caller with iap gen, then every line changed.
write("stale/IAP_ProductIDs.plist", "<plist><array>\n" + "".join(
    "<string>com.acme.app.product%06d</string>\n" % i for i in range(10_000 * scale)) + "</array></plist>\n")
# 3. A product ID of 30 MB (× scale).
os.makedirs("longid", exist_ok=True)
with open("longid/IAP_ProductIDs.plist", "w") as f:
    f.write("<plist><array><string>com.acme.app.")
    for _ in range(30 * scale): f.write("a" * (1 << 20))
    f.write("</string></array></plist>\n")
# 4. A .storekit file of 2,000 subscription groups (× scale).
groups = [{"id": "G%d" % g, "name": "Group %d" % g, "localizations": [{"description": "Group %d" % g, "displayName": "Group %d" % g, "locale": "en_US"}],
           "subscriptions": [{"displayPrice": "4.99", "familyShareable": False, "groupNumber": 1, "internalID": "S%d" % g,
                              "localizations": [{"description": "Monthly %d" % g, "displayName": "Monthly %d" % g, "locale": "en_US"}],
                              "productID": "com.acme.app.group%d.monthly" % g, "recurringSubscriptionPeriod": "P1M",
                              "referenceName": "Monthly %d" % g, "subscriptionGroupID": "G%d" % g, "type": "RecurringSubscription"}]}
          for g in range(2000 * scale)]
write("groups/Groups.storekit", json.dumps({"products": [], "subscriptionGroups": groups, "version": {"major": 4, "minor": 0}}, indent=2))
# 5. A gzip file of 1 GiB of newlines (about 1 MB; × scale, past the 1 GiB limit from 2).
os.makedirs("gzip", exist_ok=True)
with gzip.open("gzip/S_D_80012345_20261102.txt.gz", "wb", compresslevel=9) as f:
    chunk = b"\n" * (1 << 20)
    for _ in range(1024 * scale): f.write(chunk)
# 6. Objective-C: 4,000 nested format messages (× scale).
n = 4000 * scale
write("objc/Shop.m", "#import <StoreKit/StoreKit.h>\n@implementation Shop\n- (void)show {\n    label.text = "
      + '[NSString stringWithFormat:@"%@",' * n + " price" + "]" * n + ";\n}\n@end\n")
# 7. Values past an Int: sales units, baseline counts, an offer's periods, a binary-plist date.
header = "\t".join(["SKU", "Product Type Identifier", "Units", "Developer Proceeds", "Begin Date", "Customer Currency",
                    "Country Code", "Currency of Proceeds", "Customer Price"])
row = "com.a.coins\tIA1\t999999999999999999\t0.70\t11/02/2026\tUSD\tUS\tUSD\t0.99"
write("units/S_D_80012345_20261102.txt", "\n".join([header] + [row] * 10) + "\n")
entry = '{"rule": "undeclared-kind", "path": "x", "subject": "%s", "count": 9223372036854775807}'
write("baseline.json", '{"version": 1, "findings": [%s, %s]}' % (entry % "s", entry % "t"))
write("offer/Offers.storekit", json.dumps({"products": [], "version": {"major": 4, "minor": 0}, "subscriptionGroups": [{
    "id": "G", "name": "Pro", "subscriptions": [{"displayPrice": "4.99", "productID": "com.acme.app.pro.monthly", "recurringSubscriptionPeriod": "P1M",
    "referenceName": "Pro", "type": "RecurringSubscription", "introductoryOffer": {"displayPrice": "0.99", "numberOfPeriods": 9223372036854775807,
    "paymentMode": "payUpFront", "subscriptionPeriod": "P2Y"}}]}]}, indent=2))
seconds = struct.pack(">d", 1e300)
open("date.plist", "wb").write(b"bplist00" + bytes([0x33]) + seconds + bytes([8]) + bytes(6) + bytes([1, 1])
                               + struct.pack(">QQQ", 1, 0, 17))
PY
# 3. Sparse files past the 1 GiB limit: a .storekit, and an Info.plist in a walked folder.
rm -f huge.storekit && truncate -s 2G huge.storekit
mkdir -p info && cp catalog/IAP_ProductIDs.plist info/ && rm -f info/Info.plist && truncate -s 1100M info/Info.plist
"$iap" gen stale -o stale/ProductID.swift >/dev/null 2>&1 && sed -i 's/$/ /' stale/ProductID.swift

size() { du -b --apparent-size -s "$@" 2>/dev/null | awk '{s += $1} END {printf "%.0f", s}'; }
run() {
    local label=$1 input=$2; shift 2
    /usr/bin/time -f '%M %e %x' -o .time "$iap" "$@" >/dev/null 2>.stderr
    local kb secs status
    read -r kb secs status < <(tail -1 .time)
    grep -q 'signal' .time && status="signal $(grep -o 'signal [0-9]*' .time | head -1 | cut -d' ' -f2)"
    printf '%-46s %12s B %9.1f MB %8.2f s  exit %s\n' "$label" "$(size "$input")" "$(echo "$kb / 1024" | bc -l)" "$secs" "$status"
}
printf '%-46s %14s %12s %10s  %s\n' case input "peak RSS" time status
run "1 shared-string bplist: plist lint"       shared/Settings.plist  plist lint shared/Settings.plist
run "1 shared-string bplist in a walk"        shared                 validate shared --bundle-id com.acme.app
run "2 gen --check, 10,000 x SCALE stale"     stale                  gen stale -o stale/ProductID.swift --check
run "3 .storekit of 2 GiB (sparse)"           huge.storekit          validate huge.storekit
run "3 Info.plist of 1.1 GiB (sparse), walked" info                  validate info --bundle-id com.acme.app
run "3 a product ID of 30 MB (x SCALE)"       longid                 validate longid
run "4 .storekit of 2,000 groups (x SCALE)"    groups                 validate groups
run "5 gzip of 1 GiB x SCALE of newlines"     gzip                   report --sales gzip
run "6 nested stringWithFormat: (4,000 x SCALE)" objc                lint objc --catalog catalog
run "7 sales units past an Int"               units                  report --sales units
run "7 baseline counts past an Int"           baseline.json          validate catalog --baseline baseline.json --bundle-id com.acme.app
run "7 offer periods past an Int: price"      offer                  price --catalog offer
run "7 offer periods past an Int: report"     offer                  report offer --storefronts USA
run "7 binary-plist date of 1e300: print"     date.plist             plist print date.plist
