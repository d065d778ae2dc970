#!/usr/bin/env python3
"""The peer of `iap storekit` in iap-bench: what a team would script to turn a metadata plist
into a StoreKit configuration file. plistlib reads it, json writes Xcode's layout (two-space
indent, sorted keys); no validation, no diagnostics, one storefront's prices (USD).

    python3 Benchmarks/storekit_from_plist.py Metadata.plist OUT.storekit
"""
import json
import plistlib
import sys
import zlib

KINDS = {"consumable": "Consumable", "non-consumable": "NonConsumable",
         "non-renewing": "NonRenewingSubscription", "auto-renewable": "RecurringSubscription"}
MODES = {"free-trial": "free", "pay-as-you-go": "payAsYouGo", "pay-up-front": "payUpFront"}


def hex_id(text):
    return "%08X" % zlib.crc32(text.encode())


def main(source, output):
    with open(source, "rb") as f:
        catalog = plistlib.load(f)
    products, non_renewing, groups = [], [], {}
    for pid, m in catalog["products"].items():
        entry = {
            "displayPrice": str(m.get("price", "0")),
            "familyShareable": bool(m.get("familyShareable", False)),
            "internalID": hex_id(pid),
            "localizations": [{"description": l.get("description", ""), "displayName": l.get("displayName", ""),
                               "locale": loc.replace("-", "_")} for loc, l in m.get("localizations", {}).items()],
            "productID": pid,
            "referenceName": m.get("referenceName", pid),
            "type": KINDS[m["kind"]],
        }
        if m["kind"] == "auto-renewable":
            group = groups.setdefault(m["subscriptionGroup"], [])
            intro = m.get("introductoryOffer")
            entry.update({
                "adHocOffers": [], "codeOffers": [], "winbackOffers": [],
                "groupNumber": m.get("groupLevel", len(group) + 1),
                "introductoryOffer": None if intro is None else {
                    "internalID": hex_id("intro" + pid), "paymentMode": MODES[intro["paymentMode"]],
                    "subscriptionPeriod": intro["period"]},
                "recurringSubscriptionPeriod": m["subscriptionPeriod"],
                "subscriptionGroupID": hex_id("group" + m["subscriptionGroup"]),
            })
            group.append(entry)
        elif m["kind"] == "non-renewing":
            non_renewing.append(entry)
        else:
            products.append(entry)
    document = {
        "identifier": hex_id(source),
        "nonRenewingSubscriptions": non_renewing,
        "products": products,
        "settings": {"_locale": "en_US", "_storefront": "USA"},
        "subscriptionGroups": [{"id": hex_id("group" + name), "localizations": [], "name": name, "subscriptions": subs}
                               for name, subs in groups.items()],
        "version": {"major": 4, "minor": 0},
    }
    with open(output, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2, sort_keys=True, ensure_ascii=False, separators=(",", " : "))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
