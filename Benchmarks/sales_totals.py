#!/usr/bin/env python3
"""The peer of `iap report --sales` in iap-bench: what a finance team would write.

Reads App Store Connect Summary Sales reports (tab-separated, plain or gzip) with the csv module
and sums units, customer price and proceeds per product and currency with decimal.Decimal.
"""
import csv
import gzip
import sys
from decimal import Decimal


def open_report(path):
    with open(path, "rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", newline="")
    return open(path, "r", encoding="utf-8", newline="")


def main(paths):
    totals = {}
    for path in paths:
        with open_report(path) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                units = int(row["Units"])
                key = (row["SKU"], row["Customer Currency"], row["Currency of Proceeds"])
                t = totals.setdefault(key, [0, 0, Decimal(0), Decimal(0)])
                n = abs(units)
                sign = -1 if units < 0 else 1
                if units < 0:
                    t[1] += n
                else:
                    t[0] += n
                t[2] += sign * n * abs(Decimal(row["Customer Price"]))
                t[3] += sign * n * abs(Decimal(row["Developer Proceeds"]))
    for (sku, currency, proceeds_currency), (sold, refunded, customer, proceeds) in sorted(totals.items()):
        print(f"{sku}\t{currency}\t{sold}\t{refunded}\t{customer}\t{proceeds_currency}\t{proceeds}")


if __name__ == "__main__":
    main(sys.argv[1:])
