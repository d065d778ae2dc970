#!/usr/bin/env python3
"""Writes the binary-plist fixtures with CPython's plistlib, each beside an XML twin.

Run from this folder: python3 make.py. The output is deterministic; the files are committed so
the tests need no Python. The reader must give the same tree for each .bplist.plist as for its
.xml.plist twin.
"""
import datetime
import plistlib

shared = ["com.example.shared.a", "com.example.shared.b"]

fixtures = {
    "ids": [
        "com.example.game.coins100",
        "com.example.game.coins500",
        "com.example.game.removeads",
        "com.example.game.pro.monthly",
    ],
    "types": {
        "ascii": "plain",
        "unicode": "Münzen 100 ✓ 日本語",
        "emoji": "💎 gems",
        "empty": "",
        "long": "a string longer than fifteen characters",
        "zero": 0,
        "small": 7,
        "byte": 255,
        "short": 256,
        "word": 65536,
        "big": 2**32,
        "negative": -1,
        "min": -(2**63),
        "max": 2**63 - 1,
        "umax": 2**64 - 1,
        "price": 0.99,
        "precise": 1234.5678,
        "yes": True,
        "no": False,
        "when": datetime.datetime(2026, 11, 23, 10, 33, 33),
        "bytes": b"\x00\x01\x02 binary",
        "nested": {"list": [1, "two", 3.5, [], {}], "inner": {"deep": [[["x"]]]}},
        "many": list(range(40)),
    },
    "shared": {"first": shared, "second": shared, "again": [shared, shared]},
    "uid": {"$top": {"root": plistlib.UID(5)}, "$objects": ["$null", plistlib.UID(1)]},
}

# A whole catalog, binary and XML, in the shapes iap reads (catalogs/FakeGame's layout).
catalog = {
    "IAP_ProductIDs": ["com.binarydemo.coins100", "com.binarydemo.removeads"],
    "Info": {"CFBundleIdentifier": "com.binarydemo", "CFBundleName": "Binary"},
    "Metadata": {
        "IAPCatalogMetadata": 1,
        "products": {
            "com.binarydemo.coins100": {
                "kind": "consumable",
                "referenceName": "100 Coins",
                "price": "0.99",
                "currency": "USD",
                "familyShareable": False,
                "localizations": {"en-US": {"displayName": "100 Coins", "description": "A pouch of coins."}},
            },
            "com.binarydemo.removeads": {
                "kind": "non-consumable",
                "referenceName": "Remove Ads",
                "price": "2.99",
                "currency": "USD",
                "familyShareable": True,
                "localizations": {"en-US": {"displayName": "Remove Ads", "description": "No more banners."}},
            },
        },
    },

}

import os

for folder, fmt in [("catalog", plistlib.FMT_BINARY), ("catalog-xml", plistlib.FMT_XML)]:
    os.makedirs(folder, exist_ok=True)
    for name, value in catalog.items():
        with open(f"{folder}/{name}.plist", "wb") as f:
            plistlib.dump(value, f, fmt=fmt, sort_keys=False)

for name, value in fixtures.items():
    with open(f"{name}.bplist.plist", "wb") as f:
        plistlib.dump(value, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
    if name != "uid":
        with open(f"{name}.xml.plist", "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_XML, sort_keys=False)
