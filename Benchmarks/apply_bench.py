#!/usr/bin/env python3
"""`iap asc apply` of N new products with prices in all 175 storefronts and two locales, against the
fake App Store Connect with latency added to every answer (issue 36): requests and writes against
the floor (one write per resource), wall time, iap's CPU and peak memory.

    python3 Benchmarks/apply_bench.py .build/release/iap [N ...] [--latency-ms 200] [--subscriptions 10] [--replan]

For each N (100 and 1000 by default): an app with no product in a fake whose price ladder has the
App Store's 175 storefronts, and a metadata plist of N products: --subscriptions percent of them
auto-renewable subscriptions in groups of 10, the others consumables. Each has a reference name,
an en-US and a de-DE localization, availability in every territory, a base price in USA (one of 40
tiers) and a price in each of the 174 other storefronts: the base price's equalization, except in 7
territories (every 25th), where it is the next tier up, as a team sets prices by hand. The plan is
made live (`iap asc plan --app`), then applied with --confirm under /usr/bin/time; --replan plans
again and checks that nothing is left. The fake validates every request and answer against Apple's
OpenAPI document; its hour's limit is raised so that the run is not cut (App Store Connect's
3,600 an hour would stop apply with exit 75, and the same command resumes).

The floor: a group, then per product the product, 2 localizations, 1 price write (an in-app
purchase's schedule; a new subscription's first prices inline) and 1 availability.
"""
import argparse, json, math, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests/Fixtures/asc"))
import fake_asc  # noqa: E402  (the fake's price ladder: the catalog's prices are its points)
from asc_price_bench import ISSUER, key_files, storefronts as storefront_list  # noqa: E402


def storefronts(iap):
    return dict(storefront_list(iap))


