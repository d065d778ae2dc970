#!/usr/bin/env python3
"""`iap asc plan` offline on N products against `iap validate` of the same catalog, same run.

Writes a metadata plist of N consumables (a USD price, two localizations each) and the snapshot of
an app that has none of them, then times each command (median of --runs) and prints the ratio.
Usage: python3 Benchmarks/plan_bench.py .build/release/iap [N] [--runs K]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    iap = args[0]
    count = int(args[1]) if len(args) > 1 else 10000
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    folder = tempfile.mkdtemp(prefix="iap-plan-bench-")
    catalog = os.path.join(folder, "Catalog")
    os.makedirs(catalog)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>IAPCatalogMetadata</key><integer>1</integer>'
             '<key>bundleID</key><string>com.acme.big</string><key>products</key><dict>']
    for i in range(count):
        parts.append('<key>com.acme.big.p%d</key><dict><key>kind</key><string>consumable</string><key>referenceName</key><string>P %d</string>'
                     '<key>price</key><string>0.99</string><key>currency</key><string>USD</string><key>localizations</key><dict>'
                     '<key>en-US</key><dict><key>displayName</key><string>P%d</string><key>description</key><string>d</string></dict>'
                     '<key>de-DE</key><dict><key>displayName</key><string>P%d</string></dict></dict></dict>' % (i, i, i, i))
    parts.append('</dict></dict></plist>')
    with open(os.path.join(catalog, "Metadata.plist"), "w") as handle:
        handle.write("".join(parts))
    snapshot = os.path.join(folder, "app.snapshot.json")
    with open(snapshot, "w") as handle:
        json.dump({"format": "iap-asc-snapshot", "version": 1, "app": {"id": "1500000000"},
                   "inAppPurchases": [], "subscriptionGroups": []}, handle)
    commands = {
        "validate": [iap, "validate", catalog],
        "asc plan": [iap, "asc", "plan", "--snapshot", snapshot, catalog, "--plan", os.path.join(folder, "plan.json")],
    }
    times = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) for name, values in times.items()}
    steps = json.load(open(os.path.join(folder, "plan.json")))["steps"]
    for name, value in medians.items():
        print("%-9s %.3f s (median of %d)" % (name, value, runs))
    print("%d products, %d steps; plan / validate = %.2f" % (count, len(steps), medians["asc plan"] / medians["validate"]))


if __name__ == "__main__":
    main()
