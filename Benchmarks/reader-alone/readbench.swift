// The reader's paths, each timed in this process (best of REPEATS): `tree` is read(path:) (what
// `iap plist lint` and `plist print` use), `strings` readContent(path:) (the loader's), `kept-tree`
// readContent(path:).tree (how read made the tree before issue 33). Built by build.sh.
import PropertyList
import Foundation

let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write(Data("usage: readbench tree|kept-tree|strings FILE [REPEATS]\n".utf8))
    exit(64)
}
let mode = args[1], path = args[2]
guard let repeats = args.count > 3 ? Int(args[3]) : 1, repeats > 0 else {
    FileHandle.standardError.write(Data("readbench: REPEATS must be a positive number\n".utf8))
    exit(64)
}
var best = Double.infinity
var count = 0
var keep: Any? = nil
for _ in 0..<repeats {
    keep = nil
    let start = DispatchTime.now().uptimeNanoseconds
    do {
        switch mode {
        case "tree":
            let doc = try PlistReader().read(path: path)
            count = doc.root.value.arrayValue?.count ?? 0
            keep = doc
        case "kept-tree":
            let root = try PlistReader().readContent(path: path).tree
            count = root.value.arrayValue?.count ?? 0
            keep = root
        case "strings":
            let content = try PlistReader().readContent(path: path)
            switch content {
            case .strings(let l): count = l.count
            case .tree(let r): count = r.value.arrayValue?.count ?? 0
            }
            keep = content
        default:
            FileHandle.standardError.write(Data("readbench: unknown path '\(mode)' (tree, kept-tree or strings)\n".utf8))
            exit(64)
        }
    } catch {
        FileHandle.standardError.write(Data("readbench: \(path): \(error)\n".utf8))
        exit(1)
    }
    let t = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    best = min(best, t)
}
print(String(format: "%.6f", best), count, keep == nil ? 0 : 1)
