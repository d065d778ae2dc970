#!/usr/bin/env bash
# Builds the libFuzzer targets and runs them.
#
#   scripts/fuzz.sh                 build, then run every target for 600 s each
#   scripts/fuzz.sh plist 60        run one target for 60 s
#   scripts/fuzz.sh --build         build only
#
# Targets (Fuzz/FuzzEntries.swift): plist, storekit, shapes, objc, swift, price, config, sales,
# gencheck (gen --check's comparison and diff), baseline, asc (App Store Connect: a snapshot file,
# and every answer of a pull), ascanswers (a sequence of App Store Connect answers, statuses and
# rate-limit headers: a pull with prices, its resume, a report download), pricepoints (a price-points
# file and a plan made from it, and a multipliers CSV), plan (`iap asc apply`'s plan file: read,
# written and read back, its steps judged against two apps and applied through a scripted App Store
# Connect).
# SwiftPM cannot link a -sanitize=fuzzer executable, so the project's modules are compiled here
# with swiftc, instrumented (-sanitize=fuzzer,address), and linked with the release build's
# objects of the packages they use (Yams, Stencil, PathKit, swift-syntax, swift-crypto), which are not
# instrumented. Seeds come from catalogs/, Tests/Fixtures and ../shared/corpus when present.
# A crash or hang is written to .build/fuzz/findings/TARGET/; copy it to
# Tests/Fixtures/FuzzFindings/TARGET/ so that `swift test` replays it (FuzzReplayTests).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/.build/fuzz
targets=(plist storekit shapes objc swift price config sales gencheck baseline asc ascanswers pricepoints plan)
seconds=${2:-600}
# Tight limits, so that a memory or time bomb is a finding, not a slow input: a fuzzer allowed
# 3 GB and 20 s per input hides them (issue 22).
rss_limit_mb=${IAP_FUZZ_RSS_MB:-512}
timeout_s=${IAP_FUZZ_TIMEOUT:-5}

