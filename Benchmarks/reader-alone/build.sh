#!/bin/sh
# The plist reader built alone, with the release build's optimisation, and two programs over it:
# `readbench` (the reader's three paths, for callgrind and wall-clock) and `dump` (every tree,
# position and error of a set of files, to diff two builds). The whole package's release build
# takes far longer on a shared 2-core machine.
#
#   Benchmarks/reader-alone/build.sh OUT [SOURCE-ROOT]    # SOURCE-ROOT: a checkout (default: this one)
#   OUT/readbench tree|kept-tree|strings FILE [REPEATS]   # prints "<best seconds> <items> 1"
#   OUT/dump FILE-OR-FOLDER...                            # read and readContent at two chunk sizes
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$1
src=${2:-$here/../..}
[ -n "$out" ] || { echo "usage: build.sh OUT [SOURCE-ROOT]" >&2; exit 64; }
mkdir -p "$out"
F="-O -wmo -parse-as-library"
X="-I $src/Sources/CLibXML2 -Xcc -I/usr/include/libxml2"
swiftc $F -emit-module -emit-library -static -module-name Support -o "$out/libSupport.a" \
    -emit-module-path "$out/Support.swiftmodule" $(find "$src/Sources/Support" -name '*.swift')
swiftc $F -emit-module -emit-library -static -module-name Diagnostics -I "$out" -o "$out/libDiagnostics.a" \
    -emit-module-path "$out/Diagnostics.swiftmodule" $(find "$src/Sources/Diagnostics" -name '*.swift')
swiftc $F -emit-module -emit-library -static -module-name PropertyList -I "$out" $X -o "$out/libPropertyList.a" \
    -emit-module-path "$out/PropertyList.swiftmodule" $(find "$src/Sources/PropertyList" -name '*.swift')
for program in readbench dump; do
    swiftc -O -I "$out" $X "$here/$program.swift" -L "$out" -lPropertyList -lDiagnostics -lSupport -lxml2 -o "$out/$program"
done
