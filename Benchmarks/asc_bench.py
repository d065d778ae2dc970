#!/usr/bin/env python3
"""Pull and diff of a 10,000-product app from the fake App Store Connect (Tests/Fixtures/asc).

    python3 Benchmarks/asc_bench.py .build/release/iap [N]

Makes a store of N in-app purchases (one localization each) and 10 subscriptions in one group,
starts the fake server (which validates every request and response against Apple's OpenAPI
document), runs `iap asc pull` under /usr/bin/time, counts the requests it made against the fewest
the pagination allows, then runs `iap asc diff` offline on a catalog of the same IDs. Prints one
Markdown table row per step. The server's own validation time is part of the pull's wall time;
`iap`'s CPU time is its own (user + sys of the iap process).
"""
import json, math, os, subprocess, sys, tempfile, time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# An issuer ID of the shape App Store Connect gives (iap refuses any other).
ISSUER = "69a6de70-03db-47e3-e053-5b8c7c11a4d1"


def main():
    iap = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    work = tempfile.mkdtemp(prefix="iap-asc-bench-")
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    public = os.path.join(work, "public.pem")
    with open(public, "wb") as f:
        f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    app = "6450000000"
    purchases = [{"id": str(7_000_000_000 + i), "app": app, "productId": f"com.bench.app.item{i:05d}", "name": f"Item {i}",
                  "inAppPurchaseType": "CONSUMABLE" if i % 2 else "NON_CONSUMABLE", "state": "APPROVED", "familySharable": False,
                  "localizations": [{"id": str(8_000_000_000 + i), "locale": "en-US", "name": f"Item {i}", "description": "A thing",
                                     "state": "APPROVED"}]} for i in range(count)]
    subscriptions = [{"id": str(9_000_000_000 + i), "productId": f"com.bench.app.plus.tier{i}", "name": f"Tier {i}", "state": "APPROVED",
                      "subscriptionPeriod": "ONE_MONTH", "groupLevel": i + 1, "familySharable": False, "localizations": []} for i in range(10)]
    store = {"apps": [{"id": app, "bundleId": "com.bench.app", "name": "Bench"}], "inAppPurchases": purchases,
             "subscriptionGroups": [{"id": "21000001", "app": app, "referenceName": "Plus", "subscriptions": subscriptions}]}
    store_path = os.path.join(work, "store.json")
    with open(store_path, "w") as f:
        json.dump(store, f)
    log = os.path.join(work, "requests.jsonl")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Fixtures/asc/fake_asc.py"), "--store", store_path,
                               "--public-key", public, "--issuer", ISSUER, "--key-id", "KEYID12345", "--log", log],
                              stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().split()[1])
    env = dict(os.environ, IAP_ASC_URL=f"http://127.0.0.1:{port}", IAP_ASC_ISSUER_ID=ISSUER, IAP_ASC_KEY_ID="KEYID12345",
               IAP_ASC_PRIVATE_KEY=pem)
    snapshot = os.path.join(work, "snapshot.json")
    try:
        start = time.time()
        pulled = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", iap, "asc", "pull", "--app", "com.bench.app", "--snapshot", snapshot,
                                 "--timeout", "120"], env=env, capture_output=True, text=True)
        wall = time.time() - start
        if pulled.returncode != 0:
            sys.exit(f"pull failed: {pulled.stderr}")
        elapsed, user, system, peak = pulled.stderr.strip().splitlines()[-1].split()
        with open(log) as f:
            requests = [json.loads(line) for line in f]
        fewest = 1 + math.ceil(count / 200) + 1 + 1
        valid = all(r.get("requestValid") and r.get("responseValid") for r in requests)
        print("| step | products | wall | iap CPU | iap peak | requests (fewest possible) | all valid |")
        print("|---|---|---|---|---|---|---|")
        print(f"| pull from the fake server | {count + 10} | {wall:.2f} s | {float(user) + float(system):.2f} s | {int(peak) // 1024} MB "
              f"| {len(requests)} ({fewest}) | {valid} |")
        ids = os.path.join(work, "catalog", "IAP_ProductIDs.plist")
        os.makedirs(os.path.dirname(ids))
        with open(ids, "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n')
            for p in purchases:
                f.write(f"\t<string>{p['productId']}</string>\n")
            for s in subscriptions:
                f.write(f"\t<string>{s['productId']}</string>\n")
            f.write("</array>\n</plist>\n")
        diffed = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", iap, "asc", "diff", "--snapshot", snapshot, os.path.dirname(ids),
                                 "--bundle-id", "com.bench.app"], capture_output=True, text=True)
        elapsed, user, system, peak = diffed.stderr.strip().splitlines()[-1].split()
        print(f"| diff from the snapshot, offline | {count + 10} | {float(elapsed):.2f} s | {float(user) + float(system):.2f} s | "
              f"{int(peak) // 1024} MB | 0 | exit {diffed.returncode} |")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
