#!/usr/bin/env python3
"""A fake App Store Connect API server for iap's tests (issue 25).

Serves a few read-only operations of the App Store Connect API from an in-memory
store, on 127.0.0.1 only. Every request's JWT is verified with the public key;
every request and every response is validated against Apple's OpenAPI document
with openapi-core (except the report downloads' 404, which the document does not
list). See README.md next to this file.

Usage:
  python3 fake_asc.py --store STORE.json --public-key KEY.pem --issuer ISSUER \
      --key-id KID [--scenario NAME] [--page-size N] [--log LOG.jsonl] [--spec PATH]

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
             "server-error-always", "malformed-json", "truncated-json", "slow", "huge")


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

    def __init__(self, path, query_pairs, headers):
        self.host_url = APPLE_HOST
        self.path = path
        self.method = "get"
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


class Store:
    def __init__(self, raw):
        self.sales_reports = report_entries(raw, "salesReports", SALES_REPORT_FIELDS)
        self.finance_reports = report_entries(raw, "financeReports", FINANCE_REPORT_FIELDS)
        self.apps = list(raw.get("apps", []))
        self.iaps = list(raw.get("inAppPurchases", []))
        self.groups = list(raw.get("subscriptionGroups", []))
        self.app_by_id = {a["id"]: a for a in self.apps}
        self.iap_by_id = {i["id"]: i for i in self.iaps}
        self.group_by_id = {g["id"]: g for g in self.groups}
        self.sub_by_id = {}
        self.group_of_sub = {}
        for group in self.groups:
            for sub in group.get("subscriptions", []):
                self.sub_by_id[sub["id"]] = sub
                self.group_of_sub[sub["id"]] = group
        # A territory's currency: the first price or offer entry for it that gives one.
        self.currencies = {}
        # The price-point ladders: every territory's points, the same for every product of a kind.
        self.ladder = Ladder(raw.get("priceTerritories") or DEFAULT_PRICE_TERRITORIES)
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

    def subscription(self, sub, group_id=None, localization_limit=None, offer_limit=None, include=()):
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
    group = ctx.store.group_by_id.get(group_id)
    if group is None:
        return not_found("subscriptionGroups", group_id)
    chunk, links, meta = ctx.pager.page(group.get("localizations", []), query)
    return 200, {"data": [ctx.res.group_localization(l) for l in chunk], "links": links, "meta": meta}, {}


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
    chunk, links, meta = ctx.pager.page(subs, query)
    body = {"data": [ctx.res.subscription(s, group_id if with_group else None, loc_limit, offer_limit, include) for s in chunk],
            "links": links, "meta": meta}
    included = []
    if loc_limit is not None:
        included += [ctx.res.subscription_localization(l)
                     for s in chunk for l in s.get("localizations", [])[:loc_limit]]
    if offer_limit is not None:
        for sub in chunk:
            rows = price_rows(sub["id"], sub.get("introductoryOffers", []), "subscriptionPricePoints", "o")
            included += [ctx.res.introductory_offer(entry, ident, {}) for entry, ident, _ in rows[:offer_limit]]
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


def price_rows(owner_id, entries, point_type, kind):
    """The store's price (or offer) entries as rows: (entry, its id, its price point's id or None).
    Ids come from the entry's place in the store's list, so a filter does not change them."""
    rows = []
    for number, entry in enumerate(entries):
        ident = opaque_id(kind, owner_id, entry.get("territory"), number)
        point = None
        if entry.get("customerPrice") is not None:
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
            rows = price_rows(iap_id, iap_prices(iap, manual), "inAppPurchasePricePoints", "m" if manual else "a")
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
                                       "m" if manual else "a"), query)
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
    rows = territory_filter(price_rows(sub_id, sub.get("prices", []), "subscriptionPricePoints", "s"), query)
    wanted_points = list_param(query, "filter[subscriptionPricePoint]")
    if wanted_points is not None:
        rows = [r for r in rows if r[2] in wanted_points]
    return 200, price_page(ctx, query, rows, ctx.res.subscription_price, "subscriptionPricePoint",
                           "subscriptionPricePoints"), {}


@route(r"/v1/subscriptions/([^/]+)/introductoryOffers")
def introductory_offers(ctx, query, sub_id):
    sub = ctx.store.sub_by_id.get(sub_id)
    if sub is None:
        return not_found("subscriptions", sub_id)
    rows = territory_filter(price_rows(sub_id, sub.get("introductoryOffers", []), "subscriptionPricePoints", "o"), query)
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


# (path, status) answers the document does not list but App Store Connect sends: sent
# without response validation and logged with responseValid null.
UNDOCUMENTED = {("/v1/salesReports", 404), ("/v1/financeReports", 404)}


class Context:
    def __init__(self, store, base, path, pairs, cap):
        self.store = store
        self.res = Resources(base)
        self.pager = Pager(base, path, pairs, cap)


# ---------------------------------------------------------------- the server

class FakeASC:
    def __init__(self, args, openapi, store, public_key):
        self.args = args
        self.openapi = openapi
        self.store = store
        self.public_key = public_key
        self.lock = threading.Lock()
        self.requests_seen = 0
        self.log_file = open(args.log, "a", encoding="utf-8") if args.log else None
        self.port = None

    def next_request_number(self):
        with self.lock:
            self.requests_seen += 1
            return self.requests_seen

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
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), "application/json"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeAppStoreConnect/1"
    fake = None  # set on the subclass made in main()

    def log_message(self, format, *args):  # quiet: the JSON log says it all
        pass

    def do_GET(self):
        fake = self.fake
        raw_path, _, raw_query = self.path.partition("?")
        pairs = parse_qsl(raw_query, keep_blank_values=True)
        query = {}
        for key, value in pairs:
            query[key] = value if key not in query else query[key] + "," + value
        entry = {"method": "GET", "path": raw_path, "query": query, "status": None,
                 "requestValid": None, "responseValid": None, "error": None}
        base = "http://127.0.0.1:%d" % fake.port
        oa_request = OARequest(raw_path, pairs, list(self.headers.items()))
        try:
            fake.openapi.validate_request(oa_request)
            entry["requestValid"] = True
            request_error = None
        except Exception as error:  # openapi-core's errors, whatever their class
            entry["requestValid"] = False
            request_error = describe(error)

        reason = verify_jwt(self.headers.get("Authorization"), fake.public_key,
                            fake.args.issuer, fake.args.key_id)
        if reason is not None:
            return self.answer(entry, oa_request, raw_path, *not_authorized(reason))
        if request_error is not None:
            entry["error"] = "request: " + request_error
            return self.fail_loudly(entry, MISMATCH + "request: " + request_error)

        number = fake.next_request_number()
        if fake.args.latency_ms:
            time.sleep(fake.args.latency_ms / 1000.0)
        # App Store Connect's hourly limit: every answer says what is left; past it, 429.
        remaining = fake.args.hour_limit - number
        if remaining < 0:
            return self.scenario_json(entry, 429, error_body(
                429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                "We've received too many requests for this API. Please wait and try again or slow down your request rate."),
                {"X-Rate-Limit": "user-hour-lim:%d;user-hour-rem:0;" % fake.args.hour_limit})
        self.rate_limit = "user-hour-lim:%d;user-hour-rem:%d;" % (fake.args.hour_limit, remaining)
        scenario = fake.args.scenario
        if scenario == "rate-limit-once" and number == 1:
            return self.scenario_json(entry, 429, error_body(
                429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                "We've received too many requests for this API. Please wait and try again or slow down your request rate."),
                {"Retry-After": "1", "X-Rate-Limit": "user-hour-lim:3600;user-hour-rem:0;"})
        if scenario == "unauthorized":
            return self.scenario_json(entry, *not_authorized("scenario unauthorized: every request is refused."))
        if scenario == "forbidden":
            return self.scenario_json(entry, 403, error_body(
                403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                "The API key in use does not allow this request: its role cannot read in-app purchases."), {})
        if scenario == "server-error-once" and number == 1:
            return self.scenario_json(entry, 500, error_body(
                500, "UNEXPECTED_ERROR", "An unexpected error occurred.",
                "An unexpected error occurred on the server side. If this issue continues, contact us."), {})
        if scenario == "server-error-always":
            return self.scenario_json(entry, 503, error_body(
                503, "SERVICE_UNAVAILABLE", "The service is temporarily unavailable.",
                "The request could not be served; try again later."), {})
        if scenario == "malformed-json":
            return self.scenario_bytes(entry, 200, b'{"data": [{"type": "inAppPurchases", "id": ]]}\x00garbage<<<')
        if scenario == "huge":
            return self.scenario_huge(entry, base, raw_path)
        if scenario == "slow":
            time.sleep(30)

        status, body, headers = self.dispatch(fake, base, raw_path, pairs, query)
        if status is None:
            entry["error"] = body
            return self.fail_loudly(entry, body)
        if scenario == "truncated-json":
            data, content_type = encode_body(body)
            return self.scenario_bytes(entry, status, data, truncate=True, content_type=content_type)
        return self.answer(entry, oa_request, raw_path, status, body, headers)

    def dispatch(self, fake, base, raw_path, pairs, query):
        for pattern, function in ROUTES:
            match = pattern.match(raw_path)
            if match:
                ctx = Context(fake.store, base, raw_path, pairs, fake.args.page_size)
                try:
                    return function(ctx, query, *match.groups())
                except ParameterError as error:
                    return parameter_error(error.parameter, error.detail)
                except Exception as error:
                    return None, "fake server bug: %s: %s" % (type(error).__name__, error), {}
        return None, "fake server: operation not implemented: GET %s" % raw_path, {}

    # -- answers

    def answer(self, entry, oa_request, raw_path, status, body, headers):
        """A normal answer: validated against the document before it is sent (except the
        answers in UNDOCUMENTED, logged with responseValid null)."""
        data, content_type = encode_body(body)
        if (raw_path, status) not in UNDOCUMENTED:
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
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:
            self.close_connection = True


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
