#!/usr/bin/env python3
"""Issue 35's benchmarks, in one run:

1. The price-point pull (`iap asc pull --price-points`) from the fake App Store Connect with all
   175 storefronts' ladders (828 points each, both kinds) and --latency-ms per answer: requests
   (against the floor: the ladder pages of each kind, one equalization per distinct base price)
   and wall time.
2. `iap asc ready` (the verdict in all 175 storefronts) and `iap validate --price-points` on a
   catalog of N products (default 10,000: a metadata plist, each product with a base price and its
   own price in 20 storefronts) against a snapshot of the same N products (availability in all 175
   territories), each beside a plain `iap validate` of the same catalog: wall time and peak memory.
3. `iap price plan` for 175 storefronts.

    python3 Benchmarks/readiness_bench.py .build/release/iap [--products 10000] [--latency-ms 200]

Prints Markdown tables.
"""
import argparse, json, math, os, subprocess, sys, tempfile, time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ISSUER = "69a6de70-03db-47e3-e053-5b8c7c11a4d1"
PRICES = ["0.99", "1.99", "2.99", "4.99", "9.99", "19.99"]  # the distinct base prices, all on the fake's USD ladder


def storefronts(iap):
    out = subprocess.run([iap, "storefronts", "--format", "csv"], capture_output=True, text=True, check=True).stdout
    rows = [line.split(",") for line in out.strip().splitlines()[1:]]
    return {row[0]: row[2] for row in rows}


