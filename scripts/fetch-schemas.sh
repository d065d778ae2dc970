#!/usr/bin/env bash
# Fetches the public schemas the tests read from ../shared/schemas, each pinned by commit and
# checked by its sha256, so that a machine without the project's ../shared (the public CI) runs
# the SARIF and fake App Store Connect tests instead of skipping them:
#   sarif-schema-2.1.0.json                      OASIS SARIF TC's schema (oasis-tcs/sarif-spec)
#   app-store-connect-openapi-4.4.1.json         Apple's OpenAPI document 4.4.1, as AvdLee/appstoreconnect-swift-sdk vendors it
#   app-store-connect-openapi-4.4.1-subset.json  cut from it by scripts/cut-openapi-subset.py
# A file already there with the right checksum is kept; a wrong checksum fails (exit 1), naming
# the file: nothing half-fetched is left behind.
#
#   scripts/fetch-schemas.sh [FOLDER]     (default: ../shared/schemas beside the package)
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-../shared/schemas}
mkdir -p "$dest"

sha256() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi; }

# Whether $dest/NAME is there with the pinned sha256 (said so).
present() {
    if [ -f "$dest/$1" ] && [ "$(sha256 "$dest/$1")" = "$2" ]; then echo "fetch-schemas: $dest/$1 is there"; return 0; fi
    return 1
}

# Moves $dest/.NAME.part to $dest/NAME when its sha256 is the pinned one; else removes it and fails,
# naming WHAT (the URL or the cut).
keep_checked() {
    local name=$1 sum=$2 what=$3 done=$4 got
    got=$(sha256 "$dest/.$name.part")
    if [ "$got" != "$sum" ]; then
        rm -f "$dest/.$name.part"
        echo "fetch-schemas: $what has sha256 $got, not the pinned $sum: not kept" >&2
        exit 1
    fi
    mv -f "$dest/.$name.part" "$dest/$name"
    echo "fetch-schemas: $dest/$name $done and checked"
}

# name, url, sha256
fetch() {
    local name=$1 url=$2 sum=$3
    present "$name" "$sum" && return
    rm -f "$dest/.$name.part"
    curl -fsSL --retry 3 -o "$dest/.$name.part" "$url" || { rm -f "$dest/.$name.part"; echo "fetch-schemas: cannot download $url" >&2; exit 1; }
    keep_checked "$name" "$sum" "$url" fetched
}

fetch sarif-schema-2.1.0.json \
    https://raw.githubusercontent.com/oasis-tcs/sarif-spec/a560296ca8c921f3bdb8d4a8db57ab83dae968a7/sarif-2.1/schema/sarif-schema-2.1.0.json \
    c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e
fetch app-store-connect-openapi-4.4.1.json \
    https://raw.githubusercontent.com/AvdLee/appstoreconnect-swift-sdk/651b56950c917d30d7aaa863baadd290f2e28cb7/Sources/OpenAPI/app_store_connect_api.json \
    b05495a067a5d2405c7c4fc9396697874acf1cd07f830a3baf93ba6e21d3af54

subset=app-store-connect-openapi-4.4.1-subset.json
subset_sum=225a3496c3367b7b67ae37d691e767ca3c758e2c8f4e71cb939513d7928c740a
if ! present "$subset" "$subset_sum"; then
    python3 scripts/cut-openapi-subset.py "$dest/app-store-connect-openapi-4.4.1.json" "$dest/.$subset.part"
    keep_checked "$subset" "$subset_sum" "the cut subset" cut
fi
