import Foundation

/// Writes the benchmark catalogs: arrays of ID strings and arrays of product dicts with
/// metadata (about 800 bytes each, so the 100k-dict file is about 80 MB).
struct Generator {
    let folder: String
    let full: Bool

    static let sizes = [(1_000, "1k"), (10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")]
    static let categories = ["coins", "gems", "pack", "pass"]

    static func id(_ n: Int) -> String {
        "com.bench.app.\(categories[n % 4]).item" + String(repeating: "0", count: max(0, 7 - String(n).count)) + String(n)
    }

    var files: [(name: String, kind: String, count: Int)] {
        var list: [(String, String, Int)] = []
        for (n, label) in Self.sizes { list.append(("ids-\(label).plist", "ids", n)) }
        for (n, label) in Self.sizes where n < 1_000_000 || full { list.append(("dicts-\(label).plist", "dicts", n)) }
        return list
    }

    /// The worst case for similar-ids: a million IDs that differ in letters, not digits, so no
    /// two share a skeleton. Not part of the read table.
    static let lettersFile = "letters-1M.plist"

    static func letterID(_ n: Int) -> String {
        var m = n &* 7919
        var word = ""
        for _ in 0..<6 {
            word.unicodeScalars.append(Unicode.Scalar(UInt8(0x61 + m % 26)))
            m /= 26
        }
        return "com.bench.app." + word
    }

    /// A million IDs that each draw the same finding: `com.example.` is a placeholder prefix.
    static let placeholderFile = "placeholder-1M.plist"

    func generateAll() {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in files {
            let path = folder + "/" + file.name
            if FileManager.default.fileExists(atPath: path) { continue }
            FileHandle.standardError.write(Data("generating \(path)\n".utf8))
            write(path: path, kind: file.kind, count: file.count)
        }
        for (name, kind) in [(Self.lettersFile, "letters"), (Self.placeholderFile, "placeholder")] {
            let path = folder + "/" + name
            if FileManager.default.fileExists(atPath: path) { continue }
            FileHandle.standardError.write(Data("generating \(path)\n".utf8))
            write(path: path, kind: kind, count: 1_000_000)
        }
    }

    private func write(path: String, kind: String, count: Int) {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { fail("cannot create \(path)") }
        guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
        defer { try? handle.close() }
        var buffer = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <array>

        """
        for n in 0..<count {
            switch kind {
            case "ids": buffer += "\t<string>\(Self.id(n))</string>\n"
            case "letters": buffer += "\t<string>\(Self.letterID(n))</string>\n"
            case "placeholder": buffer += "\t<string>com.example" + Self.id(n).dropFirst("com.bench.app".count) + "</string>\n"
            default: buffer += dict(n)
            }
            if buffer.utf8.count > 1 << 20 {
                handle.write(Data(buffer.utf8))
                buffer = ""
            }
        }
        buffer += "</array>\n</plist>\n"
        handle.write(Data(buffer.utf8))
    }

    private func dict(_ n: Int) -> String {
        let type = ["Consumable", "Consumable", "Non-Consumable", "Non-Consumable"][n % 4]
        var s = "\t<dict>\n\t\t<key>productId</key>\n\t\t<string>\(Self.id(n))</string>\n"
        s += "\t\t<key>Name</key>\n\t\t<string>Item \(n)</string>\n"
        s += "\t\t<key>Type</key>\n\t\t<string>\(type)</string>\n"
        s += "\t\t<key>price</key>\n\t\t<string>\(n % 50).99</string>\n"
        s += "\t\t<key>currency</key>\n\t\t<string>USD</string>\n"
        s += "\t\t<key>familyShareable</key>\n\t\t<false/>\n"
        s += "\t\t<key>tier</key>\n\t\t<integer>\(n % 87 + 1)</integer>\n"
        s += "\t\t<key>localizations</key>\n\t\t<dict>\n"
        for (locale, name, text) in [("en-US", "Bag of things", "A bag of shiny things for your next adventure"),
                                     ("de-DE", "Beutel voller Dinge", "Ein Beutel glänzender Dinge für dein Abenteuer"),
                                     ("ja-JP", "アイテムの袋", "次の冒険のためのキラキラしたアイテム")] {
            s += "\t\t\t<key>\(locale)</key>\n\t\t\t<dict>\n\t\t\t\t<key>displayName</key>\n\t\t\t\t<string>\(name) \(n)</string>\n"
            s += "\t\t\t\t<key>description</key>\n\t\t\t\t<string>\(text)</string>\n\t\t\t</dict>\n"
        }
        return s + "\t\t</dict>\n\t</dict>\n"
    }
}
