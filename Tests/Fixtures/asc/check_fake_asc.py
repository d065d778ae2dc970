#!/usr/bin/env python3
"""Self-test of fake_asc.py: starts it on a temporary store and checks what it serves.

Run: python3 Tests/Fixtures/asc/check_fake_asc.py   (exit 0 on success, 1 on a failure,
3 when cryptography, openapi-core or Apple's document in ../shared is missing, as the
server itself exits 3 then; what is missing is printed).
"""

import base64
import gzip
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

# Days ahead, for prices scheduled to change (App Store Connect schedules only ahead).
LATER = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 400 * 86400))
LATEST = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 800 * 86400))

try:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
except ImportError as error:  # the tests skip on exit 3
    print("SKIP: cryptography cannot be imported (%s); install it with "
          "`pip install -r Tests/Fixtures/asc/requirements.txt`" % error)
    sys.exit(3)

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "fake_asc.py")
ISSUER = "57246542-96fe-1a63-e053-0824d011072a"
KEY_ID = "2X9R4HXF34"
APP = "6450000001"

SALES_TEXT = ("Provider\tProvider Country\tSKU\tDeveloper\tTitle\tVersion\tProduct Type Identifier\tUnits"
              "\tDeveloper Proceeds\tBegin Date\tEnd Date\tCustomer Currency\tCountry Code\tCurrency of Proceeds"
              "\tApple Identifier\tCustomer Price\tPromo Code\tParent Identifier\n"
              "APPLE\tUS\tcom.acme.app.coins100\tAcme\t100 Coins\t\tIA1\t3\t0.70\t11/02/2026\t11/02/2026"
              "\tUSD\tUS\tUSD\t6450001001\t0.99\t\tACME\n"
              "APPLE\tUS\tcom.acme.app.coins100\tAcme\t100 Coins\t\tIA1\t1\t0.85\t11/02/2026\t11/02/2026"
              "\tEUR\tDE\tEUR\t6450001001\t0.99\t\tACME\n")
SALES_TEXT_EARLIER = SALES_TEXT.replace("11/02/2026", "11/01/2026").replace("\t3\t", "\t5\t")
FINANCE_TEXT = ("Start Date\tEnd Date\tUPC\tISRC/ISBN\tVendor Identifier\tQuantity\tPartner Share"
                "\tExtended Partner Share\tPartner Share Currency\tSales or Return\tApple Identifier"
                "\tArtist/Show/Developer/Author\tTitle\tLabel/Studio/Network/Developer/Publisher\tGrid"
                "\tProduct Type Identifier\tISAN/Other Identifier\tCountry Of Sale\tPre-order Flag\tPromo Code"
                "\tCustomer Price\tCustomer Currency\n"
                "09/28/2026\t10/31/2026\t\t\tcom.acme.app.pro.monthly\t12\t3.49\t41.88\tUSD\tS\t6450003001"
                "\tAcme\tPro Monthly\t\t\tIAY\t\tUS\t\t\t4.99\tUSD\n"
                "Total_Rows\t1\n")

STORE = {
    "apps": [
        {"id": APP, "bundleId": "com.acme.app", "name": "Acme", "sku": "ACME", "primaryLocale": "en-US"},
        {"id": "6450000002", "bundleId": "com.acme.other", "name": "Other", "sku": "OTHER"},
    ],
    "inAppPurchases": [
        {"id": "6450001001", "app": APP, "productId": "com.acme.app.coins100", "name": "100 Coins",
         "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED", "familySharable": False,
         "prices": [
             {"territory": "USA", "currency": "USD", "customerPrice": "0.99", "proceeds": "0.84", "manual": True,
              "startDate": None, "endDate": "2027-01-01"},
             {"territory": "FRA", "currency": "EUR", "customerPrice": "1.09", "proceeds": "0.77", "manual": True,
              "startDate": None, "endDate": None},
             {"territory": "USA", "currency": "USD", "customerPrice": "1.29", "proceeds": "1.09", "manual": True,
              "startDate": "2027-01-01", "endDate": None},
             {"territory": "DEU", "currency": "EUR", "customerPrice": "0.99", "proceeds": "0.70", "manual": False,
              "startDate": None, "endDate": None}],
         "localizations": [
             {"id": "6450002001", "locale": "en-US", "name": "100 Coins", "description": "A pile of coins", "state": "APPROVED"},
             {"id": "6450002002", "locale": "de-DE", "name": "100 Münzen", "description": "Ein Haufen Münzen", "state": "WAITING_FOR_REVIEW"}]},
        {"id": "6450001002", "app": APP, "productId": "com.acme.app.noads", "name": "No Ads",
         "inAppPurchaseType": "NON_CONSUMABLE", "state": "READY_TO_SUBMIT", "familySharable": True,
         "localizations": [{"id": "6450002003", "locale": "en-US", "name": "No Ads", "description": "Hide ads", "state": "PREPARE_FOR_SUBMISSION"}]},
        {"id": "6450001003", "app": APP, "productId": "com.acme.app.pass", "name": "Season Pass",
         "inAppPurchaseType": "NON_RENEWING_SUBSCRIPTION", "state": "MISSING_METADATA", "familySharable": False,
         "localizations": []},
        {"id": "6450001999", "app": "6450000002", "productId": "com.acme.other.x", "name": "X",
         "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED", "familySharable": False, "localizations": []},
    ],
    "subscriptionGroups": [
        {"id": "21000001", "app": APP, "referenceName": "Pro", "subscriptions": [
            {"id": "6450003001", "productId": "com.acme.app.pro.monthly", "name": "Pro Monthly", "state": "APPROVED",
             "subscriptionPeriod": "ONE_MONTH", "groupLevel": 1, "familySharable": False,
             "prices": [
                 {"territory": "USA", "currency": "USD", "customerPrice": "4.99", "proceeds": "3.49", "startDate": None},
                 {"territory": "GBR", "currency": "GBP", "customerPrice": "4.49", "proceeds": "3.14", "startDate": None},
                 {"territory": "USA", "currency": "USD", "customerPrice": "5.99", "proceeds": "4.19", "startDate": "2027-02-01"}],
             "introductoryOffers": [
                 {"territory": "USA", "offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 1,
                  "customerPrice": None, "startDate": None, "endDate": None},
                 {"territory": "GBR", "offerMode": "PAY_AS_YOU_GO", "duration": "ONE_MONTH", "numberOfPeriods": 3,
                  "customerPrice": "1.99", "startDate": "2026-01-01", "endDate": "2027-01-01"},
                 {"territory": "USA", "offerMode": "PAY_UP_FRONT", "duration": "THREE_MONTHS", "numberOfPeriods": 1,
                  "customerPrice": "9.99", "startDate": "2024-12-01", "endDate": "2025-01-01"}],
             "localizations": [{"id": "6450004001", "locale": "en-US", "name": "Pro", "description": "Everything", "state": "APPROVED"}]},
            {"id": "6450003002", "productId": "com.acme.app.pro.yearly", "name": "Pro Yearly", "state": "APPROVED",
             "subscriptionPeriod": "ONE_YEAR", "groupLevel": 1, "familySharable": True, "localizations": []}]},
    ],
    "salesReports": [
        {"vendorNumber": "80012345", "reportType": "SALES", "reportSubType": "SUMMARY", "frequency": "DAILY",
         "reportDate": "2026-11-02", "version": "1_1", "content": SALES_TEXT},
        {"vendorNumber": "80012345", "reportType": "SALES", "reportSubType": "SUMMARY", "frequency": "DAILY",
         "reportDate": "2026-11-01", "content": SALES_TEXT_EARLIER},
    ],
    "financeReports": [
        {"vendorNumber": "80012345", "reportType": "FINANCIAL", "regionCode": "ZZ", "reportDate": "2026-10",
         "content": FINANCE_TEXT},
    ],
}

failures = []
checks = [0]


def check(condition, message):
    checks[0] += 1
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_token(key, iat=None, exp=None, kid=KEY_ID, iss=ISSUER, corrupt=False):
    now = int(time.time())
    iat = now if iat is None else iat
    exp = now + 600 if exp is None else exp
    header = b64(json.dumps({"alg": "ES256", "kid": kid, "typ": "JWT"}).encode())
    payload = b64(json.dumps({"iss": iss, "iat": iat, "exp": exp, "aud": "appstoreconnect-v1"}).encode())
    signing_input = (header + "." + payload).encode()
    r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
    raw = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    if corrupt:
        raw = raw[:-1] + bytes([raw[-1] ^ 1])
    return header + "." + payload + "." + b64(raw)


class Server:
    def __init__(self, workdir, scenario="ok", extra=()):
        self.log = os.path.join(workdir, "log-%s-%d.jsonl" % (scenario, time.monotonic_ns()))
        command = [sys.executable, SERVER, "--store", os.path.join(workdir, "store.json"),
                   "--public-key", os.path.join(workdir, "key.pem"), "--issuer", ISSUER,
                   "--key-id", KEY_ID, "--scenario", scenario, "--log", self.log] + list(extra)
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            self.process.wait(10)
            stderr = self.process.stderr.read()
            if self.process.returncode == 3:
                print("SKIP: " + stderr.strip())
                sys.exit(3)
            raise SystemExit("server did not start: %r %s" % (line, stderr))
        self.port = int(line.split()[1])
        self.base = "http://127.0.0.1:%d" % self.port

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(10)
        check(code == 0, "SIGTERM exits 0 (got %s)" % code)

    def entries(self):
        with open(self.log, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]


def get(url, token, timeout=20):
    """(status, headers, body bytes)"""
    request = urllib.request.Request(url)
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def get_json(url, token):
    status, headers, body = get(url, token)
    try:
        return status, headers, json.loads(body)
    except ValueError:
        return status, headers, body


