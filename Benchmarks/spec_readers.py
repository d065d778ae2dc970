# Issue 32: the project-spec readers on hostile inputs, an old build against a new one in the
# same run. Writes each input into a folder of its own under OUT (default
# Benchmarks/inputs/specs), then, given binaries, runs `iap list FOLDER` with each and prints the
# wall and user time and the peak memory (GNU time) of the best of RUNS (one run when it takes
# over 10 s), and the ratio of the first binary's wall time to the last's:
#
#   python3 Benchmarks/spec_readers.py [--out OUT] [--runs N] [--timeout S] [OLD_IAP NEW_IAP]
#
# The inputs: an XcodeGen `include:` list of one short name repeated (0.2, 0.8 and 3.8 MB),
# 5,000 XcodeGen application targets against 10,000 product IDs, and a Tuist `Project.swift` of
# 100,000 `bundleId:` lines against 1 and 1,000 product IDs, an `.xcconfig` of 100,000 values of
# one name, and build settings whose references multiply (50 a value, 7 deep: 1 kB). Each folder
# also holds a product-ID list, so that its spec is read. `--only TEXT` runs the cases whose
# folder name holds TEXT.
import argparse
import os
import subprocess
import sys


def plist(ids):
    items = "".join(f"\t<string>{i}</string>\n" for i in ids)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
            f'<plist version="1.0">\n<array>\n{items}</array>\n</plist>\n')


def write(folder, name, text):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)


def include_list(folder, megabytes):
    """project.yml: `include:` naming one file over and over, until the spec is MEGABYTES."""
    head = "name: Gen\ntargets:\n  App:\n    type: application\n    settings:\n      base:\n" \
           "        PRODUCT_BUNDLE_IDENTIFIER: com.acme.app\ninclude:\n"
    line = "  - a\n"
    count = (int(megabytes * 1_000_000) - len(head)) // len(line)
    write(folder, "project.yml", head + line * count)
    # The included file includes itself and the spec again: a cycle, read once each.
    write(folder, "a", "include:\n  - a\n  - project.yml\n")
    write(folder, "IAP_ProductIDs.plist", plist(["com.acme.app.coins"]))
    return count


def targets_and_ids(folder, targets, ids):
    """project.yml with TARGETS application targets (each its own ID) and a list of IDS products."""
    lines = ["name: Many", "targets:"]
    for t in range(targets):
        lines += [f"  T{t}:", "    type: application", "    settings:", "      base:",
                  f"        PRODUCT_BUNDLE_IDENTIFIER: com.acme.t{t}"]
    write(folder, "project.yml", "\n".join(lines) + "\n")
    write(folder, "IAP_ProductIDs.plist", plist([f"com.acme.t{i % targets}.item{i}" for i in range(ids)]))


def tuist(folder, lines, ids):
    """Project.swift with LINES `bundleId:` lines (3.5 MB: a spec over 4 MB is not read), and IDS products."""
    body = "".join(f'    bundleId: "com.acme.app{i}",\n' for i in range(lines))
    write(folder, "Project.swift", "import ProjectDescription\nlet project = Project(name: \"Shop\", targets: [\n" + body + "])\n")
    write(folder, "IAP_ProductIDs.plist", plist([f"com.acme.app{i * 7}.coins" for i in range(ids)]))


def xcconfig_values(folder, count):
    """An .xcconfig that assigns COUNT different values to one name."""
    write(folder, "Many.xcconfig", "".join(f"ID = com.acme.app{i}\n" for i in range(count)))
    write(folder, "IAP_ProductIDs.plist", plist(["com.acme.app0.coins"]))


def nested_references(folder, fanout, depth):
    """A project whose bundle ID is $(A), A = $(B) FANOUT times, … DEPTH levels: FANOUT^DEPTH references."""
    names = [chr(ord("A") + i) for i in range(depth + 1)]
    lines = [f"{a} = " + f"$({b})" * fanout for a, b in zip(names, names[1:])] + [f"{names[-1]} = x"]
    write(folder, "Base.xcconfig", "\n".join(lines) + "\n")
    write(os.path.join(folder, "App.xcodeproj"), "project.pbxproj", """{
\tobjects = {
\t\tT1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L1; };
\t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
\t\tC1 = {isa = XCBuildConfiguration; name = Release; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = "com.acme.$(A)"; }; };
\t};
}
""")
    write(folder, "IAP_ProductIDs.plist", plist(["com.acme.coins"]))


def run(binary, folder, timeout):
    """(wall s, user s, peak KB, exit status) of `iap list FOLDER`; None past the timeout."""
    command = ["/usr/bin/time", "-f", "%e %U %M", binary, "list", folder]
    try:
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    wall, user, peak = done.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user), int(peak), done.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="Benchmarks/inputs/specs")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--only", default="")
    parser.add_argument("binaries", nargs="*")
    args = parser.parse_args()
    cases = []
    for mb in (0.2, 0.8, 3.8):
        folder = os.path.join(args.out, f"include-{mb}MB")
        n = include_list(folder, mb)
        cases.append((f"`include:` of one name {n:,} times ({mb} MB)", folder))
    folder = os.path.join(args.out, "targets-5000x10000")
    targets_and_ids(folder, 5000, 10000)
    cases.append(("5,000 XcodeGen targets × 10,000 product IDs", folder))
    for ids in (1, 1000):
        folder = os.path.join(args.out, f"tuist-100000x{ids}")
        tuist(folder, 100_000, ids)
        cases.append((f"Tuist: 100,000 `bundleId:` lines × {ids:,} product ID{'s' if ids > 1 else ''}", folder))
    folder = os.path.join(args.out, "xcconfig-100000")
    xcconfig_values(folder, 100_000)
    cases.append(("`.xcconfig`: 100,000 values of one name (2.3 MB)", folder))
    folder = os.path.join(args.out, "references-50x6")
    nested_references(folder, 50, 6)
    cases.append(("build settings: 50 references a value, 6 levels (1 kB)", folder))
    cases = [case for case in cases if args.only in case[1]]
    if not args.binaries:
        for name, folder in cases:
            print(f"{folder}: {name}")
        return
    print("| input | " + " | ".join(f"`{b}`: wall, user, peak" for b in args.binaries) + " | ratio (wall) |")
    print("|---|" + "---|" * len(args.binaries) + "---:|")
    for name, folder in cases:
        cells, best = [], []
        for binary in args.binaries:
            results = []
            for _ in range(args.runs):
                result = run(binary, folder, args.timeout)
                if result is None:
                    break
                results.append(result)
                # A run past 10 s is its own best: once is enough.
                if result[0] > 10:
                    break
            if not results:
                cells.append(f"> {args.timeout:.0f} s")
                best.append(args.timeout)
                continue
            wall, user, peak, status = min(results)
            cells.append(f"{wall:.2f} s, {user:.2f} s, {peak / 1024:.0f} MB" + ("" if status == 0 else f", exit {status}"))
            best.append(wall)
        ratio = f"{best[0] / best[-1]:,.0f}×" if len(best) > 1 and best[-1] > 0 else ""
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