def timed(command, env=None):
    start = time.time()
    run = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + command, capture_output=True, text=True, env=env)
    wall = time.time() - start
    peak = int(run.stderr.strip().splitlines()[-1].split()[1])
    return run, wall, peak // 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("iap")
    parser.add_argument("--products", type=int, default=10000)
    parser.add_argument("--latency-ms", type=int, default=200)
    args = parser.parse_args()
    iap = os.path.abspath(args.iap)
    work = tempfile.mkdtemp(prefix="iap-readiness-bench-")
    territories = storefronts(iap)

    # 1. The price-point pull.
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    public = os.path.join(work, "public.pem")
    with open(public, "wb") as f:
        f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    app = "6450000000"
    purchases = [{"id": str(7_000_000_000 + i), "app": app, "productId": f"com.bench.app.item{i}", "name": f"Item {i}",
                  "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED",
                  "prices": [{"territory": "USA", "currency": "USD", "customerPrice": PRICES[i % len(PRICES)], "proceeds": "0.70", "manual": True}]}
                 for i in range(100)]
    subscriptions = [{"id": str(9_000_000_000 + s), "productId": f"com.bench.app.plus.tier{s}", "name": f"Tier {s}", "state": "APPROVED",
                      "subscriptionPeriod": "ONE_MONTH", "groupLevel": s + 1,
                      "prices": [{"territory": "USA", "currency": "USD", "customerPrice": PRICES[s % len(PRICES)], "proceeds": "3.49"}]}
                     for s in range(10)]
    store = {"apps": [{"id": app, "bundleId": "com.bench.app", "name": "Bench"}], "inAppPurchases": purchases,
             "subscriptionGroups": [{"id": "21000000", "app": app, "referenceName": "Plus", "subscriptions": subscriptions}],
             "priceTerritories": territories}
    store_path = os.path.join(work, "store.json")
    with open(store_path, "w") as f:
        json.dump(store, f)
    log = os.path.join(work, "requests.jsonl")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Fixtures/asc/fake_asc.py"), "--store", store_path, "--public-key", public,
                               "--issuer", ISSUER, "--key-id", "KEYID12345", "--log", log, "--latency-ms", str(args.latency_ms),
                               "--hour-limit", "1000000", "--page-size", "8000"], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().split()[1])
    env = dict(os.environ, IAP_ASC_URL=f"http://127.0.0.1:{port}", IAP_ASC_ISSUER_ID=ISSUER, IAP_ASC_KEY_ID="KEYID12345", IAP_ASC_PRIVATE_KEY=pem)
    snapshot = os.path.join(work, "bench.snapshot.json")
    try:
        pulled, wall, peak = timed([iap, "asc", "pull", "--app", "com.bench.app", "--snapshot", snapshot, "--storefront", "USA",
                                    "--price-points", "--timeout", "300"], env)
    finally:
        server.terminate()
        server.wait()
    if pulled.returncode != 0:
        sys.exit(f"pull failed: {pulled.stderr}")
    with open(log) as f:
        requests = [json.loads(line) for line in f]
    points = [r for r in requests if r["path"].endswith("/pricePoints") or r["path"].endswith("/equalizations")]
    ladder_pages = sum(1 for r in points if r["path"].endswith("/pricePoints"))
    equalized = sum(1 for r in points if r["path"].endswith("/equalizations"))
    per_kind = math.ceil(len(territories) * 828 / 8000)
    valid = all(r.get("requestValid") and r.get("responseValid") for r in requests)
    print(f"## The price-point pull: {len(territories)} territories × 828 points, both kinds, {args.latency_ms} ms per answer\n")
    print("| products | distinct base prices | price-point requests | floor (2 × ⌈points / 8,000⌉ + bases) | per product, naively | wall (whole pull) | iap peak | all valid |")
    print("|---|---|---|---|---|---|---|---|")
    bases = len(PRICES) * 2
    print(f"| {len(purchases) + len(subscriptions)} | {bases} | {len(points)} ({ladder_pages} ladder pages + {equalized} equalizations) "
          f"| {2 * per_kind + bases} | {(len(purchases) + len(subscriptions)) * per_kind} | {wall:.1f} s | {peak} MB | {valid} |")
    price_points = os.path.join(work, "bench.snapshot.price-points.json")
    print(f"\nThe file: {os.path.getsize(price_points) / 1e6:.1f} MB.\n")

    # 2. ready and the price rules on N products, against a plain validate.
    n = args.products
    codes = sorted(territories)
    others = [c for c in codes if c != "USA"][:20]
    ladder_file = json.load(open(price_points))
    ladder = {t: [p.split(":")[0] for p in v["points"].split()] for t, v in ladder_file["ladders"]["inAppPurchases"].items()}
    catalog = os.path.join(work, "Catalog")
    os.makedirs(catalog, exist_ok=True)
    with open(os.path.join(catalog, "Metadata.plist"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>IAPCatalogMetadata</key>\n\t<integer>1</integer>\n'
                '\t<key>bundleID</key>\n\t<string>com.bench.app</string>\n\t<key>products</key>\n\t<dict>\n')
        for i in range(n):
            price = PRICES[i % len(PRICES)]
            # Each storefront's own price: a point of its ladder (every 7th product one step off).
            own = "".join(f"<key>{c}</key><string>{ladder[c][100 + (i % 7 == 0)]}</string>" for c in others)
            f.write(f"\t\t<key>com.bench.app.item{i}</key>\n\t\t<dict><key>kind</key><string>consumable</string>"
                    f"<key>referenceName</key><string>Item {i}</string><key>price</key><string>{price}</string>"
                    f"<key>currency</key><string>USD</string><key>prices</key><dict>{own}</dict>"
                    f"<key>localizations</key><dict><key>en-US</key><dict><key>displayName</key><string>Item {i}</string>"
                    f"<key>description</key><string>A thing</string></dict></dict></dict>\n")
        f.write("\t</dict>\n</dict>\n</plist>\n")
    snap = {"app": {"bundleId": "com.bench.app", "id": app, "name": "Bench"}, "format": "iap-asc-snapshot", "version": 1, "storefront": "USA",
            "subscriptionGroups": [],
            "inAppPurchases": [{"id": str(7_000_000_000 + i), "productId": f"com.bench.app.item{i}", "name": f"Item {i}", "type": "CONSUMABLE",
                                "state": "APPROVED" if i % 50 else "READY_TO_SUBMIT",
                                "localizations": [{"locale": "en-US", "name": f"Item {i}", "state": "APPROVED"}],
                                "price": {"amount": PRICES[i % len(PRICES)], "currency": "USD"},
                                "review": {"screenshot": True, "availability": {"id": f"a{i}", "availableInNewTerritories": True,
                                                                                "territories": codes if i % 10 else codes[:-1]}}}
                               for i in range(n)]}
    big_snapshot = os.path.join(work, "big.snapshot.json")
    with open(big_snapshot, "w") as f:
        json.dump(snap, f)
    sources = os.path.join(work, "App")
    os.makedirs(sources, exist_ok=True)
    with open(os.path.join(sources, "Store.swift"), "w") as f:
        f.write("let products = try await Product.products(for: [" + ", ".join(f'"com.bench.app.item{i}"' for i in range(0, n, 100)) + "])\n")
    storefront_args = [a for c in codes for a in ("--storefront", c)]
    print(f"## {n} products, {len(codes)} storefronts\n")
    print("| command | wall | peak memory | exit | output |")
    print("|---|---|---|---|---|")
    runs = [
        ("iap validate (plain)", [iap, "validate", catalog]),
        ("iap validate --price-points", [iap, "validate", catalog, "--price-points", price_points]),
        (f"iap asc ready ({len(codes)} App Store columns)", [iap, "asc", "ready", catalog, "--snapshot", big_snapshot, "--sources", sources]
         + storefront_args),
    ]
    for name, command in runs:
        run, wall, peak = timed(command)
        print(f"| {name} | {wall:.2f} s | {peak} MB | {run.returncode} | {len(run.stdout.splitlines())} lines |", flush=True)

    # 3. price plan.
    run, wall, peak = timed([iap, "price", "plan", "--base", "USA:4.99", "--price-points", price_points])
    print(f"\n`iap price plan --base USA:4.99` for {len(run.stdout.splitlines()) - 1} storefronts: {wall:.2f} s, {peak} MB, exit {run.returncode}")


if __name__ == "__main__":
    main()
