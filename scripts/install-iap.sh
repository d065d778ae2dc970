#!/usr/bin/env bash
# Installs a pinned release of iap into a folder: the prebuilt Linux binary, checked against its
# sha256 before it is unpacked (a wrong or missing checksum stops the install: nothing is
# installed), or, where no binary is published (macOS, Linux on ARM) or when asked, a release
# build from the release's tag. action.yml runs this; so does the GitLab set-up in docs/ci.md.
#
#   scripts/install-iap.sh
#
# Read from the environment (no arguments, so a CI file sets them as variables):
#   IAP_VERSION       the release, e.g. 0.3.0 (its tag is vVERSION)                     required
#   IAP_SHA256        the sha256 of iap-VERSION-TRIPLE.tar.gz, from the release's
#                     .sha256 file                                       required for the binary
#   IAP_HOME          where to install (default ~/.local/share/iap); the binary ends up
#                     in IAP_HOME/VERSION/bin/iap, a source build in IAP_HOME/src
#   IAP_FROM_SOURCE   true: build from source even where a binary is published
#   IAP_DOWNLOAD_URL  where releases are (default https://github.com/iapcatalog/iap/releases/download)
#   IAP_SOURCE_URL    the repository to build from (default https://github.com/iapcatalog/iap)
#
# On success the last line on stdout is the folder that holds `iap` (for PATH), and with
# GITHUB_PATH set that folder is also added to it. Exit 1: a checksum that does not match, a
# download or build that failed, or a missing setting; the message says which.
set -euo pipefail

fail() { echo "install-iap: error: $*" >&2; exit 1; }

version="${IAP_VERSION:-}"
[ -n "$version" ] || fail "IAP_VERSION is not set: name the release to install (e.g. IAP_VERSION=0.3.0)"
case "$version" in
    *[!A-Za-z0-9._+-]*) fail "IAP_VERSION '$version' is not a version (letters, digits, '.', '_', '+', '-')" ;;
esac
home="${IAP_HOME:-$HOME/.local/share/iap}"
download="${IAP_DOWNLOAD_URL:-https://github.com/iapcatalog/iap/releases/download}"
source_url="${IAP_SOURCE_URL:-https://github.com/iapcatalog/iap}"

# The triple release.sh names the tarball with; empty where no binary is published.
triple=""
if [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ]; then triple=x86_64-unknown-linux-gnu; fi

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
    else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

publish() {
    [ -x "$1/iap" ] || fail "$1/iap is not there after the install"
    "$1/iap" --version >&2 || fail "$1/iap does not run (above)"
    if [ -n "${GITHUB_PATH:-}" ]; then echo "$1" >> "$GITHUB_PATH"; fi
    echo "$1"
}

from_source="${IAP_FROM_SOURCE:-false}"
if [ -n "$triple" ] && [ "$from_source" != true ]; then
    expected="${IAP_SHA256:-}"
    case "$expected" in
        "") fail "IAP_SHA256 is not set: give the sha256 of iap-$version-$triple.tar.gz (the release's .sha256 file); nothing is installed unchecked" ;;
        *[!0-9a-fA-F]*) fail "IAP_SHA256 is not a sha256 (64 hexadecimal digits)" ;;
    esac
    [ "${#expected}" -eq 64 ] || fail "IAP_SHA256 is not a sha256 (64 hexadecimal digits)"
    expected=$(echo "$expected" | tr 'A-F' 'a-f')
    name="iap-$version-$triple"
    target="$home/$version"
    if [ -x "$target/bin/iap" ] && [ -f "$target/.sha256" ] && [ "$(cat "$target/.sha256")" = "$expected" ]; then
        echo "install-iap: iap $version is already in $target" >&2
        publish "$target/bin"
        exit 0
    fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    echo "install-iap: downloading $download/v$version/$name.tar.gz" >&2
    curl -fsSL --retry 3 -o "$work/$name.tar.gz" "$download/v$version/$name.tar.gz" \
        || fail "could not download $download/v$version/$name.tar.gz"
    actual=$(sha256_of "$work/$name.tar.gz")
    if [ "$actual" != "$expected" ]; then
        fail "$name.tar.gz has sha256 $actual, not the $expected given; nothing is installed (check IAP_SHA256 against the release's $name.tar.gz.sha256)"
    fi
    tar -xzf "$work/$name.tar.gz" -C "$work"
    [ -x "$work/$name/bin/iap" ] || fail "$name.tar.gz holds no $name/bin/iap"
    rm -rf "$target"
    mkdir -p "$target"
    mv "$work/$name/bin" "$target/bin"
    echo "$expected" > "$target/.sha256"
    publish "$target/bin"
    exit 0
fi

# From source: the release's tag, in release mode. A .build already in IAP_HOME/src (restored by
# action.yml's cache) makes this an incremental build.
command -v swift >/dev/null 2>&1 || fail "no binary is published for $(uname -s) $(uname -m) and swift is not installed to build one"
src="$home/src"
if [ -d "$src/.git" ] && [ "$(git -C "$src" describe --tags --exact-match 2>/dev/null || true)" = "v$version" ]; then
    echo "install-iap: building the v$version in $src" >&2
else
    # Keep a restored .build, replace the rest with the tag's files.
    if [ -d "$src/.build" ]; then mv "$src/.build" "$home/.build-restored"; fi
    rm -rf "$src"
    echo "install-iap: cloning v$version of $source_url" >&2
    git clone -q --depth 1 --branch "v$version" "$source_url" "$src" || fail "could not clone v$version of $source_url"
    if [ -d "$home/.build-restored" ]; then mv "$home/.build-restored" "$src/.build"; fi
fi
if [ "$(uname -s)" = Linux ] && ! pkg-config --exists libxml-2.0 zlib 2>/dev/null; then
    echo "install-iap: installing libxml2 and zlib development files" >&2
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q libxml2-dev zlib1g-dev pkg-config >&2 \
        || fail "could not install libxml2-dev zlib1g-dev pkg-config"
fi
swift build -c release --product iap --package-path "$src" >&2 || fail "the build of v$version failed (above)"
publish "$(swift build -c release --package-path "$src" --show-bin-path)"
