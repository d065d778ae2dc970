# The one-off script a team might write instead of iap: parse the plist, count duplicate IDs.
# iap-bench runs it as the peer for `iap validate` on large ID lists (memory and time).
import plistlib
import sys
from collections import Counter

with open(sys.argv[1], "rb") as f:
    root = plistlib.load(f)
ids = root if isinstance(root, list) else []
ids = [i if isinstance(i, str) else i.get("productId", "") for i in ids]
repeated = [i for i, n in Counter(ids).items() if n > 1]
print(f"{len(ids)} IDs, {len(repeated)} repeated")