def metadata(count, share, territories):
    ladder = fake_asc.Ladder(territories)
    names = sorted(territories)
    subs = count * share // 100
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>IAPCatalogMetadata</key><integer>1</integer>'
             '<key>bundleID</key><string>com.bench.app</string><key>products</key><dict>']
    for i in range(count):
        tier = 7 + i % 40
        prices = []
        for n, territory in enumerate(t for t in names if t != "USA"):
            at = tier + 1 if n % 25 == 0 else tier
            prices.append("<key>%s</key><string>%s</string>" % (territory, ladder.points[territory][at][0]))
        subscription = i < subs
        pid = "com.bench.app.plus%d.tier%d" % (i // 10, i % 10) if subscription else "com.bench.app.item%05d" % i
        kind = ("<key>kind</key><string>auto-renewable</string><key>subscriptionGroup</key><string>Plus %d</string>"
                "<key>groupLevel</key><integer>%d</integer><key>subscriptionPeriod</key><string>P1M</string>" % (i // 10, i % 10 + 1)
                if subscription else "<key>kind</key><string>consumable</string>")
        parts.append("<key>%s</key><dict>%s<key>referenceName</key><string>Product %d</string>"
                     "<key>price</key><string>%s</string><key>currency</key><string>USD</string><key>prices</key><dict>%s</dict>"
                     "<key>availability</key><dict><key>territories</key><string>all</string><key>newTerritories</key><true/></dict>"
                     "<key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Product %d</string>"
                     "<key>description</key><string>A thing</string></dict><key>de-DE</key><dict><key>displayName</key>"
                     "<string>Produkt %d</string><key>description</key><string>Ein Ding</string></dict></dict></dict>"
                     % (pid, kind, i, ladder.points["USA"][tier][0], "".join(prices), i, i))
    parts.append("</dict></dict></plist>")
    groups = math.ceil(subs / 10)
    return "".join(parts), groups + count * 5, subs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("iap")
    parser.add_argument("counts", nargs="*", type=int, default=[100, 1000])
    parser.add_argument("--latency-ms", type=int, default=200)
    parser.add_argument("--subscriptions", type=int, default=10, help="percent of the products")
    parser.add_argument("--replan", action="store_true")
    args = parser.parse_args()
    iap = os.path.abspath(args.iap)
    territories = storefronts(iap)
    work = tempfile.mkdtemp(prefix="iap-apply-bench-")
    pem, public = key_files(work)
    print(f"latency {args.latency_ms} ms per answer; {len(territories)} storefronts; {args.subscriptions}% subscriptions; work in {work}")
    print()
    print("| products | steps | apply requests | writes | floor | reads before | price-point reads | reads back | wall | iap CPU | iap peak | all valid | left after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for count in args.counts:
        folder = os.path.join(work, str(count))
        os.makedirs(os.path.join(folder, "Catalog"))
        text, floor, subs = metadata(count, args.subscriptions, territories)
        with open(os.path.join(folder, "Catalog", "Metadata.plist"), "w") as f:
            f.write(text)
        store = os.path.join(folder, "store.json")
        with open(store, "w") as f:
            json.dump({"apps": [{"id": "6450000000", "bundleId": "com.bench.app", "name": "Bench", "sku": "BENCH", "primaryLocale": "en-US"}],
                       "priceTerritories": territories}, f)
        log = os.path.join(folder, "requests.jsonl")
        server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Fixtures/asc/fake_asc.py"), "--store", store,
                                   "--public-key", public, "--issuer", ISSUER, "--key-id", "KEYID12345", "--log", log,
                                   "--spec", os.path.join(ROOT, "../shared/schemas/app-store-connect-openapi-4.4.1.json"),
                                   "--latency-ms", str(args.latency_ms), "--hour-limit", "100000000"],
                                  stdout=subprocess.PIPE, text=True)
        port = int(server.stdout.readline().split()[1])
        env = dict(os.environ, IAP_ASC_URL=f"http://127.0.0.1:{port}", IAP_ASC_ISSUER_ID=ISSUER, IAP_ASC_KEY_ID="KEYID12345",
                   IAP_ASC_PRIVATE_KEY=pem)
        plan = os.path.join(folder, "plan.json")
        plan_command = [iap, "asc", "plan", "--app", "com.bench.app", "--all-storefronts", "--availability",
                        "--snapshot", os.path.join(folder, "app.snapshot.json"), os.path.join(folder, "Catalog")]
        left = "-"
        try:
            planned = subprocess.run(plan_command + ["--plan", plan], env=env, capture_output=True, text=True)
            if planned.returncode != 0:
                sys.exit(f"plan failed ({planned.returncode}): {planned.stderr[-2000:]}")
            steps = len(json.load(open(plan))["steps"])
            before = sum(1 for _ in open(log))
            start = time.time()
            applied = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", iap, "asc", "apply", plan, "--confirm", "--timeout", "120"],
                                     env=env, capture_output=True, text=True)
            wall = time.time() - start
            if applied.returncode != 0:
                sys.exit(f"apply failed ({applied.returncode}): {applied.stderr[-2000:]}")
            with open(log) as f:
                requests = [json.loads(line) for line in f][before:]
            if args.replan:
                again = subprocess.run(plan_command + ["--plan", os.path.join(folder, "again.json")], env=env, capture_output=True, text=True)
                left = str(len(json.load(open(os.path.join(folder, "again.json")))["steps"])) if again.returncode == 0 else f"exit {again.returncode}"
        finally:
            server.terminate()
            server.wait()
        _, user, system, peak = applied.stderr.strip().splitlines()[-1].split()
        writes = [r for r in requests if r["method"] != "GET"]
        first_write = next(i for i, r in enumerate(requests) if r["method"] != "GET")
        last_write = max(i for i, r in enumerate(requests) if r["method"] != "GET")
        points = sum(1 for r in requests if r["method"] == "GET" and ("pricePoints" in r["path"] or "PricePoints" in r["path"]))
        valid = all(r.get("requestValid") and r.get("responseValid") for r in requests)
        print(f"| {count} ({subs} subscriptions) | {steps} | {len(requests)} | {len(writes)} | {floor} | {first_write} | {points} "
              f"| {len(requests) - last_write - 1} | {wall:.1f} s | {float(user) + float(system):.2f} s | {int(peak) // 1024} MB | {valid} | {left} |",
              flush=True)


if __name__ == "__main__":
    main()
