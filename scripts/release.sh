#!/usr/bin/env bash
# Builds what a release publishes, in release mode for the machine this runs on:
# iap.artifactbundle (SwiftPM's artifact-bundle layout holding `iap-gen`, the plugins' tool) and,
# on Linux, the `iap` command as a tarball that runs without the Swift toolchain.
#
#   scripts/release.sh [VERSION]      (VERSION defaults to `git describe --tags --always`)
#   scripts/release.sh --bundle-only [VERSION]      the artifact bundle only, not the iap tarball
#   scripts/release.sh --info-only BUNDLE VERSION   rewrites BUNDLE/info.json from its variant folders
#   scripts/release.sh --zip-only FOLDER NAME       zips FOLDER/NAME as a release does
#   scripts/release.sh --pack-only BINARY VERSION TRIPLE FOLDER
#                                                   packs BINARY as the iap tarball, with its .sha256
#
# Output, under .build/artifactbundle/:
#   iap.artifactbundle/info.json                       schemaVersion "1.0", artifact "iap-gen" (executable)
#   iap.artifactbundle/iap-gen-TRIPLE/bin/iap-gen      one variant per triple
#   iap.artifactbundle.zip, and its checksum           for `.binaryTarget(url:checksum:)`
# and, on Linux, under .build/dist/:
#   iap-VERSION-TRIPLE.tar.gz                          iap-VERSION-TRIPLE/bin/iap, static Swift runtime
#   iap-VERSION-TRIPLE.tar.gz.sha256                   `sha256sum` form, what action.yml and
#                                                      scripts/install-iap.sh are given to check it
#
# Variants already in .build/artifactbundle/iap.artifactbundle are kept, so running this on Linux
# and then on macOS (copying the folder between them) gives one bundle that serves both; info.json
# lists every iap-gen-TRIPLE folder present. On Linux the Swift runtime and Foundation are linked
# statically (the consumer's toolchain may differ); libxml2 and zlib stay the system's.
# docs/plugins.md says how a package uses the bundle.
set -euo pipefail
cd "$(dirname "$0")/.."

# info.json from the variant folders present (iap-gen-TRIPLE/bin/iap-gen), in name order.
write_info() {
    local bundle="$1" version="$2" variants="" dir name
    for dir in "$bundle"/iap-gen-*/; do
        name=$(basename "$dir")
        [ -x "$dir/bin/iap-gen" ] || continue
        [ -n "$variants" ] && variants+=","
        variants+="
                {
                    \"path\": \"$name/bin/iap-gen\",
                    \"supportedTriples\": [\"${name#iap-gen-}\"]
                }"
    done
    [ -n "$variants" ] || { echo "release: no iap-gen-TRIPLE/bin/iap-gen in $bundle" >&2; return 1; }
    cat > "$bundle/info.json" <<JSON
{
    "schemaVersion": "1.0",
    "artifacts": {
        "iap-gen": {
            "version": "$version",
            "type": "executable",
            "variants": [$variants
            ]
        }
    }
}
JSON
}

# FOLDER/NAME.zip of FOLDER/NAME, the same bytes from the same files: entries in name order,
# every time the commit's (SOURCE_DATE_EPOCH when set) in UTC, no owner or extra attributes.
zip_reproducibly() {
    local folder="$1" name="$2" epoch
    epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}"
    # A zip's timestamps start in 1980.
    [ "$epoch" -ge 315532800 ] || epoch=315532800
    rm -f "$folder/$name.zip"
    (
        cd "$folder"
        find "$name" -exec touch -h -d "@$epoch" {} +
        find "$name" -print | LC_ALL=C sort | TZ=UTC0 zip -q -X -D -@ "$name.zip"
    )
}

# FOLDER/iap-VERSION-TRIPLE.tar.gz holding iap-VERSION-TRIPLE/bin/iap (BINARY), and its .sha256
# beside it. The same bytes from the same binary: entries in name order, owner 0, every time the
# commit's (SOURCE_DATE_EPOCH when set), gzip without a name or time.
pack_binary() {
    local binary="$1" version="$2" triple="$3" folder="$4" name epoch stage
    name="iap-$version-$triple"
    epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}"
    stage=$(mktemp -d)
    mkdir -p "$stage/$name/bin" "$folder"
    cp "$binary" "$stage/$name/bin/iap"
    chmod 755 "$stage/$name/bin/iap"
    (
        cd "$stage"
        find "$name" -print0 | LC_ALL=C sort -z \
            | tar --null --no-recursion -T - --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --mode=u+rwX,go+rX,go-w -cf - \
            | gzip -n -9
    ) > "$folder/$name.tar.gz"
    rm -rf "$stage"
    (cd "$folder" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
    echo "release: $folder/$name.tar.gz (sha256 $(cut -d' ' -f1 "$folder/$name.tar.gz.sha256"))"
}

# `release.sh --pack-only BINARY VERSION TRIPLE FOLDER` packs BINARY as a release does (the tests use it).
if [ "${1:-}" = "--pack-only" ]; then
    pack_binary "$2" "$3" "$4" "$5"
    exit 0
fi
bundle_only=""
if [ "${1:-}" = "--bundle-only" ]; then
    bundle_only=1
    shift
fi

# `release.sh --info-only BUNDLE VERSION` rewrites BUNDLE/info.json only (the tests use it).
if [ "${1:-}" = "--info-only" ]; then
    write_info "$2" "$3"
    exit 0
