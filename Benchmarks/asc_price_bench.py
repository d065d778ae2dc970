#!/usr/bin/env python3
"""A pull with prices in one storefront from the fake App Store Connect with latency added to every
answer (issue 32): requests per product against the floor, wall time on 1 connection and on the
default, and iap's peak memory.

    python3 Benchmarks/asc_price_bench.py .build/release/iap [N ...] [--latency-ms 200] [--connections 1,4]

For each N (2000 and 10000 by default): a store of N products, 90% in-app purchases priced in USA
(their base territory) and 10% auto-renewable subscriptions in groups of 10, half of them with an
introductory offer in USA; each product with one localization. The fake server validates every
request and response against Apple's OpenAPI document and sleeps --latency-ms before each answer.
`iap asc pull --storefront USA` runs under /usr/bin/time once per connection count. The floor is the
pages of the lists plus one request per product; Apple's document makes one more unavoidable for a
subscription with introductory offers (docs/asc.md). Prints a Markdown table.

With --all-storefronts (issue 35), every product has a price in each of the App Store's 175
storefronts (an in-app purchase: USA manual, the others automatic) and the pull adds
`--all-storefronts`: its floor is the pages plus 2 requests per in-app purchase (its manual and its
automatic prices) and 1 per subscription, and the USA price comes with them. The table adds the
snapshot's size.
"""
import argparse, json, math, os, subprocess, sys, tempfile, time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# An issuer ID of the shape App Store Connect gives (iap refuses any other).
ISSUER = "69a6de70-03db-47e3-e053-5b8c7c11a4d1"


def storefronts(iap):
    listed = json.loads(subprocess.run([iap, "storefronts", "--format", "json"], capture_output=True, text=True, check=True).stdout)
    return [(s["alpha-3"], s["currency"]) for s in listed]


