#!/usr/bin/env python3
"""A fake App Store Connect API server for iap's tests (issue 25).

Serves some operations of the App Store Connect API from an in-memory store, on
127.0.0.1 only: reads (GET), and the writes `iap asc apply` sends (POST, PATCH,
DELETE), which change the store the reads show. Every request's JWT is verified
with the public key; every request (with its JSON body) and every response is
validated against Apple's OpenAPI document with openapi-core (except the report
downloads' 404 and a delete's 409, which the document does not list). See
README.md next to this file.

Usage:
  python3 fake_asc.py --store STORE.json --public-key KEY.pem --issuer ISSUER \
      --key-id KID [--scenario NAME] [--page-size N] [--log LOG.jsonl] [--spec PATH] \
      [--state STATE.json] [--write-failure before|after:N]

Prints exactly one line `PORT <n>` on stdout, then serves until SIGTERM (exit 0).
Exit 3: openapi-core (or cryptography) cannot be imported, or Apple's document is not at its
default place in ../shared (and no --spec names another). Exit 2: bad arguments or files.
"""

import argparse
import base64
import gzip
import json
import math
import os
import re
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, urlencode

try:
    from openapi_core import OpenAPI, Config
    from openapi_core.datatypes import RequestParameters
    from werkzeug.datastructures import Headers, ImmutableMultiDict
except ImportError as error:  # the tests skip on exit 3
    sys.stderr.write(
        "fake_asc: openapi-core cannot be imported (%s); install it with "
        "`pip install -r Tests/Fixtures/asc/requirements.txt`\n" % error)
    sys.exit(3)

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
except ImportError as error:
    sys.stderr.write("fake_asc: cryptography cannot be imported (%s); "
                     "install it with `pip install cryptography`\n" % error)
    sys.exit(3)

APPLE_HOST = "https://api.appstoreconnect.apple.com"  # the document's only server
AUDIENCE = "appstoreconnect-v1"
DEFAULT_LIMIT = 50           # page size when the request has no `limit`
DEFAULT_INCLUDED_LIMIT = 10  # related resources per parent when `include` has no limit[...]
MISMATCH = "fake server: request/response does not match the OpenAPI document: "
SCENARIOS = ("ok", "rate-limit-once", "unauthorized", "forbidden", "server-error-once",
             "server-error-always", "malformed-json", "truncated-json", "slow", "huge", "read-only-key")


def default_spec_path():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", ".."))
    return os.path.normpath(os.path.join(
        root, "..", "shared", "schemas", "app-store-connect-openapi-4.4.1.json"))


def error_body(status, code, title, detail):
    return {"errors": [{"status": str(status), "code": code, "title": title, "detail": detail}]}


def not_authorized(detail):
    return 401, error_body(401, "NOT_AUTHORIZED",
                           "Authentication credentials are missing or invalid.", detail), {}


def unexpected_error():
    return error_body(500, "UNEXPECTED_ERROR", "An unexpected error occurred.",
                      "An unexpected error occurred on the server side. If this issue continues, contact us.")


def not_found(kind, ident):
    return 404, error_body(404, "NOT_FOUND", "The specified resource does not exist",
                           "There is no resource of type '%s' with id '%s'" % (kind, ident)), {}


def parameter_error(parameter, detail):
    body = error_body(400, "PARAMETER_ERROR.INVALID",
                      "A parameter has an invalid value", detail)
    body["errors"][0]["source"] = {"parameter": parameter}
    return 400, body, {}


class ParameterError(Exception):
    def __init__(self, parameter, detail):
        super().__init__(detail)
        self.parameter = parameter
        self.detail = detail


# ---------------------------------------------------------------- JWT