def normal_requests(workdir, key):
    token = make_token(key)
    server = Server(workdir, extra=["--page-size", "1"])
    try:
        status, _, body = get_json(server.base + "/v1/apps?filter[bundleId]=com.acme.app", token)
        check(status == 200, "app lookup: 200 (got %s %s)" % (status, body))
        check([a["id"] for a in body["data"]] == [APP], "app lookup finds one app")
        check(body["data"][0]["attributes"]["bundleId"] == "com.acme.app", "app lookup: bundleId attribute")
        check(body["meta"]["paging"]["total"] == 1, "app lookup: total 1")

        status, _, body = get_json(server.base + "/v1/apps/" + APP, token)
        check(status == 200 and body["data"]["id"] == APP, "GET /v1/apps/{id}: 200")
        status, _, body = get_json(server.base + "/v1/apps/999", token)
        check(status == 404 and body["errors"][0]["code"] == "NOT_FOUND", "unknown app: 404 NOT_FOUND")

        # pagination with page size 1 over the app's three in-app purchases
        url = (server.base + "/v1/apps/%s/inAppPurchasesV2?limit=200&include=inAppPurchaseLocalizations"
               "&limit[inAppPurchaseLocalizations]=50" % APP)
        ids, included, pages, totals = [], [], 0, set()
        while url and pages < 10:
            status, _, body = get_json(url, token)
            check(status == 200, "IAP page %d: 200 (got %s %s)" % (pages + 1, status, body))
            pages += 1
            ids += [d["id"] for d in body["data"]]
            included += [i["id"] for i in body.get("included", [])]
            totals.add(body["meta"]["paging"]["total"])
            check(body["meta"]["paging"]["limit"] == 1, "IAP page: paging.limit is the page size 1")
            url = body["links"].get("next")
            check(url is None or url.startswith(server.base + "/v1/apps/%s/inAppPurchasesV2?cursor=" % APP),
                  "next link is absolute and carries a cursor: %s" % url)
        check(pages == 3, "IAP pagination: 3 pages (got %d)" % pages)
        check(ids == ["6450001001", "6450001002", "6450001003"], "IAP pagination: ids in order (got %s)" % ids)
        check(totals == {3}, "IAP pagination: total 3 on every page (got %s)" % totals)
        check(included == ["6450002001", "6450002002", "6450002003"], "IAP include: localizations (got %s)" % included)

        status, _, body = get_json(server.base + "/v1/apps/%s/inAppPurchasesV2?limit=200"
                                   "&include=inAppPurchaseLocalizations&limit[inAppPurchaseLocalizations]=1" % APP, token)
        rel = body["data"][0]["relationships"]["inAppPurchaseLocalizations"]
        check(rel["meta"]["paging"] == {"total": 2, "limit": 1} and len(rel["data"]) == 1,
              "included localizations are capped by limit[...] and say the total (got %s)" % rel)

        status, _, body = get_json(server.base + "/v2/inAppPurchases/6450001001/inAppPurchaseLocalizations?limit=200", token)
        check(status == 200 and body["meta"]["paging"]["total"] == 2, "IAP localizations: total 2 (got %s)" % body)
        check(len(body["data"]) == 1 and "next" in body["links"], "IAP localizations: first of 2 pages")
        status, _, body = get_json(server.base + "/v2/inAppPurchases/1/inAppPurchaseLocalizations", token)
        check(status == 404, "unknown IAP: 404")

        status, _, body = get_json(server.base + "/v1/apps/%s/subscriptionGroups?limit=200&include=subscriptions" % APP, token)
        check(status == 200 and [d["id"] for d in body["data"]] == ["21000001"], "subscription groups (got %s)" % body)
        check([i["id"] for i in body["included"]] == ["6450003001", "6450003002"], "groups include subscriptions")

        url = (server.base + "/v1/subscriptionGroups/21000001/subscriptions?limit=200"
               "&include=subscriptionLocalizations&limit[subscriptionLocalizations]=50")
        seen = []
        while url:
            status, _, body = get_json(url, token)
            check(status == 200, "subscriptions: 200 (got %s %s)" % (status, body))
            seen += [(d["id"], [i["id"] for i in body.get("included", [])]) for d in body["data"]]
            url = body["links"].get("next")
        check(seen == [("6450003001", ["6450004001"]), ("6450003002", [])], "subscriptions pages (got %s)" % seen)

        status, _, body = get_json(server.base + "/v1/subscriptions/6450003001/subscriptionLocalizations?limit=200", token)
        check(status == 200 and body["data"][0]["attributes"]["locale"] == "en-US", "subscription localizations")
        status, _, body = get_json(server.base + "/v1/subscriptionGroups/0/subscriptions", token)
        check(status == 404, "unknown group: 404")

        status, _, body = get_json(server.base + "/v1/apps/%s/inAppPurchasesV2?cursor=zzz" % APP, token)
        check(status == 400 and body["errors"][0]["code"] == "PARAMETER_ERROR.INVALID", "bad cursor: 400")

        # tokens
        bad = {
            "bad signature": make_token(key, corrupt=True),
            "expired": make_token(key, iat=int(time.time()) - 1300, exp=int(time.time()) - 100),
            "too long": make_token(key, exp=int(time.time()) + 3600),
            "wrong kid": make_token(key, kid="OTHERKEY12"),
            "wrong issuer": make_token(key, iss="someone-else"),
            "other key": make_token(ec.generate_private_key(ec.SECP256R1())),
            "issued in the future": make_token(key, iat=int(time.time()) + 300, exp=int(time.time()) + 900),
            "not a JWT": "abc.def",
        }
        for name, bad_token in bad.items():
            status, _, body = get_json(server.base + "/v1/apps", bad_token)
            check(status == 401 and body["errors"][0]["code"] == "NOT_AUTHORIZED", "%s: 401 (got %s)" % (name, status))
        status, _, body = get_json(server.base + "/v1/apps", None)
        check(status == 401, "no Authorization: 401")

        logged_normal = len(server.entries())

        # requests the document does not allow: loud 599
        for path in ("/v1/apps?limit=500", "/v1/apps/%s/inAppPurchasesV2?include=nonsense" % APP, "/v1/nothing"):
            status, _, body = get(server.base + path, token)
            check(status == 599 and body.startswith(b"fake server:"), "%s: 599 (got %s %s)" % (path, status, body[:200]))
    finally:
        server.stop()

    entries = server.entries()
    normal = entries[:logged_normal]
    for e in normal:
        if e["path"] == "/v1/apps" and e["status"] == 401 and e["requestValid"] is False:
            continue  # the request without Authorization breaks the document's security requirement
        check(e["requestValid"] is True and e["responseValid"] is True,
              "log: request and response valid: %s" % e)
    check([e["status"] for e in entries[logged_normal:]] == [599, 599, 599], "log: the three 599s")
    check(all(e["requestValid"] is False for e in entries[logged_normal:]), "log: 599s have requestValid false")
    check(all(set(e) == {"method", "path", "query", "status", "requestValid", "responseValid", "error"} for e in entries),
          "log: the documented keys")