def key_files(work):
    """A P-256 key made for the run: its PEM text (for iap) and its public key's file (for the fake)."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    public = os.path.join(work, "public.pem")
    with open(public, "wb") as f:
        f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return pem, public


def everywhere(base, currency_of):
    """A price in every storefront: the base entry (USA) and one automatic entry each elsewhere."""
    entries = [base]
    for territory, currency in currency_of:
        if territory != base["territory"]:
            entry = {"territory": territory, "currency": currency, "customerPrice": base["customerPrice"], "proceeds": base["proceeds"]}
            if "manual" in base:
                entry["manual"] = False
            entries.append(entry)
    return entries


def store(count, all_storefronts=None):
    app = "6450000000"
    subs = count // 10
    purchases = [{"id": str(7_000_000_000 + i), "app": app, "productId": f"com.bench.app.item{i:05d}", "name": f"Item {i}",
                  "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED", "familySharable": False,
                  "localizations": [{"id": str(8_000_000_000 + i), "locale": "en-US", "name": f"Item {i}", "description": "A thing",
                                     "state": "APPROVED"}],
                  "prices": [{"territory": "USA", "currency": "USD", "customerPrice": "0.99", "proceeds": "0.70", "manual": True}]}
                 for i in range(count - subs)]
    groups = []
    for g in range(math.ceil(subs / 10)):
        members = []
        for s in range(min(10, subs - g * 10)):
            n = g * 10 + s
            item = {"id": str(9_000_000_000 + n), "productId": f"com.bench.app.plus{g}.tier{s}", "name": f"Tier {n}", "state": "APPROVED",
                    "subscriptionPeriod": "ONE_MONTH", "groupLevel": s + 1, "familySharable": False,
                    "localizations": [{"id": str(8_500_000_000 + n), "locale": "en-US", "name": f"Tier {n}", "state": "APPROVED"}],
                    "prices": [{"territory": "USA", "currency": "USD", "customerPrice": "4.99", "proceeds": "3.49"}]}
            if s % 2 == 0:
                item["introductoryOffers"] = [{"territory": "USA", "offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 1}]
            members.append(item)
        groups.append({"id": str(21_000_000 + g), "app": app, "referenceName": f"Plus {g}", "subscriptions": members})
    if all_storefronts:
        for p in purchases:
            p["prices"] = everywhere(p["prices"][0], all_storefronts)
        for g in groups:
            for s in g["subscriptions"]:
                s["prices"] = everywhere(s["prices"][0], all_storefronts)
    data = {"apps": [{"id": app, "bundleId": "com.bench.app", "name": "Bench"}], "inAppPurchases": purchases, "subscriptionGroups": groups}
    offers = sum(1 for g in groups for s in g["subscriptions"] if "introductoryOffers" in s)
    floor = 1 + math.ceil(len(purchases) / 200) + math.ceil(len(groups) / 200) + len(groups) + count
    if all_storefronts:
        floor += len(purchases)
    return data, floor, offers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("iap")
    parser.add_argument("counts", nargs="*", type=int, default=[2000, 10000])
    parser.add_argument("--latency-ms", type=int, default=200)
    parser.add_argument("--connections", default="1,4")
    parser.add_argument("--all-storefronts", action="store_true")
    args = parser.parse_args()
    iap = os.path.abspath(args.iap)
    every = storefronts(iap) if args.all_storefronts else None
    extra = ["--all-storefronts"] if args.all_storefronts else []
    work = tempfile.mkdtemp(prefix="iap-asc-price-bench-")
    pem, public = key_files(work)
    print(f"latency {args.latency_ms} ms per answer; `iap asc pull --storefront USA{' --all-storefronts' if every else ''}`")
    print()
    floor_words = "pages + 2 per in-app purchase + 1 per subscription" if every else "pages + 1 per product"
    print(f"| products | connections | requests | floor ({floor_words}) | requests per product | wall | iap CPU | iap peak | all valid | snapshot |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    snapshots = {}
    for count in args.counts:
        data, floor, offers = store(count, every)
        store_path = os.path.join(work, f"store-{count}.json")
        with open(store_path, "w") as f:
            json.dump(data, f)
        for connections in [int(c) for c in args.connections.split(",")]:
            log = os.path.join(work, f"requests-{count}-{connections}.jsonl")
            server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Fixtures/asc/fake_asc.py"), "--store", store_path,
                                       "--public-key", public, "--issuer", ISSUER, "--key-id", "KEYID12345", "--log", log,
                                       "--latency-ms", str(args.latency_ms), "--hour-limit", "1000000"],
                                      stdout=subprocess.PIPE, text=True)
            port = int(server.stdout.readline().split()[1])
            env = dict(os.environ, IAP_ASC_URL=f"http://127.0.0.1:{port}", IAP_ASC_ISSUER_ID=ISSUER, IAP_ASC_KEY_ID="KEYID12345",
                       IAP_ASC_PRIVATE_KEY=pem)
            snapshot = os.path.join(work, f"snapshot-{count}-{connections}.json")
            try:
                start = time.time()
                pulled = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", iap, "asc", "pull", "--app", "com.bench.app", "--snapshot",
                                         snapshot, "--storefront", "USA", "--connections", str(connections), "--timeout", "120"] + extra,
                                        env=env, capture_output=True, text=True)
                wall = time.time() - start
            finally:
                server.terminate()
                server.wait()
            if pulled.returncode != 0:
                sys.exit(f"pull failed: {pulled.stderr}")
            _, user, system, peak = pulled.stderr.strip().splitlines()[-1].split()
            with open(log) as f:
                requests = [json.loads(line) for line in f]
            valid = all(r.get("requestValid") and r.get("responseValid") for r in requests)
            with open(snapshot) as f:
                snapshots.setdefault(count, set()).add(f.read())
            size = os.path.getsize(snapshot)
            print(f"| {count} | {connections} | {len(requests)} | {floor} (+{offers} offers) | {len(requests) / count:.3f} | {wall:.1f} s "
                  f"| {float(user) + float(system):.2f} s | {int(peak) // 1024} MB | {valid} | {size / 1e6:.1f} MB |", flush=True)
    for count, texts in snapshots.items():
        print(f"\n{count} products: {'the same snapshot' if len(texts) == 1 else 'DIFFERENT snapshots'} on every connection count")


if __name__ == "__main__":
    main()
