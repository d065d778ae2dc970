import Foundation
import Support

/// What an `--exclude` (or `lint.exclude`) pattern leaves out, as `.gitignore` reads a name: a
/// pattern is matched (`fnmatch`) against the whole path, against the file's name, and against
/// each folder on the way and that folder's name, so `--exclude Pods`, `--exclude Vendor` and
/// `--exclude '*.framework'` leave out that folder wherever it sits, with all it holds. A pattern
/// with a `/` and no wildcard (`App/Vendor`) also matches that run of folders at any depth, so it
/// holds whatever folder `iap.yml` is read from. `./` is ignored on both sides.
enum ExcludePattern {
    static func matches(_ given: String, _ path: String) -> Bool {
        let pattern = WalkPolicy.normalized(given)
        let path = WalkPolicy.normalized(path)
        if fnmatch(pattern, path, 0) == 0 { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let literal = !pattern.contains { "*?[".contains($0) }
        let patternParts = pattern.split(separator: "/").map(String.init)
        for (index, name) in parts.enumerated() {
            if fnmatch(pattern, name, 0) == 0 { return true }
            // The folder (or file) at this depth, as a path from the top.
            if index < parts.count - 1, fnmatch(pattern, (path.hasPrefix("/") ? "/" : "") + parts[...index].joined(separator: "/"), 0) == 0 {
                return true
            }
            if literal, patternParts.count > 1, index + patternParts.count <= parts.count,
               Array(parts[index..<(index + patternParts.count)]) == patternParts {
                return true
            }
        }
        return false
    }
}