build() {
    swift build -c release --product iap >/dev/null
    local rel
    rel=$(swift build -c release --show-bin-path)
    mkdir -p "$out/modules" "$out/objects"
    local common=(-parse-as-library -wmo -O -sanitize=fuzzer,address -enable-testing -package-name iap
        -I "$out/modules" -I "$rel/Modules"
        -Xcc -fmodule-map-file="$root/Sources/CLibXML2/module.modulemap"
        -Xcc -fmodule-map-file="$root/Sources/CZlib/module.modulemap"
        -Xcc -fmodule-map-file="$root/.build/checkouts/Yams/Sources/CYaml/include/module.modulemap"
        -Xcc -fmodule-map-file="$root/.build/checkouts/swift-syntax/Sources/_SwiftSyntaxCShims/include/module.modulemap"
        -Xcc -fmodule-map-file="$rel/CCurlShim.build/module.modulemap"
        $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g'))
    # The project's modules, in dependency order, each instrumented.
    for module in Support Diagnostics PropertyList PriceFormatting IAPCatalog ProductNaming ReportRendering CodeGeneration CatalogTool SourceLint SalesReports AppStoreConnect CatalogJoins IAPTool; do
        local sources=()
        while IFS= read -r f; do sources+=("$f"); done < <(find "Sources/$module" -name '*.swift' | sort)
        if [[ ! -f $out/objects/$module.o ]] || [[ -n $(find "Sources/$module" -name '*.swift' -newer "$out/objects/$module.o") ]]; then
            echo "fuzz: compiling $module" >&2
            swiftc "${common[@]}" -module-name "$module" -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
                -c -o "$out/objects/$module.o" "${sources[@]}"
        fi
    done
    # The packages' objects from the release build, minus executables and plugin servers.
    local deps=()
    for dir in "$rel"/{Yams,CYaml,Stencil,PathKit,SwiftSyntax,SwiftParser,SwiftDiagnostics,SwiftBasicFormat,SwiftParserDiagnostics,_SwiftSyntaxCShims,Crypto,CCryptoBoringSSL,CCryptoBoringSSLShims,CryptoBoringWrapper,SwiftASN1,CCurlShim}.build; do
        [[ -d $dir ]] || continue
        while IFS= read -r f; do deps+=("$f"); done < <(find "$dir" -name '*.o' | sort)
    done
    echo "fuzz: linking iap-fuzz" >&2
    # gold warns once per sanitizer helper symbol ("Cannot export local symbol"): harmless.
    if ! swiftc "${common[@]}" -module-name IAPFuzz Fuzz/FuzzEntries.swift Fuzz/Main.swift \
        "$out"/objects/*.o "${deps[@]}" -lxml2 -lz -o "$out/iap-fuzz" 2>"$out/link.log"; then
        grep -v 'Cannot export local symbol' "$out/link.log" >&2
        exit 1
    fi
}

seeds() {
    local target=$1 dir=$out/seeds/$target
    rm -rf "$dir" && mkdir -p "$dir"
    local corpus=$root/../shared/corpus
    case $target in
        plist|shapes) find catalogs Tests/Fixtures "$corpus" -name '*.plist' 2>/dev/null ;;
        storekit) find catalogs Tests/Fixtures "$corpus" -name '*.storekit' 2>/dev/null ;;
        objc) find Tests/Fixtures "$corpus" Examples \( -name '*.m' -o -name '*.h' \) 2>/dev/null ;;
        swift) { find Tests/Fixtures "$corpus" Examples -name '*.swift'; find Sources/SourceLint Tests/SourceLintTests -name '*.swift'; } 2>/dev/null ;;
        config) find . -maxdepth 4 -name 'iap*.yml' -not -path './.build/*' 2>/dev/null ;;
        sales) find Tests/Fixtures/Sales -type f 2>/dev/null ;;
        gencheck|baseline) ;;
        asc) find Examples/AppStoreConnect Tests/Fixtures/asc -name '*.json' 2>/dev/null ;;
        ascanswers) ;;  # its seeds are Tests/Fixtures/FuzzFindings/ascanswers (a whole pull, an hour spent, hostile values)
        price|plan) ;;
    esac | cat - <(find "Tests/Fixtures/FuzzFindings/$target" -type f 2>/dev/null) | while IFS= read -r f; do [[ -f $f && $(stat -c %s "$f") -lt 1000000 ]] && cp "$f" "$dir/$(echo "$f" | tr '/' '_')"; done
    if [[ $target == gencheck ]]; then
        # The file on disk, a NUL, then what generation writes: equal, one line changed, all changed.
        local gen="enum ProductID {\n    static let coins = \"com.acme.app.coins\"\n}\n"
        printf "$gen\0$gen" > "$dir/equal"
        printf "$gen\0${gen/coins\"/gems\"}" > "$dir/one-line"
        printf 'a\nb\nc\n\0x\ny\nz\n' > "$dir/all-lines"
    fi
    if [[ $target == baseline ]]; then
        printf '{"findings": [{"count": 2, "path": "Sources/A.swift", "rule": "hardcoded-price", "subject": "$0.99"}], "version": 1}' > "$dir/one"
        printf '{"findings": [{"count": 9223372036854775807, "path": "a", "rule": "r", "subject": "s"}, {"count": 9223372036854775807, "path": "a", "rule": "r", "subject": "s"}], "version": 1}' > "$dir/overflow"
    fi
    if [[ $target == price ]]; then
        for p in 0.99 1 -1 1234.5678 99999999999999999999999999999999999999 0.000001 1e5 1,99 "+1" ".5" "5." ""; do
            printf '%s' "$p" > "$dir/$(printf '%s' "$p" | md5sum | cut -c1-8)"
        done
    fi
    if [[ $target == plan ]]; then
        # Plans as `iap asc plan` writes them, offline: the example shop on an empty app (a group,
        # products, localizations and prices created), the shop against its snapshot (updates, a
        # blocked change), RazeFaces against its own (a removal not done, prices not pulled), and a
        # shop with prices in three territories, an availability and an introductory offer against
        # an app whose subscription price moved.
        local iap=$root/.build/release/iap work=$out/seeds/plan-inputs
        [[ -x $iap ]] || swift build -c release --product iap >/dev/null
        rm -rf "$work" && mkdir -p "$work/Shop"
        printf '{"app":{"bundleId":"com.acme.shop","id":"6470000001","name":"Shop"},"format":"iap-asc-snapshot","inAppPurchases":[],"subscriptionGroups":[],"version":1}\n' > "$work/empty.json"
        sed 's/"2.99 USD"/"3.99 USD"/; s/"name" : "Club Monthly"/"name" : "Club"/' Examples/AppStoreConnect/ShopApp.snapshot.json > "$work/moved.json"
        cat > "$work/Shop/Metadata.plist" <<'PLIST'
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>IAPCatalogMetadata</key><integer>1</integer>
	<key>bundleID</key><string>com.acme.shop</string>
	<key>products</key>
	<dict>
		<key>com.acme.shop.gems</key>
		<dict>
			<key>kind</key><string>consumable</string>
			<key>referenceName</key><string>Gems</string>
			<key>price</key><string>0.99</string>
			<key>currency</key><string>USD</string>
			<key>prices</key><dict><key>GBR</key><string>0.89</string><key>JPN</key><string>160</string></dict>
			<key>reviewNote</key><string>Buy from the shop tab.</string>
			<key>availability</key>
			<dict><key>territories</key><array><string>USA</string><string>GBR</string></array><key>newTerritories</key><true/></dict>
			<key>localizations</key>
			<dict><key>en-US</key><dict><key>displayName</key><string>Gems</string><key>description</key><string>A bag of gems</string></dict></dict>
		</dict>
		<key>com.acme.shop.club.monthly</key>
		<dict>
			<key>kind</key><string>auto-renewable</string>
			<key>referenceName</key><string>Club Monthly</string>
			<key>subscriptionGroup</key><string>Club</string>
			<key>groupLevel</key><integer>1</integer>
			<key>subscriptionPeriod</key><string>P1M</string>
			<key>price</key><string>2.99</string>
			<key>currency</key><string>USD</string>
			<key>introductoryOffer</key>
			<dict><key>paymentMode</key><string>pay-as-you-go</string><key>period</key><string>P1M</string><key>periods</key><integer>3</integer><key>price</key><string>0.99</string></dict>
			<key>localizations</key>
			<dict><key>en-US</key><dict><key>displayName</key><string>Shop Club</string><key>description</key><string>New items every month</string></dict></dict>
		</dict>
	</dict>
</dict>
</plist>
PLIST
        # A plan with a blocked change exits 1 and is written all the same.
        "$iap" asc plan --snapshot "$work/empty.json" Examples/ShopApp/Store --plan "$dir/shop-on-empty-app.json" >/dev/null 2>&1 || true
        "$iap" asc plan --snapshot Examples/AppStoreConnect/ShopApp.snapshot.json Examples/ShopApp/Store --plan "$dir/shop.json" >/dev/null 2>&1 || true
        "$iap" asc plan --snapshot Examples/AppStoreConnect/RazeFaces.snapshot.json catalogs/RazeFaces --plan "$dir/razefaces.json" >/dev/null 2>&1 || true
        "$iap" asc plan --snapshot "$work/moved.json" "$work/Shop" --plan "$dir/prices-moved.json" >/dev/null 2>&1 || true
    fi
    if [[ $target == config ]]; then
        printf 'bundle-id: com.example.app\ncatalogs: [catalogs]\nrules:\n  similar-ids: off\n' > "$dir/basic.yml"
        cat > "$dir/full.yml" <<'YML'
info-plist: App/Info.plist
catalogs:
  - catalogs/FakeGame
  - ${HOME}/shared
retired: [com.example.old]
required-locales: [en-US, de-DE]
rules:
  display-name-too-long: { severity: error, limit: 30 }
  high-refund-rate: { limit: 5 }
  similar-ids: warning
lint:
  paths: [Sources]
  exclude: ["**/Generated/**"]
  include-tests: false
  catalog: catalogs/FakeGame
generate:
  - output: Sources/ProductID.swift
    catalog: catalogs/FakeGame
    style: enum
    type-name: ProductID
    access: public
format: sarif
reports: [junit:out/junit.xml, markdown]
baseline: .iap-baseline.json
strict: true
fail-on-fixed-baseline: false
YML
    fi
    ls "$dir" | wc -l
}

run() {
    local target=$1
    local work=$out/corpus/$target findings=$out/findings/$target
    mkdir -p "$work" "$findings"
    local n
    n=$(seeds "$target")
    echo "fuzz: $target for ${seconds}s from $n seeds" >&2
    # ASan keeps freed memory in a quarantine, 256 MB by default, which counts against the RSS
    # limit: a run of the storekit seeds reached 519 MB with 30 MB live. 32 MB still catches
    # uses shortly after a free.
    IAP_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=32 "$out/iap-fuzz" "$work" "$out/seeds/$target" \
        -max_total_time="$seconds" -rss_limit_mb="$rss_limit_mb" -malloc_limit_mb="$rss_limit_mb" -timeout="$timeout_s" -max_len=200000 \
        -artifact_prefix="$findings/" -print_final_stats=1 2>&1 | tee "$out/$target.log" | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==|SUMMARY|artifact)' || true
}

case ${1:-all} in
    --build) build ;;
    all) build; for t in "${targets[@]}"; do run "$t"; done ;;
    *) [[ " ${targets[*]} " == *" $1 "* ]] || { echo "unknown target '$1'; one of: ${targets[*]}" >&2; exit 64; }
       [[ -x $out/iap-fuzz ]] || build
       run "$1" ;;
esac