def scenarios(workdir, key):
    token = make_token(key)
    url_path = "/v1/apps?filter[bundleId]=com.acme.app"

    server = Server(workdir, "rate-limit-once")
    status, headers, body = get_json(server.base + url_path, token)
    check(status == 429 and headers.get("Retry-After") == "1"
          and headers.get("X-Rate-Limit") == "user-hour-lim:3600;user-hour-rem:0;"
          and body["errors"][0]["status"] == "429", "rate-limit-once: 429 first (got %s %s)" % (status, body))
    status, _, _ = get_json(server.base + url_path, token)
    check(status == 200, "rate-limit-once: then 200")
    server.stop()
    check(server.entries()[0]["responseValid"] is None, "scenario answers are logged with responseValid null")

    for scenario, statuses in (("unauthorized", [401, 401]), ("forbidden", [403, 403]),
                               ("server-error-once", [500, 200]), ("server-error-always", [503, 503])):
        server = Server(workdir, scenario)
        got = []
        for _ in statuses:
            status, _, body = get_json(server.base + url_path, token)
            got.append(status)
            if status != 200:
                check(isinstance(body, dict) and body["errors"][0]["status"] == str(status),
                      "%s: errors[] body (got %s)" % (scenario, body))
        check(got == statuses, "%s: statuses %s (got %s)" % (scenario, statuses, got))
        if scenario == "forbidden":
            check(body["errors"][0]["code"] == "FORBIDDEN_ERROR", "forbidden: FORBIDDEN_ERROR")
        server.stop()

    server = Server(workdir, "malformed-json")
    status, _, body = get(server.base + url_path, token)
    check(status == 200 and body.startswith(b'{"data": ['), "malformed-json: 200 and a JSON start")
    try:
        json.loads(body)
        check(False, "malformed-json: the body does not parse")
    except ValueError:
        pass
    server.stop()

    server = Server(workdir, "truncated-json")
    try:
        get(server.base + url_path, token)
        check(False, "truncated-json: the read fails")
    except http.client.IncompleteRead as error:
        check(len(error.partial) > 0 and error.expected > 0, "truncated-json: half the body")
    server.stop()

    server = Server(workdir, "slow")
    results = []
    threads = [threading.Thread(target=lambda: results.append(get_safely(server.base + url_path, token)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    check(results == [] and server.process.poll() is None,
          "slow: two connections are both waiting, none refused (got %s)" % results)
    started = time.monotonic()
    server.stop()
    check(time.monotonic() - started < 5, "slow: SIGTERM is not blocked by a sleeping answer")
    for thread in threads:
        thread.join(10)

    server = Server(workdir, "huge")
    request = urllib.request.Request(server.base + url_path, headers={"Authorization": "Bearer " + token})
    size, first, last = 0, b"", b""
    with urllib.request.urlopen(request, timeout=60) as response:
        check(response.headers.get("Transfer-Encoding") == "chunked", "huge: chunked")
        while True:
            block = response.read(1 << 20)
            if not block:
                break
            first = first or block[:20]
            last = (last + block)[-200:]
            size += len(block)
    check(size >= 300 * 1024 * 1024, "huge: at least 300 MB (got %d)" % size)
    check(first.startswith(b'{"data":[{') and last.endswith(b"}}}"), "huge: looks like JSON")
    with open("/proc/%d/status" % server.process.pid) as handle:
        peak = [l for l in handle if l.startswith("VmHWM")]
    if peak:
        kilobytes = int(peak[0].split()[1])
        check(kilobytes < 200 * 1024, "huge: the server's peak memory is small (%d kB)" % kilobytes)
    server.stop()


SALES = ("/v1/salesReports?filter[vendorNumber]=80012345&filter[reportType]=SALES"
         "&filter[reportSubType]=SUMMARY&filter[frequency]=DAILY")
FINANCE = ("/v1/financeReports?filter[vendorNumber]=80012345&filter[reportType]=FINANCIAL"
           "&filter[regionCode]=ZZ&filter[reportDate]=2026-10")


def check_gzip(name, status, headers, body, text):
    check(status == 200, "%s: 200 (got %s %r)" % (name, status, body[:200]))
    check(headers.get("Content-Type") == "application/a-gzip",
          "%s: Content-Type application/a-gzip (got %s)" % (name, headers.get("Content-Type")))
    check(headers.get("Content-Length") == str(len(body)),
          "%s: Content-Length %s is the body's length %d" % (name, headers.get("Content-Length"), len(body)))
    check(headers.get("Content-Encoding") is None, "%s: no Content-Encoding (the gzip is the content)" % name)
    check(body[:2] == b"\x1f\x8b" and body[4:8] == b"\0\0\0\0", "%s: gzip with mtime 0 (got %r)" % (name, body[:10]))
    check(gzip.decompress(body) == text.encode("utf-8"), "%s: gunzipped equals the store's content" % name)
    check(body == gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0), "%s: deterministic bytes" % name)


def reports(workdir, key):
    token = make_token(key)
    server = Server(workdir)
    try:
        for suffix, text, name in (("&filter[reportDate]=2026-11-02", SALES_TEXT, "sales report"),
                                   ("&filter[reportDate]=2026-11-02&filter[version]=1_1", SALES_TEXT, "sales report, version 1_1"),
                                   ("&filter[reportDate]=2026-11-01&filter[version]=1_0", SALES_TEXT_EARLIER,
                                    "sales report without a version in the store, any filter[version]"),
                                   ("", SALES_TEXT, "sales report without filter[reportDate]: the latest")):
            check_gzip(name, *get(server.base + SALES + suffix, token), text)
        status, headers, body = get(server.base + SALES + "&filter[reportDate]=2026-11-02", token)
        again = get(server.base + SALES + "&filter[reportDate]=2026-11-02", token)[2]
        check(body == again, "sales report: the same bytes twice")
        check_gzip("finance report", *get(server.base + FINANCE, token), FINANCE_TEXT)

        not_found = {"errors": [{"status": "404", "code": "NOT_FOUND", "title": "The specified resource does not exist",
                                 "detail": "There were no sales for the date specified."}]}
        for path in (SALES + "&filter[reportDate]=2026-11-03", SALES + "&filter[reportDate]=2026-11-02&filter[version]=1_0",
                     SALES.replace("80012345", "80099999") + "&filter[reportDate]=2026-11-02",
                     FINANCE.replace("2026-10", "2026-09"), FINANCE.replace("=ZZ", "=US")):
            status, headers, body = get_json(server.base + path, token)
            check(status == 404 and body == not_found, "%s: 404 NOT_FOUND (got %s %s)" % (path, status, body))
            check(headers.get("Content-Type") == "application/json", "report 404: application/json")

        status, _, body = get_json(server.base + SALES + "&filter[reportDate]=2026-11-02,2026-11-01", token)
        check(status == 400 and body["errors"][0]["code"] == "PARAMETER_ERROR.INVALID"
              and body["errors"][0]["source"] == {"parameter": "filter[reportDate]"},
              "two report dates: 400 PARAMETER_ERROR.INVALID (got %s %s)" % (status, body))
        status, _, body = get_json(server.base + FINANCE, make_token(key, corrupt=True))
        check(status == 401 and body["errors"][0]["code"] == "NOT_AUTHORIZED", "finance report, bad token: 401")
        logged = len(server.entries())

        for path in (SALES.replace("DAILY", "HOURLY"), FINANCE.replace("FINANCIAL", "SALES"),
                     SALES.replace("&filter[frequency]=DAILY", ""), FINANCE.replace("&filter[reportDate]=2026-10", "")):
            status, _, body = get(server.base + path, token)
            check(status == 599 and body.startswith(b"fake server: request/response does not match"),
                  "%s: 599 (got %s %s)" % (path, status, body[:200]))
    finally:
        server.stop()
    entries = server.entries()
    kinds = [(e["status"], e["requestValid"], e["responseValid"], e["error"]) for e in entries[:logged]]
    check(kinds == [(200, True, True, None)] * 7 + [(404, True, None, None)] * 5 + [(400, True, True, None)]
          + [(401, True, True, None)], "reports log: 200s valid, 404s responseValid null (got %s)" % kinds)
    check(entries[0]["query"] == {"filter[vendorNumber]": "80012345", "filter[reportType]": "SALES",
                                  "filter[reportSubType]": "SUMMARY", "filter[frequency]": "DAILY",
                                  "filter[reportDate]": "2026-11-02"}, "reports log: the query (got %s)" % entries[0]["query"])
    bad = entries[logged:]
    check([e["status"] for e in bad] == [599] * 4 and all(e["requestValid"] is False and e["error"].startswith("request: ")
                                                          for e in bad), "reports log: the four 599s (got %s)" % bad)
    check("HOURLY" in bad[0]["error"], "599 names the bad value (got %s)" % bad[0]["error"])

    server = Server(workdir, "rate-limit-once")
    status, headers, body = get_json(server.base + FINANCE, token)
    check(status == 429 and headers.get("Retry-After") == "1" and body["errors"][0]["code"] == "RATE_LIMIT_EXCEEDED",
          "finance report, rate-limit-once: 429 first (got %s %s)" % (status, body))
    check_gzip("finance report after the 429", *get(server.base + FINANCE, token), FINANCE_TEXT)
    server.stop()

    server = Server(workdir, "truncated-json")
    try:
        get(server.base + SALES, token)
        check(False, "truncated-json, sales report: the read fails")
    except http.client.IncompleteRead as error:
        check(0 < len(error.partial) and error.expected > 0, "truncated-json, sales report: half the gzip")
    server.stop()


def all_pages(url, token, name):
    """Follows links.next; returns the pages' bodies."""
    bodies = []
    while url is not None and len(bodies) < 20:
        status, _, body = get_json(url, token)
        check(status == 200, "%s page %d: 200 (got %s %s)" % (name, len(bodies) + 1, status, body))
        if status != 200:
            break
        bodies.append(body)
        url = body["links"].get("next")
    return bodies


def read_prices(bodies, point_rel):
    """What SnapshotPull.swift reads: (startDate, endDate, customerPrice, currency) per resource,
    through the to-one relationships and `included` (looked up by id alone, as the client does)."""
    rows = []
    for body in bodies:
        included = {i["id"]: i.get("attributes", {}) for i in body.get("included", [])}
        for resource in body["data"]:
            attributes = resource.get("attributes", {})
            relationships = resource.get("relationships", {})
            point = relationships.get(point_rel, {}).get("data")
            territory = relationships.get("territory", {}).get("data")
            price = included.get(point["id"], {}).get("customerPrice") if point else None
            currency = included.get(territory["id"], {}).get("currency") if territory else None
            rows.append((attributes.get("startDate"), attributes.get("endDate"), price, currency))
    return rows


def prices(workdir, key):
    token = make_token(key)
    server = Server(workdir)
    base = server.base
    iap = "6450001001"
    schedules = base + "/v1/inAppPurchasePriceSchedules/"
    include_iap = "&include=inAppPurchasePricePoint,territory"
    include_sub = "&include=subscriptionPricePoint,territory"
    try:
        # -- the schedule
        status, _, body = get_json(base + "/v2/inAppPurchases/%s/iapPriceSchedule" % iap, token)
        check(status == 200 and body["data"]["type"] == "inAppPurchasePriceSchedules" and body["data"]["id"] == iap,
              "price schedule: 200, type inAppPurchasePriceSchedules, id = the in-app purchase's (got %s %s)" % (status, body))
        rel = body["data"]["relationships"]
        check(rel["manualPrices"]["links"]["related"] == schedules + iap + "/manualPrices"
              and rel["automaticPrices"]["links"]["related"] == schedules + iap + "/automaticPrices"
              and "data" not in rel["manualPrices"] and "included" not in body and "attributes" not in body["data"],
              "price schedule: relationship links, no data or included without include (got %s)" % body)
        status, _, body = get_json(base + "/v2/inAppPurchases/%s/iapPriceSchedule?include=manualPrices,automaticPrices,baseTerritory"
                                   "&limit[manualPrices]=2" % iap, token)
        rel = body["data"]["relationships"]
        check(status == 200 and rel["manualPrices"]["meta"]["paging"] == {"total": 3, "limit": 2}
              and len(rel["manualPrices"]["data"]) == 2 and rel["automaticPrices"]["meta"]["paging"] == {"total": 1, "limit": 10}
              and rel["baseTerritory"]["data"] == {"type": "territories", "id": "USA"},
              "price schedule, include: manual 2 of 3, automatic 1, base territory USA (got %s %s)" % (status, body))
        kinds = [(i["type"], i.get("attributes", {}).get("manual", i.get("attributes", {}).get("currency"))) for i in body["included"]]
        check(kinds == [("territories", "USD"), ("inAppPurchasePrices", True), ("inAppPurchasePrices", True),
                        ("inAppPurchasePrices", False)], "price schedule, include: included (got %s)" % kinds)
        status, _, body = get_json(base + "/v2/inAppPurchases/6450001777/iapPriceSchedule", token)
        check(status == 404 and body["errors"][0]["code"] == "NOT_FOUND", "price schedule, unknown id: 404 (got %s)" % status)

        # -- manual and automatic prices
        pages = all_pages(schedules + iap + "/manualPrices?filter[territory]=USA" + include_iap + "&limit=1", token, "manual prices")
        check(len(pages) == 2 and all(p["meta"]["paging"]["total"] == 2 for p in pages)
              and pages[0]["links"]["next"].startswith(schedules + iap + "/manualPrices?cursor="),
              "manual prices, USA, limit 1: 2 pages of total 2 (got %s)" % pages)
        check(read_prices(pages, "inAppPurchasePricePoint") == [(None, "2027-01-01", "0.99", "USD"), ("2027-01-01", None, "1.29", "USD")],
              "manual prices, USA: read as the client does (got %s)" % read_prices(pages, "inAppPurchasePricePoint"))
        first = pages[0]["data"][0]
        check(first["type"] == "inAppPurchasePrices" and first["attributes"] == {"endDate": "2027-01-01", "manual": True}
              and first["relationships"]["territory"]["data"] == {"type": "territories", "id": "USA"}
              and first["relationships"]["inAppPurchasePricePoint"]["data"]["type"] == "inAppPurchasePricePoints",
              "manual price: attributes without null dates, to-one relationships (got %s)" % first)
        point = pages[0]["included"][0]
        check([i["type"] for i in pages[0]["included"]] == ["inAppPurchasePricePoints", "territories"]
              and point["attributes"] == {"customerPrice": "0.99", "proceeds": "0.84"}
              and pages[0]["included"][1]["attributes"] == {"currency": "USD"},
              "manual prices: included price point and territory (got %s)" % pages[0]["included"])
        status, _, body = get_json(schedules + iap + "/manualPrices", token)
        check(status == 200 and [d["id"] for d in body["data"]][2] == pages[1]["data"][0]["id"]
              and body["meta"]["paging"]["total"] == 3 and "included" not in body
              and all("relationships" not in d for d in body["data"]),
              "manual prices, no filter: 3, same ids, no relationships or included without include (got %s)" % body)
        status, _, body = get_json(schedules + iap + "/manualPrices?filter[territory]=FRA,USA&include=territory", token)
        check(status == 200 and [d["relationships"]["territory"]["data"]["id"] for d in body["data"]] == ["USA", "FRA", "USA"]
              and [i["id"] for i in body["included"]] == ["USA", "FRA"]
              and all("inAppPurchasePricePoint" not in d["relationships"] for d in body["data"]),
              "manual prices, two territories, include territory: each territory included once (got %s)" % body)
        pages = all_pages(schedules + iap + "/automaticPrices?filter[territory]=DEU" + include_iap, token, "automatic prices")
        check(read_prices(pages, "inAppPurchasePricePoint") == [(None, None, "0.99", "EUR")]
              and pages[0]["data"][0]["attributes"] == {"manual": False},
              "automatic prices, DEU (got %s)" % pages)
        status, _, body = get_json(schedules + iap + "/automaticPrices?filter[territory]=USA" + include_iap, token)
        check(status == 200 and body["data"] == [] and body["included"] == [] and body["meta"]["paging"]["total"] == 0,
              "automatic prices, USA: none (got %s)" % body)
        for which in ("manualPrices", "automaticPrices"):
            status, _, body = get_json(schedules + "6450001777/" + which, token)
            check(status == 404 and body["errors"][0]["code"] == "NOT_FOUND", "%s, unknown schedule: 404 (got %s)" % (which, status))

        # -- subscription prices
        subs = base + "/v1/subscriptions/"
        pages = all_pages(subs + "6450003001/prices?filter[territory]=USA" + include_sub + "&limit=1", token, "subscription prices")
        check(len(pages) == 2 and read_prices(pages, "subscriptionPricePoint") == [(None, None, "4.99", "USD"), ("2027-02-01", None, "5.99", "USD")],
              "subscription prices, USA, limit 1: two pages (got %s)" % read_prices(pages, "subscriptionPricePoint"))
        check(pages[0]["data"][0]["type"] == "subscriptionPrices" and pages[0]["data"][0]["attributes"] == {}
              and pages[1]["data"][0]["attributes"] == {"startDate": "2027-02-01"}
              and pages[0]["included"][0]["type"] == "subscriptionPricePoints"
              and pages[0]["included"][0]["attributes"] == {"customerPrice": "4.99", "proceeds": "3.49"},
              "subscription price: startDate only when given; price point with proceeds (got %s)" % pages)
        pages = all_pages(subs + "6450003001/prices?filter[territory]=GBR" + include_sub, token, "subscription prices GBR")
        check(read_prices(pages, "subscriptionPricePoint") == [(None, None, "4.49", "GBP")], "subscription prices, GBR (got %s)" % pages)
        status, _, body = get_json(subs + "6450003002/prices" + "?" + include_sub[1:], token)
        check(status == 200 and body["data"] == [] and body["meta"]["paging"]["total"] == 0, "subscription without prices: empty (got %s)" % body)
        status, _, body = get_json(subs + "6450003777/prices", token)
        check(status == 404 and body["errors"][0]["code"] == "NOT_FOUND", "subscription prices, unknown id: 404 (got %s)" % status)

        # -- introductory offers
        pages = all_pages(subs + "6450003001/introductoryOffers?filter[territory]=USA" + include_sub + "&limit=1", token, "offers")
        offers = [d for p in pages for d in p["data"]]
        check(len(pages) == 2 and [o["type"] for o in offers] == ["subscriptionIntroductoryOffers"] * 2
              and offers[0]["attributes"] == {"duration": "ONE_WEEK", "offerMode": "FREE_TRIAL", "numberOfPeriods": 1}
              and set(offers[0]["relationships"]) == {"territory"},
              "offers, USA, limit 1: a free trial without a price point first (got %s)" % pages)
        check(read_prices(pages, "subscriptionPricePoint") == [(None, None, None, "USD"), ("2024-12-01", "2025-01-01", "9.99", "USD")]
              and offers[1]["attributes"]["offerMode"] == "PAY_UP_FRONT",
              "offers, USA: read as the client does (got %s)" % read_prices(pages, "subscriptionPricePoint"))
        status, _, body = get_json(subs + "6450003001/introductoryOffers?filter[territory]=GBR&include=subscriptionPricePoint,territory,subscription", token)
        check(status == 200 and read_prices([body], "subscriptionPricePoint") == [("2026-01-01", "2027-01-01", "1.99", "GBP")]
              and body["data"][0]["attributes"]["numberOfPeriods"] == 3
              and body["data"][0]["relationships"]["subscription"]["data"] == {"type": "subscriptions", "id": "6450003001"}
              and [i["type"] for i in body["included"]] == ["subscriptionPricePoints", "territories", "subscriptions"]
              and body["included"][0]["attributes"] == {"customerPrice": "1.99"},
              "offers, GBR, include subscription (got %s %s)" % (status, body))
        status, _, body = get_json(subs + "6450003001/introductoryOffers", token)
        check(status == 200 and body["meta"]["paging"]["total"] == 3, "offers, no filter: 3 (got %s)" % body)
        status, _, body = get_json(subs + "6450003777/introductoryOffers", token)
        check(status == 404 and body["errors"][0]["code"] == "NOT_FOUND", "offers, unknown id: 404 (got %s)" % status)
        logged = len(server.entries())

        for path in (schedules + iap + "/manualPrices?include=subscriptionPricePoint",
                     subs + "6450003001/prices?filter[planType]=WEEKLY",
                     subs + "6450003001/introductoryOffers?limit=201",
                     base + "/v2/inAppPurchases/%s/iapPriceSchedule?limit[manualPrices]=51" % iap):
            status, _, body = get(path, token)
            check(status == 599 and body.startswith(b"fake server: request/response does not match"),
                  "%s: 599 (got %s %s)" % (path, status, body[:200]))
    finally:
        server.stop()
    entries = server.entries()
    check(all(e["requestValid"] is True and e["responseValid"] is True and e["error"] is None for e in entries[:logged]),
          "prices log: every answer valid (got %s)" % [e for e in entries[:logged] if e["responseValid"] is not True])
    check([e["status"] for e in entries[logged:]] == [599] * 4, "prices log: the four 599s")


def budget_and_offers(workdir, key):
    """X-Rate-Limit on every answer and a 429 past --hour-limit; which subscriptions have
    introductory offers, from their list; 404 for an in-app purchase without a price schedule."""
    token = make_token(key)
    server = Server(workdir, extra=["--hour-limit", "3"])
    try:
        left = []
        for _ in range(3):
            status, headers, _ = get(server.base + "/v1/apps/" + APP, token)
            left.append((status, headers.get("X-Rate-Limit")))
        check(left == [(200, "user-hour-lim:3;user-hour-rem:%d;" % n) for n in (2, 1, 0)],
              "X-Rate-Limit counts down on every answer (got %s)" % left)
        status, headers, body = get_json(server.base + "/v1/apps/" + APP, token)
        check(status == 429 and headers.get("X-Rate-Limit") == "user-hour-lim:3;user-hour-rem:0;"
              and body["errors"][0]["code"] == "RATE_LIMIT_EXCEEDED", "past the hour's limit: 429 (got %s %s)" % (status, body))
    finally:
        server.stop()
    server = Server(workdir)
    try:
        status, _, body = get_json(server.base + "/v1/subscriptionGroups/21000001/subscriptions?include=subscriptionLocalizations,"
                                   "introductoryOffers&limit[introductoryOffers]=1", token)
        offers = {s["id"]: (s["relationships"]["introductoryOffers"]["meta"]["paging"]["total"],
                            len(s["relationships"]["introductoryOffers"]["data"])) for s in body["data"]}
        check(status == 200 and offers == {"6450003001": (3, 1), "6450003002": (0, 0)},
              "subscriptions, include introductoryOffers: how many each has, one included (got %s %s)" % (status, offers))
        kinds = sorted(i["type"] for i in body["included"])
        check(kinds.count("subscriptionIntroductoryOffers") == 1, "subscriptions, include introductoryOffers: included (got %s)" % kinds)
        entries = server.entries()
        check(entries[-1]["requestValid"] and entries[-1]["responseValid"], "subscriptions with offers: valid by the document (got %s)" % entries[-1])
        for path in ("/v1/inAppPurchasePriceSchedules/6450001003/manualPrices", "/v1/inAppPurchasePriceSchedules/6450001003/automaticPrices",
                     "/v2/inAppPurchases/6450001003/iapPriceSchedule"):
            status, _, body = get_json(server.base + path, token)
            check(status == 404 and body["errors"][0]["code"] == "NOT_FOUND", "no price schedule: 404 for %s (got %s)" % (path, status))
    finally:
        server.stop()


# ---------------------------------------------------------------- writes (iap asc apply)

NEW = 6400000001  # the fake's first id for a resource it creates


def send(method, url, token, body=None, raw=None):
    """(status, headers, parsed JSON or the bytes) of a write."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            status, headers, answer = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, answer = error.code, error.headers, error.read()
    try:
        return status, headers, json.loads(answer)
    except ValueError:
        return status, headers, answer


def one(kind, ident):
    return {"data": {"type": kind, "id": ident}}


def many(kind, idents):
    return {"data": [{"type": kind, "id": i} for i in idents]}


def resource(kind, attributes=None, ident=None, **relationships):
    data = {"type": kind}
    if ident is not None:
        data["id"] = ident
    if attributes is not None:
        data["attributes"] = attributes
    if relationships:
        data["relationships"] = relationships
    return {"data": data}


def error_code(body):
    return body["errors"][0]["code"] if isinstance(body, dict) and body.get("errors") else body


def current(rows, today):
    """SnapshotPull.swift's current(): of the entries that have started (and not ended), the one that
    started last (the first of those on a tie)."""
    best = None
    for start, end, price, currency in rows:
        if (start or "") <= today and (end is None or end > today):
            if best is None or (start or "") > (best[0] or ""):
                best = (start, end, price, currency)
    return best and (best[2], best[3])


def schedule_body(iap, base_territory, prices):
    """An InAppPurchasePriceScheduleCreateRequest: prices is [(territory, point id, start date)]
    or [(territory, point id, start date, end date)]."""
    included, ids = [], []
    for price in prices:
        territory, point, start = price[:3]
        end = price[3] if len(price) > 3 else None
        ident = "${price-%s-%s}" % (territory, start or "now")
        item = {"type": "inAppPurchasePrices", "id": ident,
                "relationships": {"inAppPurchaseV2": one("inAppPurchases", iap),
                                  "inAppPurchasePricePoint": one("inAppPurchasePricePoints", point)}}
        attributes = {name: day for name, day in (("startDate", start), ("endDate", end)) if day is not None}
        if attributes:
            item["attributes"] = attributes
        included.append(item)
        ids.append(ident)
    body = resource("inAppPurchasePriceSchedules", None, inAppPurchase=one("inAppPurchases", iap),
                    baseTerritory=one("territories", base_territory),
                    manualPrices=many("inAppPurchasePrices", ids))
    body["included"] = included
    return body


def points(base, token, path, territory):
    """{customerPrice: point id} of a product's price points in a territory."""
    status, _, body = get_json(base + path + "?filter[territory]=%s&limit=8000" % territory, token)
    check(status == 200, "price points %s %s: 200 (got %s)" % (path, territory, status))
    return {p["attributes"]["customerPrice"]: p["id"] for p in body["data"]}


def writes(workdir, key):
    token = make_token(key)
    state = os.path.join(workdir, "state.json")
    server = Server(workdir, extra=["--state", state])
    base = server.base
    today = time.strftime("%Y-%m-%d", time.gmtime())
    expect_ids = iter(str(n) for n in range(NEW, NEW + 100))
    try:
        # -- a subscription group and its localization
        status, _, body = send("POST", base + "/v1/subscriptionGroups", token,
                               resource("subscriptionGroups", {"referenceName": "Plus"}, app=one("apps", APP)))
        group = next(expect_ids)
        check(status == 201 and body["data"]["id"] == group and body["data"]["attributes"] == {"referenceName": "Plus"},
              "create group: 201, the first new id (got %s %s)" % (status, body))
        status, _, body = send("POST", base + "/v1/subscriptionGroups", token,
                               resource("subscriptionGroups", {"referenceName": "Pro"}, app=one("apps", APP)))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
              "create group, reference name taken: 409 DUPLICATE (got %s %s)" % (status, body))
        status, _, body = send("POST", base + "/v1/subscriptionGroups", token,
                               resource("subscriptionGroups", {"referenceName": "X"}, app=one("apps", "999")))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID",
              "create group, unknown app: 409 RELATIONSHIP.INVALID (got %s %s)" % (status, body))
        group_loc = {"name": "Plus", "locale": "en-US", "customAppName": None}
        status, _, body = send("POST", base + "/v1/subscriptionGroupLocalizations", token,
                               resource("subscriptionGroupLocalizations", group_loc, subscriptionGroup=one("subscriptionGroups", group)))
        check(status == 201 and body["data"]["id"] == next(expect_ids)
              and body["data"]["attributes"] == {"name": "Plus", "locale": "en-US", "state": "PREPARE_FOR_SUBMISSION"},
              "create group localization: 201 (got %s %s)" % (status, body))
        status, _, body = send("POST", base + "/v1/subscriptionGroupLocalizations", token,
                               resource("subscriptionGroupLocalizations", group_loc, subscriptionGroup=one("subscriptionGroups", group)))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
              "group localization, locale taken: 409 (got %s %s)" % (status, body))

        # -- a subscription and an in-app purchase
        sub_attributes = {"productId": "com.acme.app.plus.monthly", "name": "Plus Monthly", "subscriptionPeriod": "ONE_MONTH",
                          "familySharable": True}
        status, _, body = send("POST", base + "/v1/subscriptions", token,
                               resource("subscriptions", sub_attributes, group=one("subscriptionGroups", group)))
        sub = next(expect_ids)
        check(status == 201 and body["data"]["id"] == sub
              and body["data"]["attributes"] == dict(sub_attributes, state="MISSING_METADATA", groupLevel=1),
              "create subscription: 201, MISSING_METADATA, level 1 (got %s %s)" % (status, body))
        for attributes, what in ((dict(sub_attributes, productId="com.acme.app.coins100", name="Other"), "an in-app purchase's product ID"),
                                 (dict(sub_attributes, productId="com.acme.app.other", name="100 Coins"), "an in-app purchase's name"),
                                 (sub_attributes, "its own product ID again")):
            status, _, body = send("POST", base + "/v1/subscriptions", token,
                                   resource("subscriptions", attributes, group=one("subscriptionGroups", "21000001")))
            check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                  "create subscription with %s: 409 DUPLICATE (got %s %s)" % (what, status, body))
        status, _, body = send("POST", base + "/v1/subscriptions", token,
                               resource("subscriptions", dict(sub_attributes, productId="x.y"), group=one("subscriptionGroups", "0")))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID", "create subscription, unknown group: 409")

        iap_attributes = {"productId": "com.acme.app.gems", "name": "Gems", "inAppPurchaseType": "CONSUMABLE"}
        status, _, body = send("POST", base + "/v2/inAppPurchases", token,
                               resource("inAppPurchases", iap_attributes, app=one("apps", APP)))
        iap = next(expect_ids)
        check(status == 201 and body["data"]["id"] == iap
              and body["data"]["attributes"] == dict(iap_attributes, state="MISSING_METADATA", familySharable=False),
              "create in-app purchase: 201, MISSING_METADATA (got %s %s)" % (status, body))
        status, _, _ = get_json(base + "/v2/inAppPurchases/%s/iapPriceSchedule" % iap, token)
        check(status == 404, "new in-app purchase: no price schedule, 404 (got %s)" % status)
        status, _, body = send("POST", base + "/v2/inAppPurchases", token,
                               resource("inAppPurchases", dict(iap_attributes, productId="com.acme.app.pro.monthly", name="Gems 2"),
                                        app=one("apps", APP)))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
              "create in-app purchase with a subscription's product ID: 409 (got %s %s)" % (status, body))

        # -- localizations
        status, _, body = send("POST", base + "/v1/inAppPurchaseLocalizations", token,
                               resource("inAppPurchaseLocalizations", {"locale": "en-US", "name": "Gems", "description": "Shiny"},
                                        inAppPurchaseV2=one("inAppPurchases", iap)))
        iap_loc = next(expect_ids)
        check(status == 201 and body["data"]["id"] == iap_loc and body["data"]["attributes"]["state"] == "PREPARE_FOR_SUBMISSION",
              "create in-app purchase localization: 201 (got %s %s)" % (status, body))
        status, _, body = send("POST", base + "/v1/inAppPurchaseLocalizations", token,
                               resource("inAppPurchaseLocalizations", {"locale": "en-US", "name": "Gems"},
                                        inAppPurchaseV2=one("inAppPurchases", iap)))
        check(status == 409, "in-app purchase localization, locale taken: 409 (got %s)" % status)
        status, _, body = send("PATCH", base + "/v1/inAppPurchaseLocalizations/" + iap_loc, token,
                               resource("inAppPurchaseLocalizations", {"description": "Very shiny"}, ident=iap_loc))
        check(status == 200 and body["data"]["attributes"] == {"name": "Gems", "locale": "en-US", "description": "Very shiny",
                                                               "state": "PREPARE_FOR_SUBMISSION"},
              "update in-app purchase localization: 200 (got %s %s)" % (status, body))
        status, _, body = send("POST", base + "/v1/subscriptionLocalizations", token,
                               resource("subscriptionLocalizations", {"locale": "en-US", "name": "Plus", "description": "More"},
                                        subscription=one("subscriptions", sub)))
        sub_loc = next(expect_ids)
        check(status == 201 and body["data"]["id"] == sub_loc, "create subscription localization: 201 (got %s %s)" % (status, body))
        status, _, body = send("PATCH", base + "/v1/subscriptionLocalizations/" + sub_loc, token,
                               resource("subscriptionLocalizations", {"name": "Plus!"}, ident=sub_loc))
        check(status == 200 and body["data"]["attributes"]["name"] == "Plus!", "update subscription localization: 200 (got %s)" % body)
        status, _, body = send("PATCH", base + "/v1/subscriptionLocalizations/1", token,
                               resource("subscriptionLocalizations", {"name": "x"}, ident="1"))
        check(status == 404 and error_code(body) == "NOT_FOUND", "update unknown localization: 404 (got %s)" % status)

        # read back as the pull reads them
        status, _, body = get_json(base + "/v1/apps/%s/inAppPurchasesV2?filter[productId]=com.acme.app.gems"
                                   "&include=inAppPurchaseLocalizations" % APP, token)
        check(status == 200 and [d["id"] for d in body["data"]] == [iap]
              and [(i["id"], i["attributes"]["description"]) for i in body["included"]] == [(iap_loc, "Very shiny")],
              "read back: the in-app purchase and its localization (got %s)" % body)
        status, _, body = get_json(base + "/v1/apps/%s/subscriptionGroups?filter[referenceName]=Plus"
                                   "&include=subscriptions,subscriptionGroupLocalizations" % APP, token)
        check(status == 200 and [d["id"] for d in body["data"]] == [group]
              and sorted(i["type"] for i in body["included"]) == ["subscriptionGroupLocalizations", "subscriptions"],
              "read back: the group, its subscription and localization (got %s)" % body)
        status, _, body = get_json(base + "/v1/subscriptionGroups/%s/subscriptions?include=subscriptionLocalizations" % group, token)
        check(status == 200 and [(i["id"], i["attributes"]["name"]) for i in body["included"]] == [(sub_loc, "Plus!")],
              "read back: the subscription's localization (got %s)" % body)

        # -- an in-app purchase's price schedule
        usa = points(base, token, "/v2/inAppPurchases/%s/pricePoints" % iap, "USA")
        gbr = points(base, token, "/v2/inAppPurchases/%s/pricePoints" % iap, "GBR")
        status, _, body = send("POST", base + "/v1/inAppPurchasePriceSchedules", token,
                               schedule_body(iap, "USA", [("USA", usa["1.99"], None), ("GBR", gbr["0.99"], LATER)]))
        check(status == 201 and body["data"]["type"] == "inAppPurchasePriceSchedules" and body["data"]["id"] == iap,
              "create price schedule: 201 (got %s %s)" % (status, body))
        status, _, body = get_json(base + "/v2/inAppPurchases/%s/iapPriceSchedule?include=baseTerritory,manualPrices,automaticPrices" % iap, token)
        rel = body["data"]["relationships"]
        # GBR follows the base price automatically until its manual price starts.
        check(status == 200 and rel["baseTerritory"]["data"]["id"] == "USA" and rel["manualPrices"]["meta"]["paging"]["total"] == 2
              and rel["automaticPrices"]["meta"]["paging"]["total"] == 6,
              "read back: schedule, base USA, 2 manual, 6 automatic (got %s %s)" % (status, body))
        schedules = base + "/v1/inAppPurchaseSchedules/".replace("Schedules", "PriceSchedules")
        include = "&include=inAppPurchasePricePoint,territory"
        manual = all_pages(schedules + iap + "/manualPrices?limit=200" + include, token, "written manual prices")
        rows = {}
        for page in manual:
            for resource_, row in zip(page["data"], read_prices([dict(page, data=[d]) for d in page["data"]], "inAppPurchasePricePoint")):
                rows[resource_["relationships"]["territory"]["data"]["id"]] = row
        check(rows == {"USA": (None, None, "1.99", "USD"), "GBR": (LATER, None, "0.99", "GBP")},
              "read back: manual prices as the pull reads them (got %s)" % rows)
        status, _, body = get_json(base + "/v1/inAppPurchasePricePoints/%s/equalizations?filter[territory]=JPN" % usa["1.99"], token)
        jpn = body["data"][0]["attributes"]["customerPrice"]
        automatic = all_pages(schedules + iap + "/automaticPrices?filter[territory]=JPN" + include, token, "written automatic prices")
        check(read_prices(automatic, "inAppPurchasePricePoint") == [(None, None, jpn, "JPY")]
              and automatic[0]["data"][0]["attributes"] == {"manual": False},
              "read back: automatic JPN price is the base price's equalization %s (got %s)" % (jpn, automatic))
        for prices, base_territory, what in (([("USA", "bogus", None)], "USA", "a point not on the ladder"),
                                             ([("USA", usa["1.99"], None), ("CAN", usa["2.99"], None)], "USA", "two prices in USA"),
                                             ([("USA", usa["1.99"], None)], "CAN", "no manual price in the base territory"),
                                             ([("USA", usa["1.99"], None)], "FRA", "a base territory not on the ladder")):
            status, _, body = send("POST", base + "/v1/inAppPurchasePriceSchedules", token, schedule_body(iap, base_territory, prices))
            check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID",
                  "price schedule with %s: 409 RELATIONSHIP.INVALID (got %s %s)" % (what, status, body))
        for prices, what in (([("USA", usa["1.99"], "2020-01-01")], "a start date in the past"),
                             ([("USA", usa["1.99"], None, "2020-01-01")], "an end date in the past")):
            status, _, body = send("POST", base + "/v1/inAppPurchasePriceSchedules", token, schedule_body(iap, "USA", prices))
            check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID",
                  "price schedule with %s: 409 ATTRIBUTE.INVALID (got %s %s)" % (what, status, body))
        for prices, what in (([("USA", usa["1.99"], None), ("USA", usa["2.99"], LATER)], "two prices in USA at once"),
                             ([("USA", usa["1.99"], None, LATER), ("USA", usa["2.99"], LATEST)], "a gap in the base territory's prices"),
                             ([("USA", usa["1.99"], LATER)], "no base price until later")):
            status, _, body = send("POST", base + "/v1/inAppPurchasePriceSchedules", token, schedule_body(iap, "USA", prices))
            check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID",
                  "price schedule with %s: 409 RELATIONSHIP.INVALID (got %s %s)" % (what, status, body))
        # A change of the base price ahead: the base price until then, the new one from then;
        # every other territory follows each in turn.
        status, _, body = send("POST", base + "/v1/inAppPurchasePriceSchedules", token,
                               schedule_body(iap, "USA", [("USA", usa["1.99"], None, LATER), ("USA", usa["2.99"], LATER), ("GBR", gbr["0.99"], None)]))
        check(status == 201, "price schedule with a change ahead: 201 (got %s %s)" % (status, body))
        automatic = all_pages(schedules + iap + "/automaticPrices?filter[territory]=JPN" + include, token, "automatic prices, a change ahead")
        later_jpn = [r for r in read_prices(automatic, "inAppPurchasePricePoint")]
        check([(r[0], r[1]) for r in later_jpn] == [(None, LATER), (LATER, None)] and later_jpn[0][2] == jpn and later_jpn[1][2] != jpn,
              "read back: JPN follows 1.99 until %s, then 2.99's equalization (got %s)" % (LATER, later_jpn))
        manual = all_pages(schedules + iap + "/manualPrices?filter[territory]=USA" + include, token, "manual prices, a change ahead")
        check(read_prices(manual, "inAppPurchasePricePoint") == [(None, LATER, "1.99", "USD"), (LATER, None, "2.99", "USD")],
              "read back: USA 1.99 until %s, 2.99 from then (got %s)" % (LATER, read_prices(manual, "inAppPurchasePricePoint")))
        sub_point = points(base, token, "/v1/subscriptions/%s/pricePoints" % sub, "USA")
        status, _, body = send("POST", base + "/v1/inAppPurchasePriceSchedules", token, schedule_body(iap, "USA", [("USA", sub_point["1.99"], None)]))
        check(status == 409, "price schedule with a subscription's price point: 409 (got %s)" % status)

        # -- subscription prices
        def price_body(sub_id, point, territory=None, start=None):
            relationships = {"subscription": one("subscriptions", sub_id), "subscriptionPricePoint": one("subscriptionPricePoints", point)}
            if territory is not None:
                relationships["territory"] = one("territories", territory)
            return resource("subscriptionPrices", {"startDate": start, "preserveCurrentPrice": False}, **relationships)

        def sub_price(sub_id, territory):
            pages = all_pages(base + "/v1/subscriptions/%s/prices?filter[territory]=%s&include=subscriptionPricePoint,territory"
                              % (sub_id, territory), token, "subscription prices")
            return current(read_prices(pages, "subscriptionPricePoint"), today)

        # A subscription with no price: a price "change" is App Store Connect's 500; the first
        # prices come inline with a PATCH of the subscription.
        status, _, body = send("POST", base + "/v1/subscriptionPrices", token, price_body(sub, sub_point["4.99"], "USA"))
        check(status == 500 and error_code(body) == "UNEXPECTED_ERROR" and sub_price(sub, "USA") is None,
              "subscription price change with no price yet: 500, nothing kept (got %s %s)" % (status, body))

        def inline_prices(sub_id, items, named=None):
            included = [{"type": "subscriptionPrices", "id": ident, "attributes": {"preserveCurrentPrice": False},
                         "relationships": dict({"subscriptionPricePoint": one("subscriptionPricePoints", point)},
                                               **({"territory": one("territories", territory)} if territory else {}))}
                        for ident, point, territory in items]
            body_ = resource("subscriptions", {}, ident=sub_id, prices=many("subscriptionPrices", named if named is not None else [i[0] for i in items]))
            body_["included"] = included
            return send("PATCH", base + "/v1/subscriptions/" + sub_id, token, body_)

        gbr_point = points(base, token, "/v1/subscriptions/%s/pricePoints" % sub, "GBR")
        for items, named, what in (([("${p-USA}", sub_point["4.99"], "USA"), ("${p-USA2}", sub_point["5.99"], None)], None, "two prices in USA"),
                                   ([("${p-USA}", sub_point["4.99"], "GBR")], None, "a point not in the territory named"),
                                   ([("${p-USA}", usa["4.99"], None)], None, "an in-app purchase's point"),
                                   ([("${p-USA}", sub_point["4.99"], None)], ["${p-USA}", "${p-GBR}"], "a price not included"),
                                   ([("${p-USA}", sub_point["4.99"], None), ("${p-GBR}", gbr_point["3.99"], None)], ["${p-USA}"],
                                    "an included price not named")):
            status, _, body = inline_prices(sub, items, named)
            check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID" and sub_price(sub, "USA") is None,
                  "inline subscription prices with %s: 409, nothing kept (got %s %s)" % (what, status, body))
        status, _, body = inline_prices(sub, [("${p-USA}", sub_point["4.99"], "USA"), ("${p-GBR}", gbr_point["3.99"], None)])
        check(status == 200 and body["data"]["type"] == "subscriptions",
              "first prices inline with PATCH /v1/subscriptions/{id}: 200 (got %s %s)" % (status, body))
        check(sub_price(sub, "USA") == ("4.99", "USD") and sub_price(sub, "GBR") == ("3.99", "GBP"),
              "read back: the new subscription's inline prices (got %s %s)" % (sub_price(sub, "USA"), sub_price(sub, "GBR")))
        # Introductory offers inline, in territories the subscription has a price in.
        def inline_offers(sub_id, items):
            included = [{"type": "subscriptionIntroductoryOffers", "id": ident,
                         "attributes": {"offerMode": mode, "duration": "ONE_WEEK", "numberOfPeriods": 1},
                         "relationships": dict({"territory": one("territories", territory)},
                                               **({"subscriptionPricePoint": one("subscriptionPricePoints", point)} if point else {}))}
                        for ident, mode, territory, point in items]
            body_ = resource("subscriptions", {}, ident=sub_id, introductoryOffers=many("subscriptionIntroductoryOffers", [i[0] for i in items]))
            body_["included"] = included
            return send("PATCH", base + "/v1/subscriptions/" + sub_id, token, body_)

        def offers_of(sub_id):
            pages = all_pages(base + "/v1/subscriptions/%s/introductoryOffers?include=subscriptionPricePoint,territory" % sub_id, token, "offers")
            return sorted((o["relationships"]["territory"]["data"]["id"], o["attributes"]["offerMode"]) for p in pages for o in p["data"])

        for items, what, code in (([("${o-JPN}", "FREE_TRIAL", "JPN", None)], "a territory with no price", "ENTITY_ERROR.RELATIONSHIP.INVALID"),
                                  ([("${o-USA}", "FREE_TRIAL", "USA", sub_point["0.99"])], "a free trial with a price", "ENTITY_ERROR.RELATIONSHIP.INVALID"),
                                  ([("${o-USA}", "PAY_UP_FRONT", "USA", None)], "a paid offer with no price", "ENTITY_ERROR.RELATIONSHIP.INVALID"),
                                  ([("${o-USA}", "PAY_UP_FRONT", "USA", gbr_point["0.99"])], "a point of another territory", "ENTITY_ERROR.RELATIONSHIP.INVALID"),
                                  ([("${o-USA}", "FREE_TRIAL", "USA", None), ("${o-USA2}", "FREE_TRIAL", "USA", None)], "two offers in USA",
                                   "ENTITY_ERROR.ATTRIBUTE.INVALID")):
            status, _, body = inline_offers(sub, items)
            check(status == 409 and error_code(body) == code and offers_of(sub) == [],
                  "inline introductory offers with %s: 409, nothing kept (got %s %s)" % (what, status, body))
        status, _, body = inline_offers(sub, [("${o-USA}", "FREE_TRIAL", "USA", None), ("${o-GBR}", "PAY_UP_FRONT", "GBR", gbr_point["0.99"])])
        check(status == 200 and offers_of(sub) == [("GBR", "PAY_UP_FRONT"), ("USA", "FREE_TRIAL")],
              "introductory offers inline with PATCH /v1/subscriptions/{id}: 200, read back (got %s %s %s)" % (status, body, offers_of(sub)))
        status, _, body = inline_offers(sub, [("${o-USA}", "FREE_TRIAL", "USA", None)])
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID",
              "an introductory offer where one runs: 409 (got %s %s)" % (status, body))

        # Promotional offers: created with their prices inline, read in the list and included.
        def promo(code, mode, items):
            included = [{"type": "subscriptionPromotionalOfferPrices", "id": "${p-%s}" % territory,
                         "relationships": dict({"territory": one("territories", territory)},
                                               **({"subscriptionPricePoint": one("subscriptionPricePoints", point)} if point else {}))}
                        for territory, point in items]
            body_ = resource("subscriptionPromotionalOffers", {"offerCode": code, "name": "Come back " + code, "offerMode": mode,
                                                                "duration": "ONE_MONTH", "numberOfPeriods": 1},
                             subscription=one("subscriptions", sub), prices=many("subscriptionPromotionalOfferPrices", ["${p-%s}" % t for t, _ in items]))
            body_["included"] = included
            return send("POST", base + "/v1/subscriptionPromotionalOffers", token, body_)

        def promos_of(sub_id):
            pages = all_pages(base + "/v1/subscriptions/%s/promotionalOffers" % sub_id, token, "promotional offers")
            return sorted((o["attributes"]["offerCode"], o["attributes"]["offerMode"]) for p in pages for o in p["data"])

        for code, mode, items, what in (("BACK1", "FREE_TRIAL", [("JPN", None)], "a territory with no price"),
                                        ("BACK1", "FREE_TRIAL", [("USA", sub_point["0.99"])], "a free offer with a price"),
                                        ("BACK1", "PAY_UP_FRONT", [("USA", None)], "a paid offer with no price"),
                                        ("BACK1", "PAY_UP_FRONT", [("USA", gbr_point["0.99"])], "a point of another territory")):
            status, _, body = promo(code, mode, items)
            check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID" and promos_of(sub) == [],
                  "promotional offer with %s: 409, nothing kept (got %s %s)" % (what, status, body))
        status, _, body = promo("BACK1", "PAY_UP_FRONT", [("USA", sub_point["0.99"]), ("GBR", gbr_point["0.99"])])
        check(status == 201 and body["data"]["type"] == "subscriptionPromotionalOffers" and body["data"]["attributes"]["offerCode"] == "BACK1"
              and promos_of(sub) == [("BACK1", "PAY_UP_FRONT")], "create promotional offer: 201, read back (got %s %s)" % (status, body))
        status, _, body = promo("BACK1", "FREE_TRIAL", [("USA", None)])
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "promotional offer code taken: 409 (got %s %s)" % (status, body))
        status, _, body = get_json(base + "/v1/subscriptionGroups/%s/subscriptions?include=promotionalOffers&limit[promotionalOffers]=50"
                                   "&fields[subscriptionPromotionalOffers]=name,offerCode,offerMode,duration,numberOfPeriods" % group, token)
        listed = [r for r in body.get("data", []) if r["id"] == sub]
        check(status == 200 and listed and [l["id"] for l in listed[0]["relationships"]["promotionalOffers"]["data"]]
              == [i["id"] for i in body.get("included", []) if i["type"] == "subscriptionPromotionalOffers"],
              "subscriptions list includes promotional offers (got %s %s)" % (status, body))

        # Win-back offers: created with their prices inline, read in the subscription's list.
        def win_back(offer_id, mode, items, **changes):
            included = [{"type": "winBackOfferPrices", "id": "${w-%s}" % territory,
                         "relationships": dict({"territory": one("territories", territory)},
                                               **({"subscriptionPricePoint": one("subscriptionPricePoints", point)} if point else {}))}
                        for territory, point in items]
            attributes = {"offerId": offer_id, "referenceName": "Win back " + offer_id, "offerMode": mode, "duration": "ONE_MONTH",
                          "periodCount": 1, "customerEligibilityPaidSubscriptionDurationInMonths": 2,
                          "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 1, "maximum": 6},
                          "startDate": LATER, "priority": "NORMAL"}
            attributes.update(changes)
            body_ = resource("winBackOffers", attributes, subscription=one("subscriptions", sub),
                             prices=many("winBackOfferPrices", ["${w-%s}" % t for t, _ in items]))
            body_["included"] = included
            return send("POST", base + "/v1/winBackOffers", token, body_)

        def win_backs_of(sub_id):
            pages = all_pages(base + "/v1/subscriptions/%s/winBackOffers" % sub_id, token, "win-back offers")
            return sorted((o["attributes"]["offerId"], o["attributes"]["offerMode"], o["attributes"]["startDate"]) for p in pages for o in p["data"])

        for offer_id, mode, items, changes, code, what in (
                ("WB1", "FREE_TRIAL", [("JPN", None)], {}, "ENTITY_ERROR.RELATIONSHIP.INVALID", "a territory with no price"),
                ("WB1", "PAY_UP_FRONT", [("USA", None)], {}, "ENTITY_ERROR.RELATIONSHIP.INVALID", "a paid offer with no price"),
                ("WB1", "FREE_TRIAL", [("USA", None)], {"startDate": "2020-01-01"}, "ENTITY_ERROR.ATTRIBUTE.INVALID", "a start in the past"),
                ("WB1", "FREE_TRIAL", [("USA", None)], {"endDate": LATER}, "ENTITY_ERROR.ATTRIBUTE.INVALID", "an end not after its start"),
                ("WB1", "FREE_TRIAL", [("USA", None)], {"customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 6, "maximum": 1}},
                 "ENTITY_ERROR.ATTRIBUTE.INVALID", "a lapsed range backwards")):
            status, _, body = win_back(offer_id, mode, items, **changes)
            check(status == 409 and error_code(body) == code and win_backs_of(sub) == [],
                  "win-back offer with %s: 409 %s, nothing kept (got %s %s)" % (what, code, status, body))
        status, _, body = win_back("WB1", "PAY_UP_FRONT", [("USA", sub_point["0.99"]), ("GBR", gbr_point["0.99"])], endDate=LATEST)
        check(status == 201 and body["data"]["type"] == "winBackOffers" and body["data"]["attributes"]["endDate"] == LATEST
              and win_backs_of(sub) == [("WB1", "PAY_UP_FRONT", LATER)], "create win-back offer: 201, read back (got %s %s)" % (status, body))
        status, _, body = win_back("WB1", "FREE_TRIAL", [("USA", None)])
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "win-back offer identifier taken: 409 (got %s %s)" % (status, body))

        # Offer codes: created with their prices inline, read in the subscription's list.
        def offer_code(name, mode, items, **changes):
            included = [{"type": "subscriptionOfferCodePrices", "id": "${c-%s}" % territory,
                         "relationships": dict({"territory": one("territories", territory)},
                                               **({"subscriptionPricePoint": one("subscriptionPricePoints", point)} if point else {}))}
                        for territory, point in items]
            attributes = {"name": name, "customerEligibilities": ["NEW", "EXPIRED"], "offerEligibility": "REPLACE_INTRO_OFFERS",
                          "offerMode": mode, "duration": "ONE_MONTH", "numberOfPeriods": 1}
            attributes.update(changes)
            body_ = resource("subscriptionOfferCodes", attributes, subscription=one("subscriptions", sub),
                             prices=many("subscriptionOfferCodePrices", ["${c-%s}" % t for t, _ in items]))
            body_["included"] = included
            return send("POST", base + "/v1/subscriptionOfferCodes", token, body_)

        def offer_codes_of(sub_id):
            pages = all_pages(base + "/v1/subscriptions/%s/offerCodes" % sub_id, token, "offer codes")
            return sorted((o["attributes"]["name"], o["attributes"]["offerMode"], tuple(o["attributes"]["customerEligibilities"]),
                           o["attributes"]["active"]) for p in pages for o in p["data"])

        for name, mode, items, changes, code, what in (
                ("Spring", "FREE_TRIAL", [("JPN", None)], {}, "ENTITY_ERROR.RELATIONSHIP.INVALID", "a territory with no price"),
                ("Spring", "PAY_UP_FRONT", [("USA", None)], {}, "ENTITY_ERROR.RELATIONSHIP.INVALID", "a paid offer with no price"),
                ("Spring", "FREE_TRIAL", [("USA", None)], {"customerEligibilities": []}, "ENTITY_ERROR.ATTRIBUTE.INVALID", "no customers"),
                ("Spring", "FREE_TRIAL", [("USA", None)], {"customerEligibilities": ["NEW", "NEW"]}, "ENTITY_ERROR.ATTRIBUTE.INVALID",
                 "a kind of customer twice")):
            status, _, body = offer_code(name, mode, items, **changes)
            check(status == 409 and error_code(body) == code and offer_codes_of(sub) == [],
                  "offer code with %s: 409 %s, nothing kept (got %s %s)" % (what, code, status, body))
        status, _, body = offer_code("Spring", "PAY_UP_FRONT", [("USA", sub_point["0.99"]), ("GBR", gbr_point["0.99"])])
        check(status == 201 and body["data"]["type"] == "subscriptionOfferCodes" and body["data"]["attributes"]["active"] is True
              and offer_codes_of(sub) == [("Spring", "PAY_UP_FRONT", ("NEW", "EXPIRED"), True)],
              "create offer code: 201, active, read back (got %s %s)" % (status, body))
        spring = body["data"]["id"] if status == 201 else None
        status, _, body = offer_code("Spring", "FREE_TRIAL", [("USA", None)])
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "offer code name taken: 409 (got %s %s)" % (status, body))

        # Custom codes: made for an offer code, read with its subscription's offer codes.
        def custom(word, number=100, expiration=None, code_id=None):
            attributes = {"customCode": word, "numberOfCodes": number}
            if expiration is not None:
                attributes["expirationDate"] = expiration
            return send("POST", base + "/v1/subscriptionOfferCodeCustomCodes", token,
                        resource("subscriptionOfferCodeCustomCodes", attributes, offerCode=one("subscriptionOfferCodes", code_id or spring)))

        def customs_of(sub_id):
            status_, _, body_ = get_json(base + "/v1/subscriptions/%s/offerCodes?include=customCodes&limit[customCodes]=50" % sub_id, token)
            return sorted((i["attributes"]["customCode"], i["attributes"]["numberOfCodes"], i["attributes"].get("expirationDate"))
                          for i in body_.get("included", []) if i["type"] == "subscriptionOfferCodeCustomCodes")

        for word, number, expiration, code_id, code, what in (
                ("SPRING-25", 100, None, None, "ENTITY_ERROR.ATTRIBUTE.INVALID", "a character that is not a letter or digit"),
                ("SPRING25", 0, None, None, "ENTITY_ERROR.ATTRIBUTE.INVALID", "no redemption"),
                ("SPRING25", 100, "2020-01-01", None, "ENTITY_ERROR.ATTRIBUTE.INVALID", "an expiration in the past"),
                ("SPRING25", 100, None, "404404", "ENTITY_ERROR.RELATIONSHIP.INVALID", "an offer code that is not there")):
            status, _, body = custom(word, number, expiration, code_id)
            check(status == 409 and error_code(body) == code and customs_of(sub) == [],
                  "custom code with %s: 409 %s, nothing kept (got %s %s)" % (what, code, status, body))
        status, _, body = custom("SPRING25", 500, LATEST)
        check(status == 201 and body["data"]["type"] == "subscriptionOfferCodeCustomCodes" and body["data"]["attributes"]["active"] is True
              and customs_of(sub) == [("SPRING25", 500, LATEST)], "create custom code: 201, read back with its offer code (got %s %s)" % (status, body))
        status, _, body = custom("spring25")
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
              "custom code taken in another case: 409 DUPLICATE (got %s %s)" % (status, body))
        pages = all_pages(base + "/v1/subscriptionOfferCodes/%s/customCodes" % spring, token, "custom codes")
        check([c["attributes"]["customCode"] for p in pages for c in p["data"]] == ["SPRING25"], "an offer code's custom codes listed (got %s)" % pages)
        status, _, body = get_json(base + "/v1/subscriptionGroups/%s/subscriptions?include=offerCodes&limit[offerCodes]=50"
                                   "&fields[subscriptionOfferCodes]=name,customerEligibilities,offerEligibility,duration,offerMode,"
                                   "numberOfPeriods,active" % group, token)
        listed = [r for r in body.get("data", []) if r["id"] == sub]
        check(status == 200 and listed and [l["id"] for l in listed[0]["relationships"]["offerCodes"]["data"]]
              == [i["id"] for i in body.get("included", []) if i["type"] == "subscriptionOfferCodes"] != [],
              "subscriptions list includes offer codes (got %s %s)" % (status, body))

        status, _, body = send("POST", base + "/v1/subscriptionPrices", token, price_body(sub, sub_point["4.99"], "USA"))
        check(status == 201 and body["data"]["type"] == "subscriptionPrices" and body["data"]["attributes"] == {"startDate": today},
              "create subscription price (a change, once it has one): 201, starts today (got %s %s)" % (status, body))
        check(sub_price(sub, "USA") == ("4.99", "USD"), "read back: the new subscription's price (got %s)" % (sub_price(sub, "USA"),))
        check(sub_price("6450003001", "USA") == ("4.99", "USD"), "the old subscription's USA price before the change")
        status, _, body = send("POST", base + "/v1/subscriptionPrices", token, price_body("6450003001", sub_point["6.99"]))
        check(status == 201 and sub_price("6450003001", "USA") == ("6.99", "USD"),
              "a price without a start date is current at once (got %s %s)" % (status, sub_price("6450003001", "USA")))
        status, _, body = send("POST", base + "/v1/subscriptionPrices", token, price_body("6450003001", sub_point["7.99"]))
        check(status == 201 and sub_price("6450003001", "USA") == ("7.99", "USD"),
              "a second change the same day replaces the first (got %s)" % (sub_price("6450003001", "USA"),))
        status, _, body = send("POST", base + "/v1/subscriptionPrices", token, price_body(sub, sub_point["9.99"], "USA", "2099-01-01"))
        check(status == 201 and sub_price(sub, "USA") == ("4.99", "USD"), "a future price is not current yet (got %s)" % (sub_price(sub, "USA"),))
        status, _, body = send("POST", base + "/v1/subscriptionPrices", token, price_body(sub, sub_point["9.99"], "USA", "2020-01-01"))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID" and sub_price(sub, "USA") == ("4.99", "USD"),
              "a price change that starts in the past: 409 ATTRIBUTE.INVALID, nothing kept (got %s %s)" % (status, body))
        for body_, what in ((price_body(sub, sub_point["4.99"], "GBR"), "the point's territory is not the one given"),
                            (price_body(sub, usa["4.99"]), "an in-app purchase's point"), (price_body(sub, "bogus"), "a point not on the ladder")):
            status, _, body = send("POST", base + "/v1/subscriptionPrices", token, body_)
            check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID",
                  "subscription price where %s: 409 (got %s %s)" % (what, status, body))

        # -- availabilities
        status, _, body = send("POST", base + "/v1/inAppPurchaseAvailabilities", token,
                               resource("inAppPurchaseAvailabilities", {"availableInNewTerritories": False},
                                        inAppPurchase=one("inAppPurchases", iap),
                                        availableTerritories=many("territories", ["JPN", "USA", "GBR"])))
        availability = body["data"]["id"] if status == 201 else None
        check(status == 201 and body["data"]["attributes"] == {"availableInNewTerritories": False},
              "create in-app purchase availability: 201 (got %s %s)" % (status, body))
        status, _, body = get_json(base + "/v1/apps/%s/inAppPurchasesV2?filter[productId]=com.acme.app.gems"
                                   "&include=inAppPurchaseAvailability" % APP, token)
        linkage = body["data"][0]["relationships"]["inAppPurchaseAvailability"].get("data")
        check(linkage == {"type": "inAppPurchaseAvailabilities", "id": availability}
              and body["included"][0]["attributes"] == {"availableInNewTerritories": False},
              "read back: the availability through the include (got %s)" % body)
        status, _, body = get_json(base + "/v1/inAppPurchaseAvailabilities/%s/availableTerritories?limit=200" % availability, token)
        check(status == 200 and [d["id"] for d in body["data"]] == ["GBR", "JPN", "USA"],
              "read back: available territories, sorted (got %s %s)" % (status, body))
        status, _, body = send("POST", base + "/v1/subscriptionAvailabilities", token,
                               resource("subscriptionAvailabilities", {"availableInNewTerritories": True},
                                        subscription=one("subscriptions", sub), availableTerritories=many("territories", ["USA"])))
        sub_availability = body["data"]["id"] if status == 201 else None
        check(status == 201, "create subscription availability: 201 (got %s %s)" % (status, body))
        status, _, body = get_json(base + "/v1/subscriptionGroups/%s/subscriptions?include=subscriptionAvailability" % group, token)
        check(body["data"][0]["relationships"]["subscriptionAvailability"].get("data", {}).get("id") == sub_availability,
              "read back: the subscription's availability (got %s)" % body)
        status, _, body = get_json(base + "/v1/subscriptionAvailabilities/%s/availableTerritories" % sub_availability, token)
        check([d["id"] for d in body["data"]] == ["USA"], "read back: the subscription's territories (got %s)" % body)
        status, _, body = send("POST", base + "/v1/inAppPurchaseAvailabilities", token,
                               resource("inAppPurchaseAvailabilities", {"availableInNewTerritories": False},
                                        inAppPurchase=one("inAppPurchases", iap), availableTerritories=many("territories", ["USA", "FRA"])))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.RELATIONSHIP.INVALID", "availability in a territory not on the ladder: 409")
        status, _, body = get_json(base + "/v1/territories?limit=3", token)
        check(status == 200 and body["meta"]["paging"]["total"] == 7 and [(d["id"], d["attributes"]["currency"]) for d in body["data"]]
              == [("CAN", "CAD"), ("CHE", "CHF"), ("DEU", "EUR")] and "next" in body["links"],
              "territories: the ladder's, paged, with currencies (got %s %s)" % (status, body))

        # -- updates: what cannot change
        patch_iap = lambda ident, attributes: send("PATCH", base + "/v2/inAppPurchases/" + ident, token,
                                                   resource("inAppPurchases", attributes, ident=ident))
        patch_sub = lambda ident, attributes: send("PATCH", base + "/v1/subscriptions/" + ident, token,
                                                   resource("subscriptions", attributes, ident=ident))
        for attributes, what in (({"inAppPurchaseType": "NON_CONSUMABLE"}, "type"), ({"productId": "com.acme.app.gems2"}, "product ID")):
            status, _, body = patch_iap(iap, attributes)
            check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID",
                  "in-app purchase %s change: 409 (got %s %s)" % (what, status, body))
        status, _, body = patch_iap(iap, {"name": "Gems!", "familySharable": True, "reviewNote": "Look"})
        check(status == 200 and body["data"]["attributes"]["name"] == "Gems!" and body["data"]["attributes"]["familySharable"] is True
              and body["data"]["attributes"]["reviewNote"] == "Look", "update in-app purchase: 200 (got %s %s)" % (status, body))
        status, _, body = patch_iap(iap, {"familySharable": False})
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID" and "Family Sharing" in body["errors"][0]["detail"],
              "in-app purchase family sharing off: 409 (got %s %s)" % (status, body))
        status, _, body = patch_iap("6450001002", {"familySharable": False})
        check(status == 409, "stored in-app purchase family sharing off: 409 (got %s)" % status)
        status, _, body = patch_iap(iap, {"name": "No Ads"})
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "in-app purchase renamed onto another: 409")
        status, _, body = patch_iap("6450001777", {"name": "x"})
        check(status == 404, "update unknown in-app purchase: 404 (got %s)" % status)
        status, _, body = patch_sub(sub, {"productId": "x"})
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID", "subscription product ID change: 409 (got %s)" % status)
        status, _, body = patch_sub("6450003002", {"familySharable": False})
        check(status == 409, "subscription family sharing off: 409 (got %s)" % status)
        status, _, body = patch_sub(sub, {"name": "Plus Monthly!", "subscriptionPeriod": "ONE_YEAR", "groupLevel": 2})
        check(status == 200 and body["data"]["attributes"]["subscriptionPeriod"] == "ONE_YEAR" and body["data"]["attributes"]["groupLevel"] == 2,
              "update subscription: 200 (got %s %s)" % (status, body))

        # -- deletes: not an approved product; a deleted product's ID is never used again
        status, _, body = send("DELETE", base + "/v2/inAppPurchases/6450001001", token)
        check(status == 409 and error_code(body) == "STATE_ERROR.ENTITY_STATE_INVALID", "delete approved in-app purchase: 409 (got %s %s)" % (status, body))
        status, _, body = send("DELETE", base + "/v1/subscriptions/6450003001", token)
        check(status == 409, "delete approved subscription: 409 (got %s)" % status)
        status, headers, body = send("DELETE", base + "/v2/inAppPurchases/6450001003", token)
        check(status == 204 and body == b"", "delete in-app purchase: 204, no body (got %s %r)" % (status, body))
        status, _, body = get_json(base + "/v1/apps/%s/inAppPurchasesV2?filter[productId]=com.acme.app.pass" % APP, token)
        check(status == 200 and body["data"] == [], "read back: the deleted in-app purchase is gone")
        status, _, body = send("POST", base + "/v1/subscriptions", token,
                               resource("subscriptions", {"productId": "com.acme.app.pass", "name": "Pass again"},
                                        group=one("subscriptionGroups", group)))
        check(status == 409 and error_code(body) == "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE" and "deleted" in body["errors"][0]["detail"],
              "a deleted product's ID again: 409 (got %s %s)" % (status, body))
        status, _, _ = send("DELETE", base + "/v2/inAppPurchases/6450001003", token)
        check(status == 404, "delete it again: 404 (got %s)" % status)

        # -- requests the document refuses; a body over 1 MB
        status, _, body = send("POST", base + "/v2/inAppPurchases", token,
                               resource("inAppPurchases", {"productId": "a.b", "name": "B", "inAppPurchaseType": "SUBSCRIPTION"},
                                        app=one("apps", APP)))
        check(status == 599 and b"inAppPurchaseType" in body, "create with a type the document lacks: 599 (got %s %s)" % (status, body[:300]))
        status, _, body = send("POST", base + "/v1/subscriptionPrices", token, raw=b'{"data": ')
        check(status == 599, "a body that is not JSON: 599 (got %s)" % status)
        status, _, body = send("POST", base + "/v1/subscriptionGroups", token, raw=b" " * (1024 * 1024 + 1))
        check(status == 400 and error_code(body) == "ENTITY_ERROR.REQUEST_TOO_LARGE", "a body over 1 MB: 400 (got %s %s)" % (status, body))
        status, _, body = send("POST", base + "/v1/subscriptionGroups", make_token(key, corrupt=True),
                               resource("subscriptionGroups", {"referenceName": "Z"}, app=one("apps", APP)))
        check(status == 401, "write with a bad token: 401 (got %s)" % status)
    finally:
        server.stop()

    entries = server.entries()
    written = [e for e in entries if e["method"] != "GET"]
    bad = [e for e in written if e["status"] in (400, 401, 599)]
    good = [e for e in written if e not in bad]
    check(all(e["requestValid"] is True and (e["responseValid"] is True or (e["method"], e["status"]) in (("DELETE", 409), ("POST", 500)))
              and e["error"] is None for e in good),
          "writes log: every write answer valid by the document (got %s)" % [e for e in good if e["responseValid"] is not True])
    check([e["status"] for e in bad] == [599, 599, 400, 401], "writes log: the 599s, the 400 and the 401 (got %s)" % [e["status"] for e in bad])
    check(all(set(e) == {"method", "path", "query", "body", "status", "requestValid", "responseValid", "error"} for e in written)
          and written[0]["body"]["data"]["attributes"] == {"referenceName": "Plus"}, "writes log: the body with the documented keys")
    check(all(e["status"] != 599 for e in entries if e["method"] == "GET"), "writes: no read was a 599")

    # -- the state file seeds a later run, ids continue
    with open(state, encoding="utf-8") as handle:
        saved = json.load(handle)
    check(not os.path.exists(state + ".tmp"), "state: no temporary file left")
    # Past the last id the checks expect: the ids made after it, the promotional and win-back offers', the offer code's and its custom code's among them.
    check(saved["usedProductIds"] == ["com.acme.app.pass"] and saved["nextId"] == int(next(expect_ids)) + 6,
          "state: usedProductIds and nextId (got %s %s)" % (saved.get("usedProductIds"), saved.get("nextId")))
    gems = [i for i in saved["inAppPurchases"] if i["id"] == iap]
    # The last schedule: USA's two manual prices and GBR's, and 5 territories following each of USA's.
    check(len(gems) == 1 and gems[0]["name"] == "Gems!" and gems[0]["baseTerritory"] == "USA" and len(gems[0]["prices"]) == 3 + 5 * 2
          and gems[0]["availability"]["territories"] == ["GBR", "JPN", "USA"],
          "state: the new in-app purchase with its prices and availability (got %s)" % gems)
    check(saved["salesReports"] == STORE["salesReports"], "state: the reports kept")
    server = Server(workdir, extra=["--store", state])
    try:
        status, _, body = get_json(server.base + "/v1/subscriptionGroups/%s/subscriptions" % group, token)
        check(status == 200 and [d["id"] for d in body["data"]] == [sub], "state as --store: the written subscription")
        status, _, body = send("POST", server.base + "/v2/inAppPurchases", token,
                               resource("inAppPurchases", {"productId": "com.acme.app.pass", "name": "P", "inAppPurchaseType": "CONSUMABLE"},
                                        app=one("apps", APP)))
        check(status == 409, "state as --store: the deleted product ID still refused (got %s)" % status)
        status, _, body = send("POST", server.base + "/v1/subscriptionGroups", token,
                               resource("subscriptionGroups", {"referenceName": "Next"}, app=one("apps", APP)))
        check(status == 201 and body["data"]["id"] == str(saved["nextId"]), "state as --store: ids continue (got %s)" % body)
        results = []
        threads = [threading.Thread(target=lambda n=n: results.append(send(
            "POST", server.base + "/v1/subscriptionGroups", token,
            resource("subscriptionGroups", {"referenceName": "T%d" % n}, app=one("apps", APP))))) for n in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        ids = sorted(int(r[2]["data"]["id"]) for r in results if r[0] == 201)
        check(len(results) == 12 and ids == list(range(saved["nextId"] + 1, saved["nextId"] + 13)),
              "concurrent writes: all 201, ids unique and consecutive (got %s)" % [r[0] for r in results])
    finally:
        server.stop()


def write_failures(workdir, key):
    token = make_token(key)

    def group(base, name):
        return send("POST", base + "/v1/subscriptionGroups", token,
                    resource("subscriptionGroups", {"referenceName": name}, app=one("apps", APP)))

    def names(base):
        status, _, body = get_json(base + "/v1/apps/%s/subscriptionGroups" % APP, token)
        return [d["attributes"]["referenceName"] for d in body["data"]]

    for mode in ("before", "after"):
        state = os.path.join(workdir, "state-%s.json" % mode)
        server = Server(workdir, extra=["--write-failure", "%s:2" % mode, "--state", state])
        try:
            statuses = [group(server.base, "A")[0], group(server.base, "B")[0]]
            check(statuses == [201, 500], "%s:2: the second write answers 500 (got %s)" % (mode, statuses))
            check(names(server.base) == (["Pro", "A"] if mode == "before" else ["Pro", "A", "B"]),
                  "%s:2: the write %s applied (got %s)" % (mode, "is not" if mode == "before" else "is", names(server.base)))
            status, _, body = group(server.base, "B")
            check((status, error_code(body) if status != 201 else None) == ((201, None) if mode == "before"
                                                                            else (409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE")),
                  "%s:2: the retry (the third write) (got %s %s)" % (mode, status, body))
            status, _, body = group(server.base, "C")
            check(status == 500 and error_code(body) == "UNEXPECTED_ERROR", "%s:2: the fourth write answers 500" % mode)
        finally:
            server.stop()
        injected = [e.get("injected") for e in server.entries() if e["method"] == "POST"]
        check(injected == [None, mode, None, mode], "%s:2: the log says injected (got %s)" % (mode, injected))
        with open(state, encoding="utf-8") as handle:
            saved = [g["referenceName"] for g in json.load(handle)["subscriptionGroups"]]
        check(saved == (["Pro", "A", "B"] if mode == "before" else ["Pro", "A", "B", "C"]), "%s:2: the state file (got %s)" % (mode, saved))

    server = Server(workdir, "read-only-key", extra=["--hour-limit", "2"])
    try:
        status, headers, _ = get_json(server.base + "/v1/apps/" + APP, token)
        check(status == 200 and headers.get("X-Rate-Limit") == "user-hour-lim:2;user-hour-rem:1;", "read-only-key: a read is 200")
        status, headers, body = group(server.base, "A")
        check(status == 403 and error_code(body) == "FORBIDDEN_ERROR" and "App Manager or Admin" in body["errors"][0]["detail"]
              and headers.get("X-Rate-Limit") == "user-hour-lim:2;user-hour-rem:0;",
              "read-only-key: a write is 403 FORBIDDEN_ERROR, counted in the hour's limit (got %s %s)" % (status, body))
        status, _, body = send("DELETE", server.base + "/v2/inAppPurchases/6450001003", token)
        check(status == 429, "writes count toward --hour-limit: 429 past it (got %s)" % status)
    finally:
        server.stop()
    entries = server.entries()
    check(entries[1]["responseValid"] is True, "read-only-key: the 403 is valid by the document (got %s)" % entries[1])


def get_safely(url, token):
    try:
        return get(url, token, timeout=60)[0]
    except Exception as error:
        return type(error).__name__


def main():
    key = ec.generate_private_key(ec.SECP256R1())
    with tempfile.TemporaryDirectory() as workdir:
        with open(os.path.join(workdir, "key.pem"), "wb") as handle:
            handle.write(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                       serialization.PublicFormat.SubjectPublicKeyInfo))
        with open(os.path.join(workdir, "store.json"), "w", encoding="utf-8") as handle:
            json.dump(STORE, handle)
        normal_requests(workdir, key)
        reports(workdir, key)
        prices(workdir, key)
        budget_and_offers(workdir, key)
        writes(workdir, key)
        write_failures(workdir, key)
        scenarios(workdir, key)
    if failures:
        print("%d of %d checks failed" % (len(failures), checks[0]))
        return 1
    print("all %d checks passed" % checks[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