fi
# `release.sh --zip-only FOLDER NAME` zips FOLDER/NAME as a release does (the tests use it).
if [ "${1:-}" = "--zip-only" ]; then
    zip_reproducibly "$2" "$3"
    exit 0
fi

version="${1:-$(git describe --tags --always 2>/dev/null || echo 0.0.0)}"
out=.build/artifactbundle
bundle="$out/iap.artifactbundle"

# The triple SwiftPM matches a variant against: the host's, without an OS version.
triple=$(swift -print-target-info | sed -n 's/^ *"unversionedTriple": *"\([^"]*\)".*/\1/p' | head -1)
[ -n "$triple" ] || { echo "release: could not read the target triple from swift -print-target-info" >&2; exit 1; }

flags=(-c release --product iap-gen)
case "$triple" in
    *-linux-*) flags+=(--static-swift-stdlib) ;;
esac
echo "release: building iap-gen $version for $triple"
swift build "${flags[@]}"
binary="$(swift build "${flags[@]}" --show-bin-path)/iap-gen"

mkdir -p "$bundle/iap-gen-$triple/bin"
cp "$binary" "$bundle/iap-gen-$triple/bin/iap-gen"
# Stripped on Linux only: on macOS strip would have to re-sign the linker's ad-hoc signature.
case "$triple" in
    *-linux-*) strip "$bundle/iap-gen-$triple/bin/iap-gen" ;;
esac

write_info "$bundle" "$version"

# IAPCatalogPlugins: the two plugins on the prebuilt bundle instead of on iap-gen built from
# source, as a package of its own (a package cannot switch a dependency to a binary target that may
# not exist; docs/plugins.md). Its plugin sources are this repository's Plugins/, copied. With
# IAP_BUNDLE_URL set, its binaryTarget names the published zip and its checksum; without, the
# bundle beside it, for a local path dependency.
plugins="$out/IAPCatalogPlugins"
rm -rf "$plugins"
mkdir -p "$plugins/Plugins"
cp -RL Plugins/IAPGenPlugin Plugins/IAPGenCommand "$plugins/Plugins/"
ln -s ../iap.artifactbundle "$plugins/iap.artifactbundle"

rm -f "$out/iap.artifactbundle.zip"
if command -v zip >/dev/null 2>&1; then
    zip_reproducibly "$out" iap.artifactbundle
    checksum=$(swift package compute-checksum "$out/iap.artifactbundle.zip")
    echo "$checksum" > "$out/iap.artifactbundle.zip.checksum"
    echo "release: $out/iap.artifactbundle.zip (checksum $checksum)"
else
    echo "release: zip is not installed; the bundle folder is ready, the .zip is not"
fi
if [ -n "${IAP_BUNDLE_URL:-}" ]; then
    [ -n "${checksum:-}" ] || { echo "release: IAP_BUNDLE_URL needs the .zip (install zip)" >&2; exit 1; }
    binary_target=".binaryTarget(name: \"IAPGenBinary\", url: \"$IAP_BUNDLE_URL\", checksum: \"$checksum\")"
else
    binary_target=".binaryTarget(name: \"IAPGenBinary\", path: \"iap.artifactbundle\")"
fi
cat > "$plugins/Package.swift" <<SWIFT
// swift-tools-version:6.1
// Written by IAPCatalog's scripts/release.sh ($version): IAPCatalog's plugins on a prebuilt iap-gen.
import PackageDescription

let package = Package(
    name: "IAPCatalogPlugins",
    platforms: [.macOS(.v13)],
    products: [
        .plugin(name: "IAPGenPlugin", targets: ["IAPGenPlugin"]),
        .plugin(name: "IAPGenCommand", targets: ["IAPGenCommand"]),
    ],
    targets: [
        $binary_target,
        .plugin(name: "IAPGenPlugin", capability: .buildTool(), dependencies: ["IAPGenBinary"]),
        .plugin(
            name: "IAPGenCommand",
            capability: .command(
                intent: .custom(verb: "iap-gen", description: "Generate Swift product-ID constants from each target's catalog"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated ProductID.swift into targets")]),
            dependencies: ["IAPGenBinary"]),
    ]
)
SWIFT
echo "release: $bundle"
echo "release: $plugins (the plugins on the bundle)"

# The iap command for Linux, for action.yml and scripts/install-iap.sh: the Swift runtime and
# Foundation linked in (--static-swift-stdlib), so it runs without a Swift toolchain; it still
# loads the system's libxml2, zlib and libc, and libcurl with dlopen on its first App Store
# Connect request (docs/install.md). macOS builds from source (action.yml falls back to it).
case "$triple" in
    *-linux-*)
        if [ -z "$bundle_only" ]; then
            iap_flags=(-c release --product iap --static-swift-stdlib)
            echo "release: building iap $version for $triple"
            swift build "${iap_flags[@]}"
            stage=$(mktemp -d)
            cp "$(swift build "${iap_flags[@]}" --show-bin-path)/iap" "$stage/iap"
            strip "$stage/iap"
            # Refuse a binary that would need the toolchain's libraries at run time. (libicu may
            # appear: Debian's libxml2 links the system's ICU, which the toolchain does not ship.)
            if ldd "$stage/iap" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime'; then
                echo "release: iap still links the Swift runtime dynamically (above); not packed" >&2
                exit 1
            fi
            pack_binary "$stage/iap" "$version" "$triple" .build/dist
            rm -rf "$stage"
        fi
        ;;
esac
