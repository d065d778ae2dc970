import Foundation

/// The names browsers and file managers give a second copy of a file, and the order reports are
/// read in: a report before its copies, so the copy is the one said to be the same report again
/// (`duplicate-report`), whatever order a folder lists them in.
///
/// The copies recognised, in the part of the name before its extension (`.txt`, `.tsv`, `.gz`,
/// `.txt.gz`, `.tsv.gz`):
/// - ` (1)`: Chrome, Edge and macOS; Chrome puts it before `.txt.gz`, older versions before `.gz`
///   (`S_D_….txt (1).gz`);
/// - `(1)`: Firefox;
/// - `-1`: Safari;
/// - ` copy`, ` copy 2`: the macOS Finder's Duplicate;
/// - ` - Copy`, ` - Copy (2)`: Windows Explorer;
/// - `Copy of `, `Copy (2) of ` before the name: older Windows.
///
/// A number is 1 to 3 digits, so a date (`sales-20261102.txt`) is never taken for one. A name
/// taken for a copy by mistake only changes which of two identical reports is named as the copy.
public enum BrowserCopy {
    /// The name of the file `name` is a copy of, and which copy it is (1 for ` (1)`, `-1`,
    /// ` copy`); nil when the name is no copy's.
    public static func original(of name: String) -> (name: String, copy: Int)? {
        var ext = ""
        for candidate in [".txt.gz", ".tsv.gz", ".txt", ".tsv", ".gz"] where ends(Substring(name), candidate) {
            ext = String(name.suffix(candidate.count))
            break
        }
        let stem = String(name.dropLast(ext.count))
        if let (base, copy) = suffixCopy(stem) { return (base + ext, copy) }
        if let (base, copy) = prefixCopy(stem) { return (base + ext, copy) }
        return nil
    }

    /// `paths` in the order to read them: by path with any copy suffix taken off its file name,
    /// the original before its copies (` (1)` before ` (2)`), then by the path itself. Duplicates are kept.
    public static func readingOrder(_ paths: [String]) -> [String] {
        let keyed = paths.map { path -> (key: String, copy: Int, path: String) in
            let folder = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            guard let original = original(of: name) else { return (path, 0, path) }
            return (folder.isEmpty ? original.name : (folder as NSString).appendingPathComponent(original.name), original.copy, path)
        }
        return keyed.sorted { a, b in
            if a.key != b.key { return a.key < b.key }
            if a.copy != b.copy { return a.copy < b.copy }
            return a.path < b.path
        }.map(\.path)
    }

    /// ` (N)`, `(N)`, `-N`, ` copy`, ` copy N`, ` - Copy`, ` - Copy (N)` at the end of `stem`,
    /// with what comes before it (a stem still ending in `.txt` when the copy came before `.gz`).
    private static func suffixCopy(_ stem: String) -> (String, Int)? {
        let text = Substring(stem)
        for marker in [" - copy", " copy"] where ends(text, marker) {
            return (String(text.dropLast(marker.count)), 1)
        }
        if text.hasSuffix(")"), let open = text.lastIndex(of: "("), let n = number(text[text.index(after: open)..<text.index(before: text.endIndex)]) {
            var base = text[..<open]
            if ends(base, " - copy ") { return (String(base.dropLast(" - copy ".count)), n) }
            if base.hasSuffix(" ") { base = base.dropLast() }
            return base.isEmpty ? nil : (String(base), n)
        }
        if let space = text.lastIndex(of: " "), ends(text[..<space], " copy"), let n = number(text[text.index(after: space)...]) {
            return (String(text[..<space].dropLast(" copy".count)), n)
        }
        if let dash = text.lastIndex(of: "-"), dash > text.startIndex, let n = number(text[text.index(after: dash)...]) {
            return (String(text[..<dash]), n)
        }
        return nil
    }

    /// `Copy of NAME` and `Copy (N) of NAME`.
    private static func prefixCopy(_ stem: String) -> (String, Int)? {
        let text = Substring(stem)
        if starts(text, "copy of "), text.count > 8 { return (String(text.dropFirst(8)), 1) }
        if starts(text, "copy ("), let close = text.firstIndex(of: ")"), let n = number(text.dropFirst(6)[..<close]) {
            let rest = text[text.index(after: close)...]
            if starts(rest, " of "), rest.count > 4 { return (String(rest.dropFirst(4)), n) }
        }
        return nil
    }

    /// Whether `text` ends with `marker` (ASCII, lowercase), in any case.
    private static func ends(_ text: Substring, _ marker: String) -> Bool {
        text.count >= marker.count && text.suffix(marker.count).lowercased() == marker
    }

    private static func starts(_ text: Substring, _ marker: String) -> Bool {
        text.count >= marker.count && text.prefix(marker.count).lowercased() == marker
    }

    private static func number(_ text: Substring) -> Int? {
        guard (1...3).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
