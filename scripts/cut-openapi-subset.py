#!/usr/bin/env python3
"""Cuts Apple's App Store Connect OpenAPI document down to the operations iap's fake App Store
Connect serves, with every component schema they reach; every kept object is unchanged.

    scripts/cut-openapi-subset.py WHOLE.json SUBSET.json

The operations are listed below; the result is written compact (no spaces), the paths in the
order listed, the schemas sorted by name, every other key in the source's order: byte for byte
../shared/schemas/app-store-connect-openapi-4.4.1-subset.json (sha256 225a3496…740a).
"""
import hashlib
import json
import sys

OPERATIONS = [
    "GET /v1/apps", "GET /v1/apps/{id}", "GET /v1/apps/{id}/inAppPurchasesV2", "GET /v1/apps/{id}/subscriptionGroups",
    "GET /v2/inAppPurchases/{id}", "GET /v2/inAppPurchases/{id}/inAppPurchaseLocalizations",
    "GET /v2/inAppPurchases/{id}/iapPriceSchedule", "GET /v2/inAppPurchases/{id}/pricePoints",
    "GET /v2/inAppPurchases/{id}/inAppPurchaseAvailability", "GET /v2/inAppPurchases/{id}/versions",
    "GET /v1/inAppPurchaseVersions/{id}", "GET /v1/inAppPurchaseVersions/{id}/localizations",
    "GET /v1/inAppPurchasePriceSchedules/{id}", "GET /v1/inAppPurchasePriceSchedules/{id}/manualPrices",
    "GET /v1/inAppPurchasePriceSchedules/{id}/automaticPrices", "GET /v1/inAppPurchasePriceSchedules/{id}/baseTerritory",
    "GET /v1/inAppPurchaseAvailabilities/{id}/availableTerritories", "GET /v1/subscriptionGroups/{id}",
    "GET /v1/subscriptionGroups/{id}/subscriptions", "GET /v1/subscriptionGroups/{id}/subscriptionGroupLocalizations",
    "GET /v1/subscriptions/{id}", "GET /v1/subscriptions/{id}/subscriptionLocalizations", "GET /v1/subscriptions/{id}/prices",
    "GET /v1/subscriptions/{id}/introductoryOffers", "GET /v1/subscriptions/{id}/subscriptionAvailability",
    "GET /v1/subscriptions/{id}/versions", "GET /v1/subscriptions/{id}/planAvailabilities",
    "GET /v1/subscriptionAvailabilities/{id}/availableTerritories",
    "GET /v1/subscriptionPlanAvailabilities/{id}/availableTerritories", "GET /v1/subscriptionVersions/{id}",
    "GET /v1/subscriptionVersions/{id}/localizations", "GET /v1/territories", "GET /v1/salesReports", "GET /v1/financeReports",
]
PREFIX = "#/components/schemas/"


def refs(value, found):
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.startswith(PREFIX):
            found.add(ref[len(PREFIX):])
        for item in value.values():
            refs(item, found)
    elif isinstance(value, list):
        for item in value:
            refs(item, found)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: cut-openapi-subset.py WHOLE.json SUBSET.json")
    raw = open(sys.argv[1], "rb").read()
    whole = json.loads(raw)
    paths = {}
    for operation in OPERATIONS:
        method, path = operation.split(" ", 1)
        try:
            paths.setdefault(path, {})[method.lower()] = whole["paths"][path][method.lower()]
        except KeyError:
            sys.exit("cut-openapi-subset.py: %s: the document has no %s" % (sys.argv[1], operation))
    # Path-level keys (parameters) come with the path.
    for path in paths:
        for key, value in whole["paths"][path].items():
            if key not in ("get", "post", "patch", "put", "delete"):
                paths[path][key] = value
    schemas = whole["components"]["schemas"]
    reached, todo = set(), set()
    refs(paths, todo)
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        refs(schemas[name], todo)
    subset = {}
    for key, value in whole.items():
        if key == "info":
            value = dict(value)
            value["x-subset"] = {"of": "App Store Connect API OpenAPI document, version %s" % whole["info"]["version"],
                                 "sourceSha256": hashlib.sha256(raw).hexdigest(), "operations": OPERATIONS,
                                 "schemas": len(reached), "note": "cut by make_subset.py; every kept object is unchanged from the source"}
        elif key == "paths":
            value = paths
        elif key == "components":
            value = {k: ({n: schemas[n] for n in sorted(reached)} if k == "schemas" else v) for k, v in value.items()}
        subset[key] = value
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        json.dump(subset, out, ensure_ascii=False, separators=(",", ":"))
        out.write("\n")


if __name__ == "__main__":
    main()