def b64url_decode(text):
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verify_jwt(authorization, public_key, issuer, key_id, now=None):
    """Returns None when the token is good, else the reason (for the 401 detail)."""
    now = int(time.time()) if now is None else now
    if not authorization:
        return "The Authorization header is missing."
    if not authorization.startswith("Bearer "):
        return "The Authorization header is not 'Bearer <token>'."
    parts = authorization[len("Bearer "):].strip().split(".")
    if len(parts) != 3:
        return "The token does not have three parts."
    try:
        header = json.loads(b64url_decode(parts[0]))
        payload = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except (ValueError, UnicodeDecodeError):
        return "The token's parts are not base64url-encoded JSON."
    if not isinstance(header, dict) or not isinstance(payload, dict):
        return "The token's header or payload is not a JSON object."
    if header.get("alg") != "ES256":
        return "The token's alg is %r, not ES256." % header.get("alg")
    if header.get("typ") != "JWT":
        return "The token's typ is %r, not JWT." % header.get("typ")
    if header.get("kid") != key_id:
        return "The token's kid is %r, not the key's id." % header.get("kid")
    if payload.get("iss") != issuer:
        return "The token's iss is %r, not the issuer id." % payload.get("iss")
    if payload.get("aud") != AUDIENCE:
        return "The token's aud is %r, not %s." % (payload.get("aud"), AUDIENCE)
    iat, exp = payload.get("iat"), payload.get("exp")
    for name, value in (("iat", iat), ("exp", exp)):
        if type(value) is not int:
            return "The token's %s is not an integer." % name
    if exp - iat > 1200:
        return "The token's lifetime (exp - iat = %d s) is longer than 20 minutes." % (exp - iat)
    if exp <= now:
        return "The token has expired (exp %d, now %d)." % (exp, now)
    if iat > now + 60:
        return "The token was issued in the future (iat %d, now %d)." % (iat, now)
    if len(signature) != 64:
        return "The signature is %d bytes, not 64 (raw r||s)." % len(signature)
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"),
                               int.from_bytes(signature[32:], "big"))
    try:
        public_key.verify(der, (parts[0] + "." + parts[1]).encode("ascii"),
                          ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "The token's signature does not verify with the public key."
    return None


# ---------------------------------------------------------------- OpenAPI adapters

class OARequest:
    """openapi-core's Request protocol; matched against the document's server URL."""

    def __init__(self, path, query_pairs, headers, method="get"):
        self.host_url = APPLE_HOST
        self.path = path
        self.method = method
        self.parameters = RequestParameters(query=ImmutableMultiDict(query_pairs),
                                            header=Headers(headers))
        self.content_type = ""
        self.body = None


class OAResponse:
    def __init__(self, status, body_bytes, content_type):
        self.status_code = status
        self.data = body_bytes
        self.content_type = content_type
        self.headers = Headers([("Content-Type", content_type)])


def describe(error):
    """A one-line reason from openapi-core's exception chain: the schema errors when
    there are some (where in the body, and what), else the exceptions' messages."""
    chain, node = [], error
    while node is not None and len(chain) < 6:
        chain.append(node)
        node = node.__cause__ or node.__context__
    details = []
    for node in chain:
        for sub in getattr(node, "schema_errors", None) or []:
            details.extend(leaf_errors(sub))
    if details:
        names = " <- ".join(type(n).__name__ + ("(%s)" % str(n) if len(str(n)) < 120 else "")
                            for n in chain)
        return "%s: %s" % (names, "; ".join(details[:8]))
    return "; ".join("%s: %s" % (type(n).__name__, shorten(str(n))) for n in chain)


def leaf_errors(sub, depth=0):
    """jsonschema's ValidationError, down to the deepest causes (oneOf keeps its own in context)."""
    context = list(getattr(sub, "context", None) or [])
    if context and depth < 4:
        result = []
        for inner in context:
            result.extend(leaf_errors(inner, depth + 1))
        return result
    location = "/".join(str(p) for p in getattr(sub, "absolute_path", []))
    return ["at /%s: %s" % (location, shorten(getattr(sub, "message", str(sub))))]


def shorten(text, limit=300):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


# ---------------------------------------------------------------- the store

SALES_REPORT_FIELDS = ("vendorNumber", "reportType", "reportSubType", "frequency", "reportDate")
FINANCE_REPORT_FIELDS = ("vendorNumber", "reportType", "regionCode", "reportDate")


def report_entries(raw, key, fields):
    entries = list(raw.get(key, []))
    for number, entry in enumerate(entries):
        names = fields + ("content",) + (("version",) if "version" in entry and key == "salesReports" else ())
        for name in names:
            if not isinstance(entry.get(name), str):
                raise ValueError("store: %s[%d].%s must be a string" % (key, number, name))
    return entries


FIRST_NEW_ID = 6400000001  # the first id the fake gives a resource it creates


class Store:
    def __init__(self, raw):
        self.raw = raw
        self.sales_reports = report_entries(raw, "salesReports", SALES_REPORT_FIELDS)
        self.finance_reports = report_entries(raw, "financeReports", FINANCE_REPORT_FIELDS)
        self.apps = list(raw.get("apps", []))
        self.iaps = list(raw.get("inAppPurchases", []))
        self.groups = list(raw.get("subscriptionGroups", []))
        # Written state (see README.md, "Writes"): product IDs of deleted products, never to be
        # used again, and the next id a created resource gets.
        self.used_product_ids = list(raw.get("usedProductIds", []))
        if not all(isinstance(i, str) for i in self.used_product_ids):
            raise ValueError("store: usedProductIds must be a list of strings")
        self.next_id = raw.get("nextId", FIRST_NEW_ID)
        if type(self.next_id) is not int or self.next_id < 1:
            raise ValueError("store: nextId must be a positive integer")
        # The price-point ladders: every territory's points, the same for every product of a kind.
        self.ladder = Ladder(raw.get("priceTerritories") or DEFAULT_PRICE_TERRITORIES)
        self.reindex()

    def new_id(self):
        ident = str(self.next_id)
        self.next_id += 1
        return ident

    def to_raw(self):
        """The whole store in the format --store reads (what --state writes)."""
        raw = dict(self.raw)
        raw.update({"apps": self.apps, "inAppPurchases": self.iaps, "subscriptionGroups": self.groups,
                    "salesReports": self.sales_reports, "financeReports": self.finance_reports,
                    "usedProductIds": self.used_product_ids, "nextId": self.next_id})
        return raw

    def reindex(self):
        """The lookups the routes use, from the lists (again after a write)."""
        self.app_by_id = {a["id"]: a for a in self.apps}
        self.iap_by_id = {i["id"]: i for i in self.iaps}
        self.group_by_id = {g["id"]: g for g in self.groups}
        self.sub_by_id = {}
        self.group_of_sub = {}
        self.offer_code_by_id = {}
        for group in self.groups:
            for sub in group.get("subscriptions", []):
                self.sub_by_id[sub["id"]] = sub
                self.group_of_sub[sub["id"]] = group
                for code in sub.get("offerCodes", []):
                    self.offer_code_by_id[code["id"]] = code
        # A territory's currency: the first price or offer entry for it that gives one.
        self.currencies = {}
        entries = [p for i in self.iaps for p in i.get("prices", [])]
        entries += [p for s in self.sub_by_id.values() for p in s.get("prices", []) + s.get("introductoryOffers", [])]
        for entry in entries:
            if entry.get("currency") is not None:
                self.currencies.setdefault(entry.get("territory"), entry["currency"])


def optional(target, source, names):
    for name in names:
        if name in source:
            target[name] = source[name]
    return target


def screenshot_id(owner):
    """The review screenshot's id when the store says the product has one (`"reviewScreenshot": true`)."""
    return "ss" + owner["id"] if owner.get("reviewScreenshot") else None


def included_extras(ctx, owners, include, screenshot_kind, availability_name, availability_kind):
    """The review screenshots and availabilities of `owners` that `include` names."""
    extra = []
    for owner in owners:
        if "appStoreReviewScreenshot" in include and owner.get("reviewScreenshot"):
            extra.append(ctx.res.screenshot(screenshot_kind, owner))
        if availability_name in include and owner.get("availability"):
            extra.append(ctx.res.availability(availability_kind, owner))
    return extra


class Resources:
    """Builds JSON:API resources as the document's schemas describe them."""

    def __init__(self, base):
        self.base = base

    def app(self, app):
        link = "%s/v1/apps/%s" % (self.base, app["id"])
        return {
            "type": "apps", "id": app["id"],
            "attributes": optional({}, app, ("name", "bundleId", "sku", "primaryLocale")),
            "relationships": {
                "inAppPurchasesV2": {"links": self.rel_links("/v1/apps", app["id"], "inAppPurchasesV2")},
                "subscriptionGroups": {"links": self.rel_links("/v1/apps", app["id"], "subscriptionGroups")},
            },
            "links": {"self": link},
        }

    def to_one(self, relationships, include, prefix, owner, name, kind, ident):
        """A to-one relationship: its links, and its linkage when included and there is one (the
        document's to-one `data` is not nullable: none is no `data`)."""
        rel = {"links": self.rel_links(prefix, owner["id"], name)}
        if name in include and ident is not None:
            rel["data"] = {"type": kind, "id": ident}
        relationships[name] = rel

    def screenshot(self, kind, owner):
        return {"type": kind, "id": screenshot_id(owner),
                "attributes": {"fileName": "review.png", "fileSize": 204800},
                "links": {"self": "%s/v1/%s/%s" % (self.base, kind, screenshot_id(owner))}}

    def availability(self, kind, owner):
        availability = owner["availability"]
        prefix = "/v1/" + kind
        attributes = optional({}, availability, ("availableInNewTerritories",))
        return {"type": kind, "id": availability["id"], "attributes": attributes,
                "relationships": {"availableTerritories": {"links": self.rel_links(prefix, availability["id"], "availableTerritories")}},
                "links": {"self": "%s%s/%s" % (self.base, prefix, availability["id"])}}

    def group_localization(self, loc):
        return {
            "type": "subscriptionGroupLocalizations", "id": loc["id"],
            "attributes": optional({}, loc, ("name", "customAppName", "locale", "state")),
            "links": {"self": "%s/v1/subscriptionGroupLocalizations/%s" % (self.base, loc["id"])},
        }

    def rel_links(self, prefix, ident, name):
        return {"self": "%s%s/%s/relationships/%s" % (self.base, prefix, ident, name),
                "related": "%s%s/%s/%s" % (self.base, prefix, ident, name)}

    def iap(self, iap, localization_limit=None, include=()):
        rel = {"links": self.rel_links("/v2/inAppPurchases", iap["id"], "inAppPurchaseLocalizations")}
        if localization_limit is not None:
            locs = iap.get("localizations", [])
            rel["meta"] = {"paging": {"total": len(locs), "limit": localization_limit}}
            rel["data"] = [{"type": "inAppPurchaseLocalizations", "id": l["id"]}
                           for l in locs[:localization_limit]]
        relationships = {"inAppPurchaseLocalizations": rel}
        self.to_one(relationships, include, "/v2/inAppPurchases", iap, "appStoreReviewScreenshot",
                    "inAppPurchaseAppStoreReviewScreenshots", screenshot_id(iap))
        self.to_one(relationships, include, "/v2/inAppPurchases", iap, "inAppPurchaseAvailability",
                    "inAppPurchaseAvailabilities", (iap.get("availability") or {}).get("id"))
        return {
            "type": "inAppPurchases", "id": iap["id"],
            "attributes": optional({}, iap, ("name", "productId", "inAppPurchaseType", "state",
                                             "reviewNote", "familySharable", "contentHosting")),
            "relationships": relationships,
            "links": {"self": "%s/v2/inAppPurchases/%s" % (self.base, iap["id"])},
        }

    def iap_localization(self, loc):
        return {
            "type": "inAppPurchaseLocalizations", "id": loc["id"],
            "attributes": optional({}, loc, ("name", "locale", "description", "state")),
            "links": {"self": "%s/v1/inAppPurchaseLocalizations/%s" % (self.base, loc["id"])},
        }

    def group(self, group, subscription_limit=None, localization_limit=None):
        rel = {"links": self.rel_links("/v1/subscriptionGroups", group["id"], "subscriptions")}
        if subscription_limit is not None:
            subs = group.get("subscriptions", [])
            rel["meta"] = {"paging": {"total": len(subs), "limit": subscription_limit}}
            rel["data"] = [{"type": "subscriptions", "id": s["id"]} for s in subs[:subscription_limit]]
        relationships = {"subscriptions": rel}
        if localization_limit is not None:
            locs = group.get("localizations", [])
            relationships["subscriptionGroupLocalizations"] = {
                "links": self.rel_links("/v1/subscriptionGroups", group["id"], "subscriptionGroupLocalizations"),
                "meta": {"paging": {"total": len(locs), "limit": localization_limit}},
                "data": [{"type": "subscriptionGroupLocalizations", "id": l["id"]} for l in locs[:localization_limit]]}
        return {
            "type": "subscriptionGroups", "id": group["id"],
            "attributes": optional({}, group, ("referenceName",)),
            "relationships": relationships,
            "links": {"self": "%s/v1/subscriptionGroups/%s" % (self.base, group["id"])},
        }

    def subscription(self, sub, group_id=None, localization_limit=None, offer_limit=None, include=(), promo_limit=None, code_limit=None):
        rel = {"links": self.rel_links("/v1/subscriptions", sub["id"], "subscriptionLocalizations")}
        if localization_limit is not None:
            locs = sub.get("localizations", [])
            rel["meta"] = {"paging": {"total": len(locs), "limit": localization_limit}}
            rel["data"] = [{"type": "subscriptionLocalizations", "id": l["id"]}
                           for l in locs[:localization_limit]]
        relationships = {"subscriptionLocalizations": rel}
        if offer_limit is not None:
            rows = price_rows(sub["id"], sub.get("introductoryOffers", []), "subscriptionPricePoints", "o")
            relationships["introductoryOffers"] = {
                "links": self.rel_links("/v1/subscriptions", sub["id"], "introductoryOffers"),
                "meta": {"paging": {"total": len(rows), "limit": offer_limit}},
                "data": [{"type": "subscriptionIntroductoryOffers", "id": ident} for _, ident, _ in rows[:offer_limit]]}
        if promo_limit is not None:
            promos = sub.get("promotionalOffers", [])
            relationships["promotionalOffers"] = {
                "links": self.rel_links("/v1/subscriptions", sub["id"], "promotionalOffers"),
                "meta": {"paging": {"total": len(promos), "limit": promo_limit}},
                "data": [{"type": "subscriptionPromotionalOffers", "id": p["id"]} for p in promos[:promo_limit]]}
        if code_limit is not None:
            codes = sub.get("offerCodes", [])
            relationships["offerCodes"] = {
                "links": self.rel_links("/v1/subscriptions", sub["id"], "offerCodes"),
                "meta": {"paging": {"total": len(codes), "limit": code_limit}},
                "data": [{"type": "subscriptionOfferCodes", "id": c["id"]} for c in codes[:code_limit]]}
        if group_id is not None:
            relationships["group"] = {"data": {"type": "subscriptionGroups", "id": group_id}}
        self.to_one(relationships, include, "/v1/subscriptions", sub, "appStoreReviewScreenshot",
                    "subscriptionAppStoreReviewScreenshots", screenshot_id(sub))
        self.to_one(relationships, include, "/v1/subscriptions", sub, "subscriptionAvailability",
                    "subscriptionAvailabilities", (sub.get("availability") or {}).get("id"))
        return {
            "type": "subscriptions", "id": sub["id"],
            "attributes": optional({}, sub, ("name", "productId", "familySharable", "state",
                                             "subscriptionPeriod", "reviewNote", "groupLevel")),
            "relationships": relationships,
            "links": {"self": "%s/v1/subscriptions/%s" % (self.base, sub["id"])},
        }

    def subscription_localization(self, loc):
        return {
            "type": "subscriptionLocalizations", "id": loc["id"],
            "attributes": optional({}, loc, ("name", "locale", "description", "state")),
            "links": {"self": "%s/v1/subscriptionLocalizations/%s" % (self.base, loc["id"])},
        }


    def territory(self, territory, currency):
        resource = {"type": "territories", "id": territory}
        if currency is not None:
            resource["attributes"] = {"currency": currency}
        resource["links"] = {"self": "%s/v1/territories/%s" % (self.base, territory)}
        return resource

    def iap_price(self, entry, ident, relationships):
        attributes = dates(entry)
        attributes["manual"] = bool(entry.get("manual", True))
        resource = {"type": "inAppPurchasePrices", "id": ident, "attributes": attributes}
        if relationships:
            resource["relationships"] = relationships
        resource["links"] = {"self": "%s/v1/inAppPurchasePrices/%s" % (self.base, ident)}
        return resource

    def subscription_price(self, entry, ident, relationships):
        # SubscriptionPrice has startDate (no endDate), preserved and planType; the store gives startDate.
        resource = {"type": "subscriptionPrices", "id": ident, "attributes": dates(entry, ("startDate",))}
        if relationships:
            resource["relationships"] = relationships
        resource["links"] = {"self": "%s/v1/subscriptionPrices/%s" % (self.base, ident)}
        return resource

    def promotional_offer(self, offer):
        return {"type": "subscriptionPromotionalOffers", "id": offer["id"],
                "attributes": optional({}, offer, ("name", "offerCode", "offerMode", "duration", "numberOfPeriods")),
                "links": {"self": "%s/v1/subscriptionPromotionalOffers/%s" % (self.base, offer["id"])}}

    def offer_code(self, code, custom_limit=None):
        resource = {"type": "subscriptionOfferCodes", "id": code["id"],
                    "attributes": optional({}, code, ("name", "customerEligibilities", "offerEligibility", "duration", "offerMode",
                                                      "numberOfPeriods", "totalNumberOfCodes", "active")),
                    "links": {"self": "%s/v1/subscriptionOfferCodes/%s" % (self.base, code["id"])}}
        if custom_limit is not None:
            customs = code.get("customCodes", [])
            resource["relationships"] = {"customCodes": {
                "links": self.rel_links("/v1/subscriptionOfferCodes", code["id"], "customCodes"),
                "meta": {"paging": {"total": len(customs), "limit": custom_limit}},
                "data": [{"type": "subscriptionOfferCodeCustomCodes", "id": c["id"]} for c in customs[:custom_limit]]}}
        return resource

    def custom_code(self, custom):
        return {"type": "subscriptionOfferCodeCustomCodes", "id": custom["id"],
                "attributes": optional({}, custom, ("customCode", "numberOfCodes", "createdDate", "expirationDate", "active")),
                "links": {"self": "%s/v1/subscriptionOfferCodeCustomCodes/%s" % (self.base, custom["id"])}}

    def win_back_offer(self, offer):
        return {"type": "winBackOffers", "id": offer["id"],
                "attributes": optional({}, offer, ("referenceName", "offerId", "duration", "offerMode", "periodCount",
                                                   "customerEligibilityPaidSubscriptionDurationInMonths",
                                                   "customerEligibilityTimeSinceLastSubscribedInMonths",
                                                   "customerEligibilityWaitBetweenOffersInMonths", "startDate", "endDate", "priority")),
                "links": {"self": "%s/v1/winBackOffers/%s" % (self.base, offer["id"])}}

    def introductory_offer(self, entry, ident, relationships):
        attributes = dates(entry)
        attributes.update(optional({}, entry, ("duration", "offerMode", "numberOfPeriods")))
        resource = {"type": "subscriptionIntroductoryOffers", "id": ident, "attributes": attributes}
        if relationships:
            resource["relationships"] = relationships
        resource["links"] = {"self": "%s/v1/subscriptionIntroductoryOffers/%s" % (self.base, ident)}
        return resource


# ---------------------------------------------------------------- paging

def encode_cursor(offset):
    # Opaque to clients; shaped like Apple's (`Mg.AAAA`): base64url of the offset, a dot, a tag.
    return base64.urlsafe_b64encode(str(offset).encode()).decode().rstrip("=") + ".AAAA"


def decode_cursor(cursor):
    try:
        head, tag = cursor.split(".", 1)
        offset = int(b64url_decode(head).decode("ascii"))
        if tag != "AAAA" or offset < 0:
            raise ValueError
        return offset
    except (ValueError, UnicodeDecodeError):
        raise ParameterError("cursor", "The cursor '%s' is not valid." % cursor)


def int_param(query, name, default, maximum):
    if name not in query:
        return default
    try:
        value = int(query[name])
    except ValueError:
        raise ParameterError(name, "'%s' is not a valid integer for %s." % (query[name], name))
    if value < 1 or value > maximum:
        raise ParameterError(name, "%s must be between 1 and %d." % (name, maximum))
    return value


def list_param(query, name):
    if name not in query:
        return None
    return [v for v in query[name].split(",") if v != ""]


class Pager:
    def __init__(self, base, path, pairs, page_size_cap):
        self.base = base
        self.path = path
        self.pairs = pairs
        self.cap = page_size_cap

    def page(self, items, query, maximum=200):
        limit = int_param(query, "limit", DEFAULT_LIMIT, maximum)
        size = min(limit, self.cap) if self.cap else limit
        offset = decode_cursor(query["cursor"]) if "cursor" in query else 0
        chunk = items[offset:offset + size]
        links = {"self": self.url(self.pairs)}
        paging = {"total": len(items), "limit": size}
        if offset + size < len(items):
            cursor = encode_cursor(offset + size)
            rest = [(k, v) for k, v in self.pairs if k != "cursor"]
            links["next"] = self.url([("cursor", cursor)] + rest)
            paging["nextCursor"] = cursor
        return chunk, links, {"paging": paging}

    def url(self, pairs):
        text = self.base + self.path
        if pairs:
            text += "?" + urlencode(pairs, safe=",", quote_via=quote)
        return text


# ---------------------------------------------------------------- operations

def apply_filters(items, query, names):
    for name in names:
        wanted = list_param(query, "filter[%s]" % name)
        if wanted is not None:
            items = [i for i in items if str(i.get(name)) in wanted]
    return items


def apply_sort(items, query):
    keys = list_param(query, "sort")
    for key in reversed(keys or []):
        field = key.lstrip("-")
        items = sorted(items, key=lambda i: str(i.get(field, "")), reverse=key.startswith("-"))
    return items


ROUTES = []


def route(pattern):
    def register(function):
        ROUTES.append((re.compile("^" + pattern + "$"), function))
        return function
    return register


@route(r"/v1/apps")
def list_apps(ctx, query):
    apps = apply_sort(apply_filters(ctx.store.apps, query, ("bundleId", "id", "name", "sku")), query)
    chunk, links, meta = ctx.pager.page(apps, query)
    return 200, {"data": [ctx.res.app(a) for a in chunk], "links": links, "meta": meta}, {}


@route(r"/v1/apps/([^/]+)")
def get_app(ctx, query, app_id):
    app = ctx.store.app_by_id.get(app_id)
    if app is None:
        return not_found("apps", app_id)
    return 200, {"data": ctx.res.app(app), "links": {"self": ctx.pager.url(ctx.pager.pairs)}}, {}


@route(r"/v1/apps/([^/]+)/inAppPurchasesV2")
def app_iaps(ctx, query, app_id):
    if app_id not in ctx.store.app_by_id:
        return not_found("apps", app_id)
    iaps = [i for i in ctx.store.iaps if i.get("app") == app_id]
    iaps = apply_sort(apply_filters(iaps, query, ("productId", "name", "state", "inAppPurchaseType")), query)
    include = list_param(query, "include") or []
    loc_limit = None
    if "inAppPurchaseLocalizations" in include:
        loc_limit = int_param(query, "limit[inAppPurchaseLocalizations]", DEFAULT_INCLUDED_LIMIT, 50)
    chunk, links, meta = ctx.pager.page(iaps, query)
    body = {"data": [ctx.res.iap(i, loc_limit, include) for i in chunk], "links": links, "meta": meta}
    if include:
        included = []
        if loc_limit is not None:
            included += [ctx.res.iap_localization(l) for i in chunk for l in i.get("localizations", [])[:loc_limit]]
        included += included_extras(ctx, chunk, include, "inAppPurchaseAppStoreReviewScreenshots",
                                    "inAppPurchaseAvailability", "inAppPurchaseAvailabilities")
        body["included"] = included
    return 200, body, {}


@route(r"/v2/inAppPurchases/([^/]+)/inAppPurchaseLocalizations")
def iap_localizations(ctx, query, iap_id):
    iap = ctx.store.iap_by_id.get(iap_id)
    if iap is None:
        return not_found("inAppPurchases", iap_id)
    chunk, links, meta = ctx.pager.page(iap.get("localizations", []), query)
    data = [ctx.res.iap_localization(l) for l in chunk]
    body = {"data": data, "links": links, "meta": meta}
    if "inAppPurchaseV2" in (list_param(query, "include") or []):
        for resource in data:
            resource["relationships"] = {"inAppPurchaseV2": {"data": {"type": "inAppPurchases", "id": iap_id}}}
        body["included"] = [ctx.res.iap(iap)] if data else []
    return 200, body, {}


@route(r"/v1/apps/([^/]+)/subscriptionGroups")
def app_groups(ctx, query, app_id):
    if app_id not in ctx.store.app_by_id:
        return not_found("apps", app_id)
    groups = [g for g in ctx.store.groups if g.get("app") == app_id]
    groups = apply_sort(apply_filters(groups, query, ("referenceName",)), query)
    include = list_param(query, "include") or []
    sub_limit = None
    if "subscriptions" in include:
        sub_limit = int_param(query, "limit[subscriptions]", DEFAULT_INCLUDED_LIMIT, 50)
    loc_limit = None
    if "subscriptionGroupLocalizations" in include:
        loc_limit = int_param(query, "limit[subscriptionGroupLocalizations]", DEFAULT_INCLUDED_LIMIT, 50)
    chunk, links, meta = ctx.pager.page(groups, query)
    body = {"data": [ctx.res.group(g, sub_limit, loc_limit) for g in chunk], "links": links, "meta": meta}
    if include:
        included = []
        if sub_limit is not None:
            included += [ctx.res.subscription(s) for g in chunk for s in g.get("subscriptions", [])[:sub_limit]]
        if loc_limit is not None:
            included += [ctx.res.group_localization(l) for g in chunk for l in g.get("localizations", [])[:loc_limit]]
        body["included"] = included
    return 200, body, {}


@route(r"/v1/subscriptionGroups/([^/]+)/subscriptionGroupLocalizations")
def group_localizations(ctx, query, group_id):
    return owned_page(ctx, query, ctx.store.group_by_id, "subscriptionGroups", group_id, "localizations", ctx.res.group_localization)


def owned_page(ctx, query, lookup, kind, ident, key, build):
    """One page of the list `key` of the resource `ident` of `kind`, each item as `build` makes it
    (404 when there is no such resource)."""
    owner = lookup.get(ident)
    if owner is None:
        return not_found(kind, ident)
    chunk, links, meta = ctx.pager.page(owner.get(key, []), query)
    return 200, {"data": [build(item) for item in chunk], "links": links, "meta": meta}, {}


@route(r"/v1/subscriptionGroups/([^/]+)/subscriptions")
def group_subscriptions(ctx, query, group_id):
    group = ctx.store.group_by_id.get(group_id)
    if group is None:
        return not_found("subscriptionGroups", group_id)
    subs = apply_sort(apply_filters(group.get("subscriptions", []), query,
                                    ("productId", "name", "state")), query)
    include = list_param(query, "include") or []
    loc_limit = None
    if "subscriptionLocalizations" in include:
        loc_limit = int_param(query, "limit[subscriptionLocalizations]", DEFAULT_INCLUDED_LIMIT, 50)
    with_group = "group" in include
    offer_limit = None
    if "introductoryOffers" in include:
        offer_limit = int_param(query, "limit[introductoryOffers]", DEFAULT_INCLUDED_LIMIT, 50)
    promo_limit = None
    if "promotionalOffers" in include:
        promo_limit = int_param(query, "limit[promotionalOffers]", DEFAULT_INCLUDED_LIMIT, 50)
    code_limit = None
    if "offerCodes" in include:
        code_limit = int_param(query, "limit[offerCodes]", DEFAULT_INCLUDED_LIMIT, 50)
    chunk, links, meta = ctx.pager.page(subs, query)
    body = {"data": [ctx.res.subscription(s, group_id if with_group else None, loc_limit, offer_limit, include, promo_limit, code_limit)
                     for s in chunk],
            "links": links, "meta": meta}
    included = []
    if loc_limit is not None:
        included += [ctx.res.subscription_localization(l)
                     for s in chunk for l in s.get("localizations", [])[:loc_limit]]
    if offer_limit is not None:
        for sub in chunk:
            rows = price_rows(sub["id"], sub.get("introductoryOffers", []), "subscriptionPricePoints", "o", ctx.store.ladder)
            included += [ctx.res.introductory_offer(entry, ident, {}) for entry, ident, _ in rows[:offer_limit]]
    if promo_limit is not None:
        included += [ctx.res.promotional_offer(p) for sub in chunk for p in sub.get("promotionalOffers", [])[:promo_limit]]
    if code_limit is not None:
        included += [ctx.res.offer_code(c) for sub in chunk for c in sub.get("offerCodes", [])[:code_limit]]
    if with_group and chunk:
        included.append(ctx.res.group(group))
    included += included_extras(ctx, chunk, include, "subscriptionAppStoreReviewScreenshots",
                                "subscriptionAvailability", "subscriptionAvailabilities")
    if include:
        body["included"] = included
    return 200, body, {}


@route(r"/v1/subscriptions/([^/]+)/subscriptionLocalizations")
def subscription_localizations(ctx, query, sub_id):
    sub = ctx.store.sub_by_id.get(sub_id)
    if sub is None:
        return not_found("subscriptions", sub_id)
    chunk, links, meta = ctx.pager.page(sub.get("localizations", []), query)
    data = [ctx.res.subscription_localization(l) for l in chunk]
    body = {"data": data, "links": links, "meta": meta}
    if "subscription" in (list_param(query, "include") or []):
        for resource in data:
            resource["relationships"] = {"subscription": {"data": {"type": "subscriptions", "id": sub_id}}}
        body["included"] = [ctx.res.subscription(sub)] if data else []
    return 200, body, {}


# -- price points: a ladder per territory, the same for every product of a kind

DEFAULT_PRICE_TERRITORIES = {"USA": "USD", "CAN": "CAD", "GBR": "GBP", "DEU": "EUR", "JPN": "JPY", "CHE": "CHF", "KOR": "KRW"}
# A rough rate from USD, and the currencies App Store prices have no fraction in.
RATES = {"USD": 1, "CAD": 1.4, "GBP": 0.8, "EUR": 0.95, "JPY": 150, "CHF": 0.9, "KRW": 1400, "AUD": 1.55, "NZD": 1.7,
         "CNY": 7.2, "INR": 85, "BRL": 5.5, "MXN": 18, "SEK": 10.5, "NOK": 11, "DKK": 7, "PLN": 4, "CZK": 23, "HUF": 370,
         "TRY": 35, "RUB": 95, "ZAR": 18, "IDR": 16000, "THB": 34, "VND": 25000, "TWD": 32, "HKD": 7.8, "SGD": 1.35,
         "ILS": 3.7, "SAR": 3.75, "AED": 3.67, "EGP": 48, "NGN": 1500, "PKR": 280, "CLP": 950, "COP": 4100, "PEN": 3.7,
         "KZT": 480, "TZS": 2600, "QAR": 3.64, "MYR": 4.5, "PHP": 57, "RON": 4.7, "BGN": 1.8}
WHOLE = {"JPY", "KRW", "HUF", "IDR", "VND", "TWD", "NGN", "PKR", "CLP", "COP", "KZT", "TZS"}
VAT = {"EUR": 0.2, "GBP": 0.2, "CHF": 0.081, "JPY": 0.1, "KRW": 0.1, "AUD": 0.1, "NZD": 0.15, "CAD": 0.0, "USD": 0.0}


def usd_tiers():
    """About 800 customer prices in cents, as App Store Connect's ladder runs: fine steps low, coarse high."""
    cents = list(range(29, 999 + 1, 10))            # 0.29 … 9.99 by 0.10
    cents += list(range(1049, 4999 + 1, 50))        # 10.49 … 49.99 by 0.50
    cents += list(range(5099, 19999 + 1, 100))      # 50.99 … 199.99 by 1
    cents += list(range(20499, 99999 + 1, 500))     # 204.99 … 999.99 by 5
    cents += list(range(100999, 299999 + 1, 1000))  # 1,009.99 … 2,999.99 by 10
    cents += list(range(304999, 999999 + 1, 5000))  # 3,049.99 … 9,999.99 by 50
    return cents


def decimal_text(units, places):
    if places == 0:
        return str(units)
    return "%d.%0*d" % (units // 10 ** places, places, units % 10 ** places)


class Ladder:
    """Each territory's customer prices and proceeds, tier by tier: tier i of one territory
    equalizes to tier i of every other (Apple's equalization, in the fake)."""

    def __init__(self, territories):
        self.territories = dict(sorted(territories.items()))
        tiers = usd_tiers()
        self.points = {}
        for territory, currency in self.territories.items():
            places = 0 if currency in WHOLE else 2
            rate = RATES.get(currency, 1)
            vat = VAT.get(currency, 0.1)
            rows, last = [], -1
            for cents in tiers:
                value = cents * rate / 100
                # Each currency's own rounding: whole steps (¥160, ¥1,600, ₩14,000) or prices
                # ending in 9 (0.99, 12.99, 104.99), steps of about a thousandth of the price; a
                # tier that rounds onto the last one takes the next step.
                if places == 0:
                    step = max(10, 10 ** int(math.floor(math.log10(max(value, 1)))) // 1000)
                    units = max(step, int(round(value / step)) * step)
                    if units <= last:
                        units = (last // step + 1) * step
                else:
                    step = max(10, 10 ** int(math.floor(math.log10(max(value * 100, 1)))) // 1000)  # in cents
                    units = max(step, int(round(value * 100 / step)) * step) - 1
                    if units <= last:
                        units = ((last + 1) // step + 1) * step - 1
                last = units
                proceeds = int(units / (1 + vat) * 0.7)
                rows.append((decimal_text(units, places), decimal_text(proceeds, places)))
            self.points[territory] = rows

    def rows(self, kind, territories=None):
        """(id, territory, customerPrice, proceeds) of every point, territory by territory."""
        out = []
        for territory, points in self.points.items():
            if territories is not None and territory not in territories:
                continue
            for index, (price, proceeds) in enumerate(points):
                out.append((opaque_id("pp", kind, territory, index), territory, price, proceeds))
        return out

    def point_id(self, kind, territory, price):
        """The id of the point of `price` in `territory`, or None when it is not on the ladder."""
        if not hasattr(self, "_index"):
            self._index = {t: {p: i for i, (p, _) in enumerate(points)} for t, points in self.points.items()}
        index = self._index.get(territory, {}).get(price)
        return None if index is None else opaque_id("pp", kind, territory, index)

    def tier(self, kind, point_id):
        """The (territory, tier) of a point id this ladder made, else None."""
        try:
            text = base64.urlsafe_b64decode(point_id + "=" * (-len(point_id) % 4)).decode()
            parts = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            return None
        if not (isinstance(parts, list) and len(parts) == 4 and parts[:2] == ["pp", kind]):
            return None
        territory, index = parts[2], parts[3]
        if territory not in self.points or not isinstance(index, int) or not 0 <= index < len(self.points[territory]):
            return None
        return territory, index


def point_page(ctx, query, rows, point_type):
    include = list_param(query, "include") or []
    # Price-point lists are the document's longest pages: up to 8,000.
    chunk, links, meta = ctx.pager.page(rows, query, maximum=8000)
    data, included, seen = [], [], set()
    for ident, territory, price, proceeds in chunk:
        attributes = {"customerPrice": price, "proceeds": proceeds}
        if point_type == "subscriptionPricePoints":
            attributes["proceedsYear2"] = proceeds
        resource = {"type": point_type, "id": ident, "attributes": attributes,
                    "relationships": {"territory": {"data": {"type": "territories", "id": territory}}} if "territory" in include else {},
                    "links": {"self": "%s/v1/%s/%s" % (ctx.res.base, point_type, ident)}}
        if not resource["relationships"]:
            del resource["relationships"]
        data.append(resource)
        if "territory" in include and territory not in seen:
            seen.add(territory)
            included.append(ctx.res.territory(territory, ctx.store.ladder.territories[territory]))
    body = {"data": data, "links": links, "meta": meta}
    if include:
        body["included"] = included
    return body


@route(r"/v2/inAppPurchases/([^/]+)/pricePoints")
def iap_price_points(ctx, query, iap_id):
    if iap_id not in ctx.store.iap_by_id:
        return not_found("inAppPurchases", iap_id)
    rows = ctx.store.ladder.rows("iap", list_param(query, "filter[territory]"))
    return 200, point_page(ctx, query, rows, "inAppPurchasePricePoints"), {}


@route(r"/v1/subscriptions/([^/]+)/pricePoints")
def subscription_price_points(ctx, query, sub_id):
    if sub_id not in ctx.store.sub_by_id:
        return not_found("subscriptions", sub_id)
    rows = ctx.store.ladder.rows("sub", list_param(query, "filter[territory]"))
    return 200, point_page(ctx, query, rows, "subscriptionPricePoints"), {}


def equalizations(ctx, query, point_id, kind, point_type):
    found = ctx.store.ladder.tier(kind, point_id)
    if found is None:
        return not_found(point_type, point_id)
    base_territory, index = found
    wanted = list_param(query, "filter[territory]")
    ladder = ctx.store.ladder
    rows = [(opaque_id("pp", kind, t, index), t) + ladder.points[t][index] for t in ladder.points
            if t != base_territory and (wanted is None or t in wanted)]
    return 200, point_page(ctx, query, rows, point_type), {}


@route(r"/v1/inAppPurchasePricePoints/([^/]+)/equalizations")
def iap_equalizations(ctx, query, point_id):
    return equalizations(ctx, query, point_id, "iap", "inAppPurchasePricePoints")


@route(r"/v1/subscriptionPricePoints/([^/]+)/equalizations")
def subscription_equalizations(ctx, query, point_id):
    return equalizations(ctx, query, point_id, "sub", "subscriptionPricePoints")


# -- availabilities: the territories a product is for sale in

def available_territories(ctx, query, owners, kind, availability_id):
    owner = next((o for o in owners if (o.get("availability") or {}).get("id") == availability_id), None)
    if owner is None:
        return not_found(kind, availability_id)
    chunk, links, meta = ctx.pager.page(owner["availability"].get("territories", []), query)
    return 200, {"data": [ctx.res.territory(t, ctx.store.currencies.get(t)) for t in chunk],
                 "links": links, "meta": meta}, {}


@route(r"/v1/inAppPurchaseAvailabilities/([^/]+)/availableTerritories")
def iap_available_territories(ctx, query, availability_id):
    return available_territories(ctx, query, ctx.store.iaps, "inAppPurchaseAvailabilities", availability_id)


@route(r"/v1/subscriptionAvailabilities/([^/]+)/availableTerritories")
def subscription_available_territories(ctx, query, availability_id):
    return available_territories(ctx, query, list(ctx.store.sub_by_id.values()), "subscriptionAvailabilities", availability_id)


# -- prices and introductory offers

def opaque_id(*parts):
    """A deterministic id shaped like Apple's price ids (base64url of a small JSON, no padding);
    it never equals a territory's id, so price points and territories can share `included`."""
    text = json.dumps(list(parts), separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def territory_filter(rows, query):
    wanted = list_param(query, "filter[territory]")
    if wanted is None:
        return rows
    return [r for r in rows if r[0].get("territory") in wanted]


def price_rows(owner_id, entries, point_type, kind, ladder=None):
    """The store's price (or offer) entries as rows: (entry, its id, its price point's id or None).
    Ids come from the entry's place in the store's list, so a filter does not change them. A price
    on the ladder links to the ladder's point, the id `…/pricePoints` lists and a write takes, as
    App Store Connect's do; a price off it (a store's own) to an id of its own."""
    rows = []
    ladder_kind = "iap" if point_type == "inAppPurchasePricePoints" else "sub"
    for number, entry in enumerate(entries):
        ident = opaque_id(kind, owner_id, entry.get("territory"), number)
        point = None
        if entry.get("customerPrice") is not None:
            point = ladder.point_id(ladder_kind, entry.get("territory"), entry["customerPrice"]) if ladder is not None else None
            if point is None:
                point = opaque_id(point_type, owner_id, entry.get("territory"), entry["customerPrice"])
        rows.append((entry, ident, point))
    return rows


def dates(entry, names=("startDate", "endDate")):
    # The document types the dates `string, format: date`, not nullable: null is left out.
    return {n: entry[n] for n in names if entry.get(n) is not None}


def price_page(ctx, query, rows, build, point_rel, point_type, proceeds=True):
    """One page of prices (or offers) with the `included` price points and territories the
    request's include names (those of the page's resources, each once, in order)."""
    include = list_param(query, "include") or []
    chunk, links, meta = ctx.pager.page(rows, query)
    data = []
    included, seen = [], set()
    for entry, ident, point in chunk:
        relationships = {}
        if point_rel in include and point is not None:
            relationships[point_rel] = {"data": {"type": point_type, "id": point}}
            if point not in seen:
                seen.add(point)
                attributes = {"customerPrice": entry["customerPrice"]}
                if proceeds and entry.get("proceeds") is not None:
                    attributes["proceeds"] = entry["proceeds"]
                included.append({"type": point_type, "id": point, "attributes": attributes,
                                 "relationships": {"territory": {"data": {"type": "territories", "id": entry["territory"]}}},
                                 "links": {"self": "%s/v1/%s/%s" % (ctx.res.base, point_type, point)}})
        if "territory" in include:
            relationships["territory"] = {"data": {"type": "territories", "id": entry["territory"]}}
            key = "territory:" + entry["territory"]
            if key not in seen:
                seen.add(key)
                included.append(ctx.res.territory(entry["territory"], entry.get("currency") or ctx.store.currencies.get(entry["territory"])))
        data.append(build(entry, ident, relationships))
    body = {"data": data, "links": links, "meta": meta}
    if include:
        body["included"] = included
    return body


def iap_prices(iap, manual):
    return [p for p in iap.get("prices", []) if bool(p.get("manual", True)) == manual]


@route(r"/v2/inAppPurchases/([^/]+)/iapPriceSchedule")
def iap_price_schedule(ctx, query, iap_id):
    iap = ctx.store.iap_by_id.get(iap_id)
    if iap is None:
        return not_found("inAppPurchases", iap_id)
    if "prices" not in iap:
        return not_found("inAppPurchasePriceSchedules", iap_id)
    base = ctx.res.base
    include = list_param(query, "include") or []
    relationships = {}
    included = []
    manual_prices = iap_prices(iap, True)
    base_territory = iap.get("baseTerritory") or (manual_prices[0]["territory"] if manual_prices else None)
    relationships["baseTerritory"] = {"links": ctx.res.rel_links("/v1/inAppPurchasePriceSchedules", iap_id, "baseTerritory")}
    if "baseTerritory" in include and base_territory is not None:
        relationships["baseTerritory"]["data"] = {"type": "territories", "id": base_territory}
        included.append(ctx.res.territory(base_territory, ctx.store.currencies.get(base_territory)))
    for name, manual in (("manualPrices", True), ("automaticPrices", False)):
        rel = {"links": ctx.res.rel_links("/v1/inAppPurchasePriceSchedules", iap_id, name)}
        if name in include:
            limit = int_param(query, "limit[%s]" % name, DEFAULT_INCLUDED_LIMIT, 50)
            rows = price_rows(iap_id, iap_prices(iap, manual), "inAppPurchasePricePoints", "m" if manual else "a", ctx.store.ladder)
            rel["meta"] = {"paging": {"total": len(rows), "limit": limit}}
            rel["data"] = [{"type": "inAppPurchasePrices", "id": ident} for _, ident, _ in rows[:limit]]
            included += [ctx.res.iap_price(entry, ident, {}) for entry, ident, _ in rows[:limit]]
        relationships[name] = rel
    body = {"data": {"type": "inAppPurchasePriceSchedules", "id": iap_id, "relationships": relationships,
                     "links": {"self": "%s/v1/inAppPurchasePriceSchedules/%s" % (base, iap_id)}},
            "links": {"self": ctx.pager.url(ctx.pager.pairs)}}
    if include:
        body["included"] = included
    return 200, body, {}


def schedule_prices(ctx, query, schedule_id, manual):
    # A schedule's id is its in-app purchase's id; one whose store entry has no "prices" has
    # no schedule yet (a new product, MISSING_METADATA): 404, as App Store Connect answers.
    iap = ctx.store.iap_by_id.get(schedule_id)
    if iap is None or "prices" not in iap:
        return not_found("inAppPurchasePriceSchedules", schedule_id)
    rows = territory_filter(price_rows(schedule_id, iap_prices(iap, manual), "inAppPurchasePricePoints",
                                       "m" if manual else "a", ctx.store.ladder), query)
    return 200, price_page(ctx, query, rows, ctx.res.iap_price, "inAppPurchasePricePoint",
                           "inAppPurchasePricePoints"), {}


@route(r"/v1/inAppPurchasePriceSchedules/([^/]+)/manualPrices")
def manual_prices(ctx, query, schedule_id):
    return schedule_prices(ctx, query, schedule_id, True)


@route(r"/v1/inAppPurchasePriceSchedules/([^/]+)/automaticPrices")
def automatic_prices(ctx, query, schedule_id):
    return schedule_prices(ctx, query, schedule_id, False)


@route(r"/v1/subscriptions/([^/]+)/prices")
def subscription_prices(ctx, query, sub_id):
    sub = ctx.store.sub_by_id.get(sub_id)
    if sub is None:
        return not_found("subscriptions", sub_id)
    rows = territory_filter(price_rows(sub_id, sub.get("prices", []), "subscriptionPricePoints", "s", ctx.store.ladder), query)
    wanted_points = list_param(query, "filter[subscriptionPricePoint]")
    if wanted_points is not None:
        rows = [r for r in rows if r[2] in wanted_points]
    return 200, price_page(ctx, query, rows, ctx.res.subscription_price, "subscriptionPricePoint",
                           "subscriptionPricePoints"), {}


@route(r"/v1/subscriptions/([^/]+)/promotionalOffers")
def promotional_offers(ctx, query, sub_id):
    return owned_page(ctx, query, ctx.store.sub_by_id, "subscriptions", sub_id, "promotionalOffers", ctx.res.promotional_offer)


@route(r"/v1/subscriptions/([^/]+)/offerCodes")
def subscription_offer_codes(ctx, query, sub_id):
    """A subscription's offer codes, with their custom codes when `include` names them."""
    sub = ctx.store.sub_by_id.get(sub_id)
    if sub is None:
        return not_found("subscriptions", sub_id)
    custom_limit = None
    if "customCodes" in (list_param(query, "include") or []):
        custom_limit = int_param(query, "limit[customCodes]", DEFAULT_INCLUDED_LIMIT, 50)
    chunk, links, meta = ctx.pager.page(sub.get("offerCodes", []), query)
    body = {"data": [ctx.res.offer_code(c, custom_limit) for c in chunk], "links": links, "meta": meta}
    if custom_limit is not None:
        body["included"] = [ctx.res.custom_code(c) for code in chunk for c in code.get("customCodes", [])[:custom_limit]]
    return 200, body, {}


@route(r"/v1/subscriptionOfferCodes/([^/]+)/customCodes")
def offer_code_custom_codes(ctx, query, code_id):
    return owned_page(ctx, query, ctx.store.offer_code_by_id, "subscriptionOfferCodes", code_id, "customCodes", ctx.res.custom_code)


@route(r"/v1/subscriptions/([^/]+)/winBackOffers")
def win_back_offers(ctx, query, sub_id):
    return owned_page(ctx, query, ctx.store.sub_by_id, "subscriptions", sub_id, "winBackOffers", ctx.res.win_back_offer)


@route(r"/v1/subscriptions/([^/]+)/introductoryOffers")
def introductory_offers(ctx, query, sub_id):
    sub = ctx.store.sub_by_id.get(sub_id)
    if sub is None:
        return not_found("subscriptions", sub_id)
    rows = territory_filter(price_rows(sub_id, sub.get("introductoryOffers", []), "subscriptionPricePoints", "o", ctx.store.ladder), query)
    include = list_param(query, "include") or []

    def build(entry, ident, relationships):
        if "subscription" in include:
            relationships = dict(relationships, subscription={"data": {"type": "subscriptions", "id": sub_id}})
        return ctx.res.introductory_offer(entry, ident, relationships)

    body = price_page(ctx, query, rows, build, "subscriptionPricePoint", "subscriptionPricePoints", proceeds=False)
    if "subscription" in include and body["data"]:
        body["included"].append(ctx.res.subscription(sub))
    return 200, body, {}


# -- report downloads: 200 is the report's text, gzip-compressed, as `application/a-gzip`

class Raw:
    """A body that is not JSON: bytes and their content type."""

    def __init__(self, data, content_type):
        self.data = data
        self.content_type = content_type


GZIP = "application/a-gzip"  # the document's content type for both report downloads


def gzip_report(text):
    # Deterministic: no file name, mtime 0, the same bytes for the same text.
    return Raw(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0), GZIP)


def report_not_found():
    # Not a response the document lists for these operations; App Store Connect sends it anyway
    # (SOURCES.md). Logged with responseValid null (see UNDOCUMENTED).
    return 404, error_body(404, "NOT_FOUND", "The specified resource does not exist",
                           "There were no sales for the date specified."), {}


def single_filter(query, field):
    """The one value of filter[field], or None when the request leaves it out. The document
    types every filter as a comma-separated list; a download is one file, so the fake takes
    exactly one value and answers 400 otherwise."""
    name = "filter[%s]" % field
    values = list_param(query, name)
    if values is None:
        return None
    if len(values) != 1:
        raise ParameterError(name, "%s takes exactly one value; got '%s'." % (name, query[name]))
    return values[0]


def find_report(entries, query, fields):
    wanted = {f: single_filter(query, f) for f in fields}
    return [e for e in entries
            if all(value is None or e.get(f) == value for f, value in wanted.items())]


@route(r"/v1/salesReports")
def sales_reports(ctx, query):
    version = single_filter(query, "version")
    found = [e for e in find_report(ctx.store.sales_reports, query, SALES_REPORT_FIELDS)
             if version is None or "version" not in e or e["version"] == version]
    if not found:
        return report_not_found()
    # filter[reportDate] is optional for sales: without it, the latest matching report.
    latest = max(e["reportDate"] for e in found)
    entry = next(e for e in found if e["reportDate"] == latest)
    return 200, gzip_report(entry["content"]), {}


@route(r"/v1/financeReports")
def finance_reports(ctx, query):
    found = find_report(ctx.store.finance_reports, query, FINANCE_REPORT_FIELDS)
    if not found:
        return report_not_found()
    return 200, gzip_report(found[0]["content"]), {}


# ---------------------------------------------------------------- writes (iap asc apply)

@route(r"/v1/territories")
def list_territories(ctx, query):
    ladder = ctx.store.ladder.territories
    chunk, links, meta = ctx.pager.page(list(ladder), query)
    return 200, {"data": [ctx.res.territory(t, ladder[t]) for t in chunk], "links": links, "meta": meta}, {}


WRITE_ROUTES = []
MAX_BODY = 1024 * 1024  # a write's body may be at most 1 MB


def write_route(method, pattern):
    def register(function):
        WRITE_ROUTES.append((method, re.compile("^" + pattern + "$"), function))
        return function
    return register


class WriteError(Exception):
    """A write App Store Connect refuses: its status and errors[] body (the store is unchanged)."""

    def __init__(self, status, code, title, detail, pointer=None):
        super().__init__(detail)
        self.body = error_body(status, code, title, detail)
        if pointer is not None:
            self.body["errors"][0]["source"] = {"pointer": pointer}
        self.status = status


def duplicate(detail, pointer):
    return WriteError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                      "The provided entity includes an attribute with a value that has already been used",
                      detail, pointer)


def invalid_attribute(detail, pointer):
    return WriteError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID",
                      "The provided entity includes an attribute with an invalid value", detail, pointer)


def invalid_relationship(detail, pointer):
    return WriteError(409, "ENTITY_ERROR.RELATIONSHIP.INVALID",
                      "The provided entity includes a relationship with an invalid value", detail, pointer)


def missing(kind, ident):
    """A PATCH or DELETE of a resource that is not there (the document lists 404 for them)."""
    return WriteError(404, "NOT_FOUND", "The specified resource does not exist",
                      "There is no resource of type '%s' with id '%s'" % (kind, ident))


def related_id(data, name):
    """The id a to-one relationship of the request's `data` names, or None."""
    linkage = ((data.get("relationships") or {}).get(name) or {}).get("data")
    return linkage.get("id") if isinstance(linkage, dict) else None


def related_ids(data, name):
    linkage = ((data.get("relationships") or {}).get(name) or {}).get("data")
    return [l.get("id") for l in linkage] if isinstance(linkage, list) else []


def related(data, name, lookup, kind):
    """The store entry a required relationship names; 409 when there is none (the document lists
    no 404 for the creates: App Store Connect says the relationship is invalid)."""
    ident = related_id(data, name)
    found = lookup.get(ident)
    if found is None:
        raise invalid_relationship("There is no resource of type '%s' with id '%s'." % (kind, ident),
                                   "/data/relationships/%s" % name)
    return found


def same_id(data, ident):
    if data.get("id") != ident:
        raise invalid_attribute("The id '%s' in the request's body is not the id '%s' in its URL." % (data.get("id"), ident),
                                "/data/id")


def set_attributes(target, attributes, names, clearable=()):
    """Copies the attributes the request gives; null leaves one unchanged, or removes it (clearable)."""
    for name in names:
        if name not in attributes:
            continue
        if attributes[name] is None:
            if name in clearable:
                target.pop(name, None)
        else:
            target[name] = attributes[name]


def app_products(store, app_id):
    """Every in-app purchase and subscription of the app."""
    products = [i for i in store.iaps if i.get("app") == app_id]
    products += [s for g in store.groups if g.get("app") == app_id for s in g.get("subscriptions", [])]
    return products


def check_product_names(store, app_id, attributes, itself=None):
    """productId: unique among the app's products and never one of a deleted product;
    name (the reference name): unique among the app's products."""
    others = [p for p in app_products(store, app_id) if p is not itself]
    product_id = attributes.get("productId")
    if product_id is not None:
        if any(p.get("productId") == product_id for p in others):
            raise duplicate("The product ID '%s' is already used by another product of this app." % product_id,
                            "/data/attributes/productId")
        if product_id in store.used_product_ids:
            raise duplicate("The product ID '%s' was used by a deleted product; product IDs cannot be reused." % product_id,
                            "/data/attributes/productId")
    name = attributes.get("name")
    if name is not None and any(p.get("name") == name for p in others):
        raise duplicate("The reference name '%s' is already used by another product of this app." % name,
                        "/data/attributes/name")


def check_unchangeable(attributes, names, what):
    for name in names:
        if name in attributes:
            raise invalid_attribute("The %s of %s cannot be changed." % (name, what), "/data/attributes/" + name)


def check_family_sharing(product, attributes, what):
    if product.get("familySharable") and attributes.get("familySharable") is False:
        raise invalid_attribute("Family Sharing cannot be turned off for %s once it is on." % what,
                                "/data/attributes/familySharable")


def created(ctx, resource, path):
    ctx.changed = True
    return 201, {"data": resource, "links": {"self": "%s%s/%s" % (ctx.res.base, path, resource["id"])}}, {}


def updated(ctx, resource, path):
    ctx.changed = True
    return 200, {"data": resource, "links": {"self": "%s%s/%s" % (ctx.res.base, path, resource["id"])}}, {}


# -- subscription groups and their localizations

@write_route("POST", r"/v1/subscriptionGroups")
def create_group(ctx, body):
    data = body["data"]
    app = related(data, "app", ctx.store.app_by_id, "apps")
    name = data["attributes"]["referenceName"]
    if any(g.get("referenceName") == name for g in ctx.store.groups if g.get("app") == app["id"]):
        raise duplicate("The reference name '%s' is already used by another subscription group of this app." % name,
                        "/data/attributes/referenceName")
    group = {"id": ctx.store.new_id(), "app": app["id"], "referenceName": name, "subscriptions": [], "localizations": []}
    ctx.store.groups.append(group)
    ctx.store.reindex()
    return created(ctx, ctx.res.group(group), "/v1/subscriptionGroups")


def check_locale(owner, locale, what):
    if any(l.get("locale") == locale for l in owner.get("localizations", [])):
        raise duplicate("%s already has a localization for the locale '%s'." % (what, locale), "/data/attributes/locale")


@write_route("POST", r"/v1/subscriptionGroupLocalizations")
def create_group_localization(ctx, body):
    data = body["data"]
    group = related(data, "subscriptionGroup", ctx.store.group_by_id, "subscriptionGroups")
    attributes = data["attributes"]
    check_locale(group, attributes["locale"], "The subscription group")
    loc = {"id": ctx.store.new_id(), "locale": attributes["locale"], "name": attributes["name"],
           "state": "PREPARE_FOR_SUBMISSION"}
    if attributes.get("customAppName") is not None:
        loc["customAppName"] = attributes["customAppName"]
    group.setdefault("localizations", []).append(loc)
    return created(ctx, ctx.res.group_localization(loc), "/v1/subscriptionGroupLocalizations")


# -- in-app purchases

@write_route("POST", r"/v2/inAppPurchases")
def create_iap(ctx, body):
    data = body["data"]
    app = related(data, "app", ctx.store.app_by_id, "apps")
    attributes = data["attributes"]
    check_product_names(ctx.store, app["id"], attributes)
    # A new product: no price schedule ("prices" left out: its schedule is a 404), no availability.
    iap = {"id": ctx.store.new_id(), "app": app["id"], "productId": attributes["productId"], "name": attributes["name"],
           "inAppPurchaseType": attributes["inAppPurchaseType"], "state": "MISSING_METADATA",
           "familySharable": bool(attributes.get("familySharable"))}
    set_attributes(iap, attributes, ("reviewNote",))
    iap["localizations"] = []
    ctx.store.iaps.append(iap)
    ctx.store.reindex()
    return created(ctx, ctx.res.iap(iap), "/v2/inAppPurchases")


@write_route("PATCH", r"/v2/inAppPurchases/([^/]+)")
def update_iap(ctx, body, iap_id):
    iap = ctx.store.iap_by_id.get(iap_id)
    if iap is None:
        raise missing("inAppPurchases", iap_id)
    data = body["data"]
    same_id(data, iap_id)
    attributes = data.get("attributes") or {}
    check_unchangeable(attributes, ("inAppPurchaseType", "productId"), "an in-app purchase")
    check_family_sharing(iap, attributes, "an in-app purchase")
    check_product_names(ctx.store, iap.get("app"), {"name": attributes.get("name")}, itself=iap)
    set_attributes(iap, attributes, ("name", "reviewNote", "familySharable"), clearable=("reviewNote",))
    return updated(ctx, ctx.res.iap(iap), "/v2/inAppPurchases")


def approved_delete(what):
    # Not a status the document lists for the deletes: sent unvalidated (see UNDOCUMENTED_WRITES).
    return WriteError(409, "STATE_ERROR.ENTITY_STATE_INVALID",
                      "The request cannot be fulfilled because of the state of the resource",
                      "An approved %s cannot be deleted." % what)


@write_route("DELETE", r"/v2/inAppPurchases/([^/]+)")
def delete_iap(ctx, body, iap_id):
    iap = ctx.store.iap_by_id.get(iap_id)
    if iap is None:
        raise missing("inAppPurchases", iap_id)
    if iap.get("state") == "APPROVED":
        raise approved_delete("in-app purchase")
    ctx.store.iaps.remove(iap)
    ctx.store.used_product_ids.append(iap["productId"])
    ctx.store.reindex()
    ctx.changed = True
    return 204, None, {}


def find_localization(owners, loc_id):
    for owner in owners:
        for loc in owner.get("localizations", []):
            if loc.get("id") == loc_id:
                return loc
    return None


@write_route("POST", r"/v1/inAppPurchaseLocalizations")
def create_iap_localization(ctx, body):
    data = body["data"]
    iap = related(data, "inAppPurchaseV2", ctx.store.iap_by_id, "inAppPurchases")
    attributes = data["attributes"]
    check_locale(iap, attributes["locale"], "The in-app purchase")
    loc = {"id": ctx.store.new_id(), "locale": attributes["locale"], "name": attributes["name"]}
    set_attributes(loc, attributes, ("description",))
    loc["state"] = "PREPARE_FOR_SUBMISSION"
    iap.setdefault("localizations", []).append(loc)
    return created(ctx, ctx.res.iap_localization(loc), "/v1/inAppPurchaseLocalizations")


def update_localization(ctx, body, loc_id, owners, kind, build, path):
    loc = find_localization(owners, loc_id)
    if loc is None:
        raise missing(kind, loc_id)
    data = body["data"]
    same_id(data, loc_id)
    attributes = data.get("attributes") or {}
    check_unchangeable(attributes, ("locale",), "a localization")
    set_attributes(loc, attributes, ("name", "description"), clearable=("description",))
    return updated(ctx, build(loc), path)


@write_route("PATCH", r"/v1/inAppPurchaseLocalizations/([^/]+)")
def update_iap_localization(ctx, body, loc_id):
    return update_localization(ctx, body, loc_id, ctx.store.iaps, "inAppPurchaseLocalizations",
                               ctx.res.iap_localization, "/v1/inAppPurchaseLocalizations")


# -- subscriptions

@write_route("POST", r"/v1/subscriptions")
def create_subscription(ctx, body):
    data = body["data"]
    group = related(data, "group", ctx.store.group_by_id, "subscriptionGroups")
    attributes = data["attributes"]
    check_product_names(ctx.store, group.get("app"), attributes)
    sub = {"id": ctx.store.new_id(), "productId": attributes["productId"], "name": attributes["name"],
           "state": "MISSING_METADATA", "familySharable": bool(attributes.get("familySharable"))}
    set_attributes(sub, attributes, ("subscriptionPeriod", "reviewNote", "groupLevel"))
    if "groupLevel" not in sub:  # App Store Connect puts a new subscription below the group's others
        sub["groupLevel"] = max([s.get("groupLevel", 0) for s in group.get("subscriptions", [])] + [0]) + 1
    sub["localizations"] = []
    group.setdefault("subscriptions", []).append(sub)
    ctx.store.reindex()
    return created(ctx, ctx.res.subscription(sub), "/v1/subscriptions")


@write_route("PATCH", r"/v1/subscriptions/([^/]+)")
def update_subscription(ctx, body, sub_id):
    sub = ctx.store.sub_by_id.get(sub_id)
    if sub is None:
        raise missing("subscriptions", sub_id)
    data = body["data"]
    same_id(data, sub_id)
    relationships = data.get("relationships") or {}
    if set(relationships) - {"prices", "introductoryOffers"}:
        raise NotImplementedError("PATCH /v1/subscriptions/{id} with promotional offers inline")
    attributes = data.get("attributes") or {}
    check_unchangeable(attributes, ("productId",), "a subscription")
    check_family_sharing(sub, attributes, "a subscription")
    check_product_names(ctx.store, ctx.store.group_of_sub[sub_id].get("app"), {"name": attributes.get("name")}, itself=sub)
    included = body.get("included") or []
    named = set(related_ids(data, "prices")) | set(related_ids(data, "introductoryOffers"))
    for number, item in enumerate(included):
        if item.get("type") not in ("subscriptionPrices", "subscriptionIntroductoryOffers") or item.get("id") not in named:
            raise invalid_relationship("The included resource '%s' is not named by the subscription's prices or introductory offers."
                                       % item.get("id"), "/included/%d" % number)
    entries = inline_subscription_prices(ctx, sub, data, [i for i in included if i.get("type") == "subscriptionPrices"])
    priced = {e["territory"] for e in entries} | {p.get("territory") for p in sub.get("prices", [])}
    offers = inline_introductory_offers(ctx, sub, data, [i for i in included if i.get("type") == "subscriptionIntroductoryOffers"], priced)
    set_attributes(sub, attributes, ("name", "familySharable", "subscriptionPeriod", "reviewNote", "groupLevel"),
                   clearable=("reviewNote",))
    for entry in entries:
        add_subscription_price(sub, entry)
    if offers:
        sub.setdefault("introductoryOffers", []).extend(offers)
    ctx.store.reindex()
    return updated(ctx, ctx.res.subscription(sub), "/v1/subscriptions")


def inline_subscription_prices(ctx, sub, data, included):
    """The prices a PATCH of a subscription creates inline (App Store Connect's way to give a new
    subscription its first prices): each id in `relationships.prices` an `included`
    SubscriptionPriceInlineCreate naming a point of the ladder; one per territory; every included
    price named. Checked whole before anything is kept (409 RELATIONSHIP.INVALID)."""
    named = related_ids(data, "prices")
    inline = {item["id"]: item for item in included}
    entries, territories = [], set()
    for number, ident in enumerate(named):
        pointer = "/data/relationships/prices/data/%d" % number
        item = inline_item(inline, ident, pointer, "price", sub)
        point_id = related_id(item, "subscriptionPricePoint")
        if point_id is None:
            raise invalid_relationship("The price '%s' names no price point." % ident, pointer)
        territory, _, price, proceeds = ladder_point(ctx, "sub", point_id, pointer)
        wanted = related_id(item, "territory")
        if wanted is not None and wanted != territory:
            raise invalid_relationship("The price point '%s' is in the territory '%s', not '%s'." % (point_id, territory, wanted), pointer)
        if territory in territories:
            raise invalid_relationship("Two prices for the territory '%s' in one request." % territory, pointer)
        territories.add(territory)
        start = (item.get("attributes") or {}).get("startDate") or utc_today()
        entries.append({"territory": territory, "currency": ctx.store.ladder.territories[territory], "customerPrice": price,
                        "proceeds": proceeds, "startDate": start})
    return entries


def inline_item(inline, ident, pointer, what, sub=None):
    """The `included` item (by id) a relationship of the request names: 409 when it is not
    included, or is for another subscription than `sub`."""
    item = inline.get(ident)
    if item is None:
        raise invalid_relationship("The %s '%s' is not in `included`." % (what, ident), pointer)
    owner = related_id(item, "subscription")
    if sub is not None and owner is not None and owner != sub["id"]:
        raise invalid_relationship("The %s '%s' is for the subscription '%s', not '%s'." % (what, ident, owner, sub["id"]), pointer)
    return item


def inline_introductory_offers(ctx, sub, data, included, priced):
    """The introductory offers a PATCH of a subscription creates inline: each id in
    `relationships.introductoryOffers` an `included` SubscriptionIntroductoryOfferInlineCreate with
    a territory where the subscription has a price (after this request's prices), one per
    territory and none where an offer runs now or later; a free trial names no price point, a
    paid offer a subscription point of the territory's ladder. Checked whole before anything is
    kept (409)."""
    named = related_ids(data, "introductoryOffers")
    inline = {i.get("id"): i for i in included}
    today = utc_today()
    running = {o.get("territory") for o in sub.get("introductoryOffers", []) if (o.get("endDate") or "9999-12-31") > today}
    entries, territories = [], set()
    for number, ident in enumerate(named):
        pointer = "/data/relationships/introductoryOffers/data/%d" % number
        item = inline_item(inline, ident, pointer, "introductory offer", sub)
        territory = related_id(item, "territory")
        if territory not in ctx.store.ladder.territories:
            raise invalid_relationship("The offer '%s' names no territory App Store Connect has." % ident, pointer)
        if territory not in priced:
            raise invalid_relationship("The subscription has no price in '%s': an introductory offer needs one." % territory, pointer)
        if territory in territories or territory in running:
            raise invalid_attribute("An introductory offer already runs in '%s': offers in a territory cannot overlap." % territory, pointer)
        territories.add(territory)
        attributes = item.get("attributes") or {}
        entry = {"territory": territory, "offerMode": attributes["offerMode"], "duration": attributes["duration"],
                 "numberOfPeriods": attributes["numberOfPeriods"]}
        point_id = related_id(item, "subscriptionPricePoint")
        if attributes["offerMode"] == "FREE_TRIAL":
            if point_id is not None:
                raise invalid_relationship("A free trial has no price: the offer '%s' names a price point." % ident, pointer)
        else:
            if point_id is None:
                raise invalid_relationship("The %s offer '%s' names no price point." % (attributes["offerMode"], ident), pointer)
            where, _, price, _ = ladder_point(ctx, "sub", point_id, pointer)
            if where != territory:
                raise invalid_relationship("The price point '%s' is in '%s', not '%s'." % (point_id, where, territory), pointer)
            entry.update({"customerPrice": price, "currency": ctx.store.ladder.territories[territory]})
        for name in ("startDate", "endDate"):
            if attributes.get(name):
                entry[name] = attributes[name]
        entries.append(entry)
    return entries


def add_subscription_price(sub, entry):
    """A price added to a subscription; one starting the same day in the territory is replaced."""
    prices = [p for p in sub.get("prices", []) if not (p.get("territory") == entry["territory"] and p.get("startDate") == entry["startDate"])]
    prices.append(entry)
    sub["prices"] = prices


@write_route("DELETE", r"/v1/subscriptions/([^/]+)")
def delete_subscription(ctx, body, sub_id):
    sub = ctx.store.sub_by_id.get(sub_id)
    if sub is None:
        raise missing("subscriptions", sub_id)
    if sub.get("state") == "APPROVED":
        raise approved_delete("subscription")
    ctx.store.group_of_sub[sub_id]["subscriptions"].remove(sub)
    ctx.store.used_product_ids.append(sub["productId"])
    ctx.store.reindex()
    ctx.changed = True
    return 204, None, {}


@write_route("POST", r"/v1/subscriptionLocalizations")
def create_subscription_localization(ctx, body):
    data = body["data"]
    sub = related(data, "subscription", ctx.store.sub_by_id, "subscriptions")
    attributes = data["attributes"]
    check_locale(sub, attributes["locale"], "The subscription")
    loc = {"id": ctx.store.new_id(), "locale": attributes["locale"], "name": attributes["name"]}
    set_attributes(loc, attributes, ("description",))
    loc["state"] = "PREPARE_FOR_SUBMISSION"
    sub.setdefault("localizations", []).append(loc)
    return created(ctx, ctx.res.subscription_localization(loc), "/v1/subscriptionLocalizations")


@write_route("PATCH", r"/v1/subscriptionLocalizations/([^/]+)")
def update_subscription_localization(ctx, body, loc_id):
    return update_localization(ctx, body, loc_id, list(ctx.store.sub_by_id.values()), "subscriptionLocalizations",
                               ctx.res.subscription_localization, "/v1/subscriptionLocalizations")


# -- prices: only at the ladder's price points

def ladder_point(ctx, kind, point_id, pointer):
    found = ctx.store.ladder.tier(kind, point_id)
    if found is None:
        what = "an in-app purchase" if kind == "iap" else "a subscription"
        raise invalid_relationship("'%s' is not a price point of %s: prices can only be set at price points." % (point_id, what),
                                   pointer)
    territory, index = found
    price, proceeds = ctx.store.ladder.points[territory][index]
    return territory, index, price, proceeds


def ladder_territory(ctx, territory, pointer):
    if territory not in ctx.store.ladder.territories:
        raise invalid_relationship("'%s' is not a territory." % territory, pointer)


@write_route("POST", r"/v1/inAppPurchasePriceSchedules")
def create_price_schedule(ctx, body):
    data = body["data"]
    iap = related(data, "inAppPurchase", ctx.store.iap_by_id, "inAppPurchases")
    base_territory = related_id(data, "baseTerritory")
    ladder_territory(ctx, base_territory, "/data/relationships/baseTerritory")
    inline = {i.get("id"): i for i in body.get("included") or [] if i.get("type") == "inAppPurchasePrices"}
    # Each territory's manual prices as (start, end, tier), "" and "~" standing for open ends.
    manual, by_territory = [], {}
    today = utc_today()
    for number, ident in enumerate(related_ids(data, "manualPrices")):
        pointer = "/data/relationships/manualPrices/data/%d" % number
        item = inline.get(ident)
        if item is None:
            raise invalid_relationship("The manual price '%s' is not in `included`." % ident, pointer)
        owner = related_id(item, "inAppPurchaseV2")
        if owner is not None and owner != iap["id"]:
            raise invalid_relationship("The manual price '%s' is for the in-app purchase '%s', not '%s'." % (ident, owner, iap["id"]),
                                       pointer)
        point_id = related_id(item, "inAppPurchasePricePoint")
        if point_id is None:
            raise invalid_relationship("The manual price '%s' names no price point." % ident, pointer)
        territory, index, price, proceeds = ladder_point(ctx, "iap", point_id, pointer)
        attributes = item.get("attributes") or {}
        start, end = price_days(attributes, today, pointer)
        for other_start, other_end, _ in by_territory.get(territory, []):
            if (start or "") < (other_end or "~") and (other_start or "") < (end or "~"):
                raise invalid_relationship("Two manual prices for the territory '%s' overlap: a territory has one manual price at a time."
                                           % territory, pointer)
        entry = {"territory": territory, "currency": ctx.store.ladder.territories[territory], "customerPrice": price,
                 "proceeds": proceeds, "manual": True, "startDate": start, "endDate": end}
        by_territory.setdefault(territory, []).append((start, end, index))
        manual.append(entry)
    # The base territory has a manual price from today on, without a gap.
    base_prices = sorted(by_territory.get(base_territory, []), key=lambda e: e[0] or "")
    if not base_prices:
        raise invalid_relationship("The base territory '%s' has no manual price." % base_territory,
                                   "/data/relationships/baseTerritory")
    reach = ""
    for start, end, _ in base_prices:
        if (start or "") > max(reach, today):
            raise invalid_relationship("The base territory '%s' has no manual price from %s to %s." % (base_territory, max(reach, today), start),
                                       "/data/relationships/baseTerritory")
        reach = end or "~"
    if reach != "~":
        raise invalid_relationship("The base territory '%s' has no manual price from %s on." % (base_territory, reach),
                                   "/data/relationships/baseTerritory")
    # Every other territory, while it has no manual price: the base price's equalization then
    # (the same tier), set automatically.
    automatic = []
    for territory, currency in ctx.store.ladder.territories.items():
        own = by_territory.get(territory, [])
        for base_start, base_end, tier in base_prices:
            for start, end in uncovered((base_start or "", base_end or "~"), [((s or ""), (e or "~")) for s, e, _ in own]):
                price, proceeds = ctx.store.ladder.points[territory][tier]
                automatic.append({"territory": territory, "currency": currency, "customerPrice": price, "proceeds": proceeds,
                                  "manual": False, "startDate": start or None, "endDate": None if end == "~" else end})
    iap["baseTerritory"] = base_territory
    iap["prices"] = manual + automatic
    ctx.store.reindex()
    status, answer, headers = iap_price_schedule(ctx, {}, iap["id"])
    answer["links"]["self"] = "%s/v1/inAppPurchasePriceSchedules/%s" % (ctx.res.base, iap["id"])
    ctx.changed = True
    return 201, answer, headers


def uncovered(span, covers):
    """The parts of `span` (start, end; "" and "~" open) that no interval of `covers` covers."""
    parts = [span]
    for c_start, c_end in covers:
        rest = []
        for start, end in parts:
            if c_end <= start or c_start >= end:
                rest.append((start, end))
                continue
            if start < c_start:
                rest.append((start, c_start))
            if c_end < end:
                rest.append((c_end, end))
        parts = rest
    return parts


def price_days(attributes, today, pointer):
    """A price's startDate and endDate (None: open), each a day; one that starts before today,
    or ends before it starts, is refused (409), as App Store Connect schedules only ahead."""
    start, end = attributes.get("startDate"), attributes.get("endDate")
    for name, day in (("startDate", start), ("endDate", end)):
        if day is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(day)):
            raise invalid_attribute("'%s' is not a date (YYYY-MM-DD)." % day, pointer + "/attributes/" + name)
    if start is not None and start < today:
        raise invalid_attribute("The startDate %s is in the past: a price starts today or later." % start, pointer + "/attributes/startDate")
    if end is not None and end <= (start or today):
        raise invalid_attribute("The endDate %s is not after the price starts." % end, pointer + "/attributes/endDate")
    return start, end


def utc_today():
    return time.strftime("%Y-%m-%d", time.gmtime())


@write_route("POST", r"/v1/subscriptionPrices")
def create_subscription_price(ctx, body):
    data = body["data"]
    sub = related(data, "subscription", ctx.store.sub_by_id, "subscriptions")
    if not sub.get("prices"):
        # App Store Connect's "price change" needs a price to change: on a subscription with none
        # it answers 500 UNEXPECTED_ERROR (rorkai/App-Store-Connect-CLI #829); the first prices
        # are created inline by PATCH /v1/subscriptions/{id}. Sent unvalidated (UNDOCUMENTED_WRITES).
        raise WriteError(500, "UNEXPECTED_ERROR", "An unexpected error occurred.",
                         "An unexpected error occurred on the server side. If this issue continues, contact us at "
                         "https://developer.apple.com/contact/.")
    point_id = related_id(data, "subscriptionPricePoint")
    territory, _, price, proceeds = ladder_point(ctx, "sub", point_id, "/data/relationships/subscriptionPricePoint")
    wanted = related_id(data, "territory")
    if wanted is not None and wanted != territory:
        raise invalid_relationship("The price point '%s' is in the territory '%s', not '%s'." % (point_id, territory, wanted),
                                   "/data/relationships/territory")
    # No startDate: the price takes effect today (UTC), so it is the one that started last.
    start, _ = price_days({"startDate": (data.get("attributes") or {}).get("startDate")}, utc_today(), "/data")
    start = start or utc_today()
    entry = {"territory": territory, "currency": ctx.store.ladder.territories[territory], "customerPrice": price,
             "proceeds": proceeds, "startDate": start}
    add_subscription_price(sub, entry)
    ctx.store.reindex()
    ident = opaque_id("s", sub["id"], territory, len(sub["prices"]) - 1)
    relationships = {"subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": point_id}},
                     "territory": {"data": {"type": "territories", "id": territory}}}
    return created(ctx, ctx.res.subscription_price(entry, ident, relationships), "/v1/subscriptionPrices")


# -- promotional offers

@write_route("POST", r"/v1/subscriptionPromotionalOffers")
def create_promotional_offer(ctx, body):
    """A promotional offer with its prices inline: an offer code unique to the subscription, and
    for each named price an included SubscriptionPromotionalOfferPriceInlineCreate in a territory
    where the subscription has a price, one a territory; a paid offer's at a subscription point
    of that territory, a free trial's with none (each a 409 that keeps nothing)."""
    data = body["data"]
    sub = related(data, "subscription", ctx.store.sub_by_id, "subscriptions")
    attributes = data["attributes"]
    if any(p.get("offerCode") == attributes["offerCode"] for p in sub.get("promotionalOffers", [])):
        raise duplicate("The offer code '%s' is already used by another promotional offer of this subscription." % attributes["offerCode"],
                        "/data/attributes/offerCode")
    prices = offer_prices(ctx, sub, data, body, "subscriptionPromotionalOfferPrices", attributes["offerMode"], "A promotional offer")
    offer = {"id": ctx.store.new_id(), "offerCode": attributes["offerCode"], "name": attributes["name"],
             "offerMode": attributes["offerMode"], "duration": attributes["duration"],
             "numberOfPeriods": attributes["numberOfPeriods"], "prices": prices}
    sub.setdefault("promotionalOffers", []).append(offer)
    return created(ctx, ctx.res.promotional_offer(offer), "/v1/subscriptionPromotionalOffers")


def offer_prices(ctx, sub, data, body, price_type, mode, what):
    """An offer's prices created inline: for each id its `prices` names, an included `price_type`
    in a territory where the subscription has a price, one a territory; a paid offer's at a
    subscription point of that territory, a free trial's with none (each a 409 that keeps nothing)."""
    named = related_ids(data, "prices")
    inline = {}
    for number, item in enumerate(body.get("included") or []):
        if item.get("type") != price_type or item.get("id") not in named:
            raise invalid_relationship("The included resource '%s' is not named by the offer's prices." % item.get("id"), "/included/%d" % number)
        inline[item["id"]] = item
    if not named:
        raise invalid_relationship("%s needs a price in at least one territory." % what, "/data/relationships/prices")
    priced = {p.get("territory") for p in sub.get("prices", [])}
    prices, territories = [], set()
    for number, ident in enumerate(named):
        pointer = "/data/relationships/prices/data/%d" % number
        item = inline_item(inline, ident, pointer, "price")
        territory = related_id(item, "territory")
        if territory not in priced:
            raise invalid_relationship("The subscription has no price in '%s': an offer needs one." % territory, pointer)
        if territory in territories:
            raise invalid_relationship("Two prices for the territory '%s' in one offer." % territory, pointer)
        territories.add(territory)
        point_id = related_id(item, "subscriptionPricePoint")
        entry = {"territory": territory}
        if mode == "FREE_TRIAL":
            if point_id is not None:
                raise invalid_relationship("A free offer has no price: the price '%s' names a price point." % ident, pointer)
        else:
            if point_id is None:
                raise invalid_relationship("The price '%s' names no price point." % ident, pointer)
            where, _, price, _ = ladder_point(ctx, "sub", point_id, pointer)
            if where != territory:
                raise invalid_relationship("The price point '%s' is in '%s', not '%s'." % (point_id, where, territory), pointer)
            entry["customerPrice"] = price
        prices.append(entry)
    return prices


# -- offer codes

@write_route("POST", r"/v1/subscriptionOfferCodes")
def create_offer_code(ctx, body):
    """An offer code (the campaign, without codes) with its prices inline: a name unique to the
    subscription, at least one kind of customer, each once, and its prices as a promotional
    offer's (each a 409 that keeps nothing)."""
    data = body["data"]
    sub = related(data, "subscription", ctx.store.sub_by_id, "subscriptions")
    attributes = data["attributes"]
    if any(c.get("name") == attributes["name"] for c in sub.get("offerCodes", [])):
        raise duplicate("The name '%s' is already used by another offer code of this subscription." % attributes["name"],
                        "/data/attributes/name")
    kinds = attributes["customerEligibilities"]
    if not kinds or len(set(kinds)) != len(kinds):
        raise invalid_attribute("An offer code is for at least one kind of customer, each named once.", "/data/attributes/customerEligibilities")
    prices = offer_prices(ctx, sub, data, body, "subscriptionOfferCodePrices", attributes["offerMode"], "An offer code")
    code = {"id": ctx.store.new_id(), "prices": prices, "active": True, "totalNumberOfCodes": 0}
    for name in ("name", "customerEligibilities", "offerEligibility", "duration", "offerMode", "numberOfPeriods"):
        code[name] = attributes[name]
    sub.setdefault("offerCodes", []).append(code)
    ctx.store.offer_code_by_id[code["id"]] = code
    return created(ctx, ctx.res.offer_code(code), "/v1/subscriptionOfferCodes")


@write_route("POST", r"/v1/subscriptionOfferCodeCustomCodes")
def create_custom_code(ctx, body):
    """A custom code of an offer code: letters and digits, a word no offer code of the app has
    (in any case), at least one redemption, and an expiration date not in the past (each a 409
    that keeps nothing)."""
    data = body["data"]
    code = related(data, "offerCode", ctx.store.offer_code_by_id, "subscriptionOfferCodes")
    attributes = data["attributes"]
    word = attributes["customCode"]
    if not re.fullmatch(r"[A-Za-z0-9]{1,64}", word):
        raise invalid_attribute("A custom code is 1 to 64 letters and digits.", "/data/attributes/customCode")
    taken = [c for sub in ctx.store.sub_by_id.values() for oc in sub.get("offerCodes", []) for c in oc.get("customCodes", [])]
    if any(c["customCode"].upper() == word.upper() for c in taken):
        raise duplicate("The custom code '%s' is already used in this app." % word, "/data/attributes/customCode")
    if attributes["numberOfCodes"] < 1:
        raise invalid_attribute("A custom code allows at least 1 redemption.", "/data/attributes/numberOfCodes")
    expiration = attributes.get("expirationDate")
    if expiration is not None and (not re.fullmatch(r"\d{4}-\d{2}-\d{2}", expiration) or expiration < utc_today()):
        raise invalid_attribute("The expirationDate %s is not a day from today on." % expiration, "/data/attributes/expirationDate")
    custom = {"id": ctx.store.new_id(), "customCode": word, "numberOfCodes": attributes["numberOfCodes"], "active": True,
              "createdDate": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if expiration is not None:
        custom["expirationDate"] = expiration
    code.setdefault("customCodes", []).append(custom)
    return created(ctx, ctx.res.custom_code(custom), "/v1/subscriptionOfferCodeCustomCodes")


# -- win-back offers

@write_route("POST", r"/v1/winBackOffers")
def create_win_back_offer(ctx, body):
    """A win-back offer with its prices inline: an offer identifier unique to the subscription,
    eligibility in months (paid at least 1, lapsed from minimum to maximum), a start date not in
    the past and an end date after it, and its prices as a promotional offer's (each a 409 that
    keeps nothing)."""
    data = body["data"]
    sub = related(data, "subscription", ctx.store.sub_by_id, "subscriptions")
    attributes = data["attributes"]
    if any(o.get("offerId") == attributes["offerId"] for o in sub.get("winBackOffers", [])):
        raise duplicate("The offer identifier '%s' is already used by another win-back offer of this subscription." % attributes["offerId"],
                        "/data/attributes/offerId")
    lapsed = attributes["customerEligibilityTimeSinceLastSubscribedInMonths"]
    low, high = lapsed.get("minimum"), lapsed.get("maximum")
    if not isinstance(low, int) or not isinstance(high, int) or low < 1 or high < low:
        raise invalid_attribute("The months since the last subscription must run from a minimum of at least 1 to a maximum not below it.",
                                "/data/attributes/customerEligibilityTimeSinceLastSubscribedInMonths")
    if attributes["customerEligibilityPaidSubscriptionDurationInMonths"] < 1:
        raise invalid_attribute("The paid subscription duration is at least 1 month.",
                                "/data/attributes/customerEligibilityPaidSubscriptionDurationInMonths")
    start, end = price_days({"startDate": attributes["startDate"], "endDate": attributes.get("endDate")}, utc_today(), "/data")
    prices = offer_prices(ctx, sub, data, body, "winBackOfferPrices", attributes["offerMode"], "A win-back offer")
    offer = {"id": ctx.store.new_id(), "prices": prices}
    for name in ("offerId", "referenceName", "offerMode", "duration", "periodCount", "customerEligibilityPaidSubscriptionDurationInMonths",
                 "customerEligibilityTimeSinceLastSubscribedInMonths", "customerEligibilityWaitBetweenOffersInMonths", "startDate",
                 "endDate", "priority"):
        if attributes.get(name) is not None:
            offer[name] = attributes[name]
    sub.setdefault("winBackOffers", []).append(offer)
    return created(ctx, ctx.res.win_back_offer(offer), "/v1/winBackOffers")


# -- availabilities: the territories a product is for sale in

def create_availability(ctx, body, product_rel, lookup, product_kind, kind):
    data = body["data"]
    product = related(data, product_rel, lookup, product_kind)
    territories = related_ids(data, "availableTerritories")
    for number, territory in enumerate(territories):
        ladder_territory(ctx, territory, "/data/relationships/availableTerritories/data/%d" % number)
    product["availability"] = {"id": ctx.store.new_id(),
                               "availableInNewTerritories": data["attributes"]["availableInNewTerritories"],
                               "territories": sorted(set(territories))}
    return created(ctx, ctx.res.availability(kind, product), "/v1/" + kind)


@write_route("POST", r"/v1/inAppPurchaseAvailabilities")
def create_iap_availability(ctx, body):
    return create_availability(ctx, body, "inAppPurchase", ctx.store.iap_by_id, "inAppPurchases", "inAppPurchaseAvailabilities")


@write_route("POST", r"/v1/subscriptionAvailabilities")
def create_subscription_availability(ctx, body):
    return create_availability(ctx, body, "subscription", ctx.store.sub_by_id, "subscriptions", "subscriptionAvailabilities")


# (path, status) answers the document does not list but App Store Connect sends: sent
# without response validation and logged with responseValid null.
UNDOCUMENTED = {("/v1/salesReports", 404), ("/v1/financeReports", 404)}
# The same for writes, by (method, status): App Store Connect refuses to delete an approved
# product with a 409; the document lists no 409 for the deletes.
# A subscription price "change" on a subscription with no price is answered 500 (see
# create_subscription_price); the document lists no 500.
UNDOCUMENTED_WRITES = {("DELETE", 409), ("POST", 500)}


class Context:
    def __init__(self, store, base, path, pairs, cap):
        self.store = store
        self.res = Resources(base)
        self.pager = Pager(base, path, pairs, cap)
        self.changed = False  # a write sets it when it changed the store


# ---------------------------------------------------------------- the server

class FakeASC:
    def __init__(self, args, openapi, store, public_key):
        self.args = args
        self.openapi = openapi
        self.store = store
        self.public_key = public_key
        self.lock = threading.Lock()
        self.store_lock = threading.Lock()  # one write (or read of the store) at a time
        self.requests_seen = 0
        self.writes_seen = 0
        self.log_file = open(args.log, "a", encoding="utf-8") if args.log else None
        self.port = None

    def next_request_number(self):
        with self.lock:
            self.requests_seen += 1
            return self.requests_seen

    def next_write_number(self):
        with self.lock:
            self.writes_seen += 1
            return self.writes_seen

    def save_state(self):
        """--state: the whole store, as --store reads it, written atomically (FILE.tmp, then renamed).
        Called with store_lock held."""
        if not self.args.state:
            return
        temporary = self.args.state + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(self.store.to_raw(), handle, ensure_ascii=False, separators=(",", ":"))
            handle.write("\n")
        os.replace(temporary, self.args.state)

    def log(self, entry):
        if self.log_file is None:
            return
        line = json.dumps(entry, sort_keys=False, separators=(",", ":"))
        with self.lock:
            self.log_file.write(line + "\n")
            self.log_file.flush()

    def close(self):
        with self.lock:
            if self.log_file is not None:
                self.log_file.flush()


def encode_body(body):
    """(bytes, content type) of a route's body: Raw as it is, anything else as compact JSON."""
    if isinstance(body, Raw):
        return body.data, body.content_type
    if body is None:  # 204: no content
        return b"", ""
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), "application/json"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeAppStoreConnect/1"
    fake = None  # set on the subclass made in main()

    def log_message(self, format, *args):  # quiet: the JSON log says it all
        pass

    def parse_target(self):
        raw_path, _, raw_query = self.path.partition("?")
        pairs = parse_qsl(raw_query, keep_blank_values=True)
        query = {}
        for key, value in pairs:
            query[key] = value if key not in query else query[key] + "," + value
        return raw_path, pairs, query

    def validate_request(self, entry, oa_request):
        """openapi-core's verdict on the request: None when the document allows it, else the reason."""
        try:
            self.fake.openapi.validate_request(oa_request)
            entry["requestValid"] = True
            return None
        except Exception as error:  # openapi-core's errors, whatever their class
            entry["requestValid"] = False
            return describe(error)

    def do_GET(self):
        fake = self.fake
        raw_path, pairs, query = self.parse_target()
        entry = {"method": "GET", "path": raw_path, "query": query, "status": None,
                 "requestValid": None, "responseValid": None, "error": None}
        base = "http://127.0.0.1:%d" % fake.port
        oa_request = OARequest(raw_path, pairs, list(self.headers.items()))
        request_error = self.validate_request(entry, oa_request)

        reason = verify_jwt(self.headers.get("Authorization"), fake.public_key,
                            fake.args.issuer, fake.args.key_id)
        if reason is not None:
            return self.answer(entry, oa_request, raw_path, *not_authorized(reason))
        if request_error is not None:
            entry["error"] = "request: " + request_error
            return self.fail_loudly(entry, MISMATCH + "request: " + request_error)
        if self.limits_and_scenarios(entry, base, raw_path, write=False):
            return

        status, body, headers = self.dispatch(fake, base, raw_path, pairs, query)
        if status is None:
            entry["error"] = body
            return self.fail_loudly(entry, body)
        if fake.args.scenario == "truncated-json":
            data, content_type = encode_body(body)
            return self.scenario_bytes(entry, status, data, truncate=True, content_type=content_type)
        return self.answer(entry, oa_request, raw_path, status, body, headers)

    def limits_and_scenarios(self, entry, base, raw_path, write):
        """The hour's limit, --latency-ms and the scenarios, for a request that passed the token
        check and the document's validation. True when it has been answered here."""
        fake = self.fake
        number = fake.next_request_number()
        if fake.args.latency_ms:
            time.sleep(fake.args.latency_ms / 1000.0)
        # App Store Connect's hourly limit: every answer says what is left; past it, 429.
        remaining = fake.args.hour_limit - number
        if remaining < 0:
            self.scenario_json(entry, 429, error_body(
                429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                "We've received too many requests for this API. Please wait and try again or slow down your request rate."),
                {"X-Rate-Limit": "user-hour-lim:%d;user-hour-rem:0;" % fake.args.hour_limit})
            return True
        self.rate_limit = "user-hour-lim:%d;user-hour-rem:%d;" % (fake.args.hour_limit, remaining)
        scenario = fake.args.scenario
        if scenario == "rate-limit-once" and number == 1:
            self.scenario_json(entry, 429, error_body(
                429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                "We've received too many requests for this API. Please wait and try again or slow down your request rate."),
                {"Retry-After": "1", "X-Rate-Limit": "user-hour-lim:3600;user-hour-rem:0;"})
            return True
        if scenario == "unauthorized":
            self.scenario_json(entry, *not_authorized("scenario unauthorized: every request is refused."))
            return True
        if scenario == "forbidden":
            self.scenario_json(entry, 403, error_body(
                403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                "The API key in use does not allow this request: its role cannot read in-app purchases."), {})
            return True
        if scenario == "server-error-once" and number == 1:
            self.scenario_json(entry, 500, unexpected_error(), {})
            return True
        if scenario == "server-error-always":
            self.scenario_json(entry, 503, error_body(
                503, "SERVICE_UNAVAILABLE", "The service is temporarily unavailable.",
                "The request could not be served; try again later."), {})
            return True
        if scenario == "malformed-json":
            self.scenario_bytes(entry, 200, b'{"data": [{"type": "inAppPurchases", "id": ]]}\x00garbage<<<')
            return True
        if scenario == "huge" and not write:
            self.scenario_huge(entry, base, raw_path)
            return True
        if scenario == "slow":
            time.sleep(30)
        return False

    # -- writes: POST, PATCH, DELETE

    def do_POST(self):
        self.write("POST")

    def do_PATCH(self):
        self.write("PATCH")

    def do_DELETE(self):
        self.write("DELETE")

    def write(self, method):
        fake = self.fake
        raw_path, pairs, query = self.parse_target()
        entry = {"method": method, "path": raw_path, "query": query, "body": None, "status": None,
                 "requestValid": None, "responseValid": None, "error": None}
        base = "http://127.0.0.1:%d" % fake.port
        oa_request = OARequest(raw_path, pairs, list(self.headers.items()), method.lower())
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            # Refused unread (a 413, as a 400: the document lists no 413); the connection is closed.
            self.close_connection = True
            if 0 < length <= 16 * MAX_BODY:
                self.drain(length)
            return self.answer(entry, oa_request, raw_path, 400, error_body(
                400, "ENTITY_ERROR.REQUEST_TOO_LARGE", "The request entity is too large",
                "The request's body is %s bytes; at most %d are accepted." % (
                    length if length >= 0 else "an unknown number of", MAX_BODY)), {})
        data = self.rfile.read(length) if length else b""
        if data:
            try:
                entry["body"] = json.loads(data)
            except ValueError:
                entry["body"] = data.decode("utf-8", "replace")
            oa_request.body = data
            oa_request.content_type = self.headers.get("Content-Type") or ""
        request_error = self.validate_request(entry, oa_request)

        reason = verify_jwt(self.headers.get("Authorization"), fake.public_key,
                            fake.args.issuer, fake.args.key_id)
        if reason is not None:
            return self.answer(entry, oa_request, raw_path, *not_authorized(reason))
        if request_error is not None:
            entry["error"] = "request: " + request_error
            return self.fail_loudly(entry, MISMATCH + "request: " + request_error)
        if self.limits_and_scenarios(entry, base, raw_path, write=True):
            return
        if fake.args.scenario == "read-only-key":
            return self.answer(entry, oa_request, raw_path, 403, error_body(
                403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                "The API key in use does not allow this request: its role cannot create or edit in-app purchases "
                "(App Manager or Admin can)."), {})

        number = fake.next_write_number()
        injected = None
        if fake.args.write_failure is not None:
            mode, every = fake.args.write_failure
            injected = mode if number % every == 0 else None
        if injected == "before":
            entry["injected"] = "before"
            return self.scenario_json(entry, 500, unexpected_error(), {})
        status, body, headers, documented = self.dispatch_write(fake, base, method, raw_path, pairs, entry["body"])
        if status is None:
            entry["error"] = body
            return self.fail_loudly(entry, body)
        if injected == "after":
            entry["injected"] = "after"
            return self.scenario_json(entry, 500, unexpected_error(), {})
        if fake.args.scenario == "truncated-json":
            data, content_type = encode_body(body)
            return self.scenario_bytes(entry, status, data, truncate=True, content_type=content_type)
        return self.answer(entry, oa_request, raw_path, status, body, headers, documented=documented)

    def drain(self, length):
        try:
            while length > 0:
                block = self.rfile.read(min(length, 1 << 16))
                if not block:
                    break
                length -= len(block)
        except OSError:
            pass

    def dispatch_write(self, fake, base, method, raw_path, pairs, body):
        """(status, body, headers, documented): documented false for an answer the document does
        not list (UNDOCUMENTED_WRITES), sent without response validation."""
        for route_method, pattern, function in WRITE_ROUTES:
            match = pattern.match(raw_path) if route_method == method else None
            if not match:
                continue
            if method != "DELETE" and not (isinstance(body, dict) and isinstance(body.get("data"), dict)):
                return None, "fake server: %s %s without a JSON body with `data`" % (method, raw_path), {}, True
            ctx = Context(fake.store, base, raw_path, pairs, fake.args.page_size)
            with fake.store_lock:
                try:
                    status, answer, headers = function(ctx, body, *match.groups())
                except WriteError as error:
                    return error.status, error.body, {}, (method, error.status) not in UNDOCUMENTED_WRITES
                except NotImplementedError as error:
                    return None, "fake server: operation not implemented: %s" % error, {}, True
                except Exception as error:
                    return None, "fake server bug: %s: %s" % (type(error).__name__, error), {}, True
                if ctx.changed:
                    try:
                        fake.save_state()
                    except OSError as error:
                        return None, "fake server: cannot write --state %s: %s" % (fake.args.state, error), {}, True
            return status, answer, headers, True
        return None, "fake server: operation not implemented: %s %s" % (method, raw_path), {}, True

    def dispatch(self, fake, base, raw_path, pairs, query):
        for pattern, function in ROUTES:
            match = pattern.match(raw_path)
            if match:
                ctx = Context(fake.store, base, raw_path, pairs, fake.args.page_size)
                try:
                    with fake.store_lock:
                        return function(ctx, query, *match.groups())
                except ParameterError as error:
                    return parameter_error(error.parameter, error.detail)
                except Exception as error:
                    return None, "fake server bug: %s: %s" % (type(error).__name__, error), {}
        return None, "fake server: operation not implemented: GET %s" % raw_path, {}

    # -- answers

    def answer(self, entry, oa_request, raw_path, status, body, headers, documented=True):
        """A normal answer: validated against the document before it is sent (except the
        answers in UNDOCUMENTED and UNDOCUMENTED_WRITES, logged with responseValid null)."""
        data, content_type = encode_body(body)
        if documented and (raw_path, status) not in UNDOCUMENTED:
            try:
                self.fake.openapi.validate_response(oa_request, OAResponse(status, data, content_type))
                if content_type == GZIP:
                    # openapi-core checks the status, the content type and that there is a body;
                    # the schema (string, format binary) says nothing of the bytes: check them here.
                    if data[:2] != b"\x1f\x8b":
                        raise ValueError("the body does not start with gzip's magic bytes 1f 8b")
                    gzip.decompress(data)
                entry["responseValid"] = True
            except Exception as error:
                entry["responseValid"] = False
                reason = describe(error)
                entry["error"] = "response %d: %s" % (status, reason)
                return self.fail_loudly(entry, MISMATCH + entry["error"])
        entry["status"] = status
        self.fake.log(entry)
        self.send_bytes(status, data, headers, content_type=content_type)

    def fail_loudly(self, entry, reason):
        entry["status"] = 599
        self.fake.log(entry)
        self.send_bytes(599, reason.encode("utf-8"), {}, content_type="text/plain; charset=utf-8")

    def scenario_json(self, entry, status, body, headers):
        entry["status"] = status
        self.fake.log(entry)
        self.send_bytes(status, json.dumps(body, separators=(",", ":")).encode(), headers)

    def scenario_bytes(self, entry, status, data, truncate=False, content_type="application/json"):
        entry["status"] = status
        self.fake.log(entry)
        if not truncate:
            return self.send_bytes(status, data, {})
        self.close_connection = True
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def scenario_huge(self, entry, base, raw_path):
        entry["status"] = 200
        self.fake.log(entry)
        total = self.fake.args.huge_mb * 1024 * 1024
        self.close_connection = True
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            sent = 0
            item = ('{"type":"inAppPurchases","id":"%d","attributes":{"name":"Item %d",'
                    '"productId":"com.example.huge.%d","inAppPurchaseType":"CONSUMABLE",'
                    '"state":"APPROVED","familySharable":false},'
                    '"links":{"self":"' + base + '/v2/inAppPurchases/%d"}}')
            number = 0
            self.chunk(b'{"data":[')
            while sent < total:
                pieces = []
                for _ in range(2000):
                    number += 1
                    pieces.append(item % (number, number, number, number))
                block = ("," if number > 2000 else "") + ",".join(pieces)
                data = block.encode()
                self.chunk(data)
                sent += len(data)
            tail = '],"links":{"self":"%s%s"},"meta":{"paging":{"total":%d,"limit":%d}}}' % (
                base, raw_path, number, number)
            self.chunk(tail.encode())
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            pass

    def chunk(self, data):
        self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")

    def send_bytes(self, status, data, headers, content_type="application/json"):
        rate = getattr(self, "rate_limit", None)
        if rate is not None and "X-Rate-Limit" not in headers:
            headers = dict(headers, **{"X-Rate-Limit": rate})
        self.rate_limit = None
        try:
            if status == 599:
                self.send_response(599, "Fake Server Validation Failure")
            else:
                self.send_response(status)
            if content_type:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:
            self.close_connection = True


def write_failure(text):
    mode, _, every = text.partition(":")
    if mode not in ("before", "after") or not every.isdigit() or int(every) < 1:
        raise argparse.ArgumentTypeError("%r is not MODE:N (MODE before or after, N at least 1)" % text)
    return mode, int(every)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Fake App Store Connect API server for tests.")
    parser.add_argument("--store", required=True)
    parser.add_argument("--public-key", required=True)
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--scenario", default="ok", choices=SCENARIOS)
    parser.add_argument("--page-size", type=int, default=None)
    parser.add_argument("--log", default=None)
    parser.add_argument("--spec", default=default_spec_path())
    parser.add_argument("--huge-mb", type=int, default=300, help="size of the `huge` body (MB)")
    parser.add_argument("--hour-limit", type=int, default=3600,
                        help="requests the key may make (X-Rate-Limit's user-hour-lim); past them, 429")
    parser.add_argument("--latency-ms", type=int, default=0, help="added to every answer (benchmarks)")
    parser.add_argument("--state", default=None,
                        help="after every write that changed the store, the whole store is written here (as --store reads it)")
    parser.add_argument("--write-failure", type=write_failure, default=None, metavar="MODE:N",
                        help="every Nth write answers 500; MODE before: not applied, after: applied")
    args = parser.parse_args(argv)
    if args.page_size is not None and args.page_size < 1:
        parser.error("--page-size must be at least 1")

    if args.spec == default_spec_path() and not os.path.exists(args.spec):  # the tests skip on exit 3
        sys.stderr.write("fake_asc: Apple's OpenAPI document %s is absent (it is in ../shared beside the "
                         "clone on the project's machines; --spec names another copy)\n" % args.spec)
        return 3
    try:
        with open(args.spec, encoding="utf-8") as handle:
            document = json.load(handle)
        openapi = OpenAPI.from_dict(document, config=Config(spec_validator_cls=None))
        with open(args.store, encoding="utf-8") as handle:
            store = Store(json.load(handle))
        with open(args.public_key, "rb") as handle:
            public_key = serialization.load_pem_public_key(handle.read())
        if not isinstance(public_key, ec.EllipticCurvePublicKey) or public_key.curve.name != "secp256r1":
            raise ValueError("the public key is not an EC P-256 key")
    except (OSError, ValueError, KeyError, TypeError) as error:
        sys.stderr.write("fake_asc: %s\n" % error)
        return 2

    fake = FakeASC(args, openapi, store, public_key)
    handler = type("BoundHandler", (Handler,), {"fake": fake})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    fake.port = server.server_address[1]

    def stop(signum, frame):
        fake.close()
        os._exit(0)  # does not wait for a `slow` answer still sleeping

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.stdout.write("PORT %d\n" % fake.port)
    sys.stdout.flush()
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
