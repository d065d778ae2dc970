// Differential dump: every file under the given paths read with read(path:) and readContent(path:),
// in 256 KiB and in 64-byte chunks (the least the reader takes); prints the trees with every
// position, or the error (kind, line, column, message). Diff the output of two builds.
import PropertyList
import Foundation

func dump(_ node: PlistNode, _ out: inout String, _ indent: Int) {
    let pad = String(repeating: " ", count: indent)
    switch node.value {
    case .array(let items):
        out += "\(pad)array@\(node.position) [\(items.count)]\n"
        for item in items { dump(item, &out, indent + 1) }
    case .dictionary(let d):
        out += "\(pad)dict@\(node.position) {\(d.count)}\n"
        for e in d.entries {
            out += "\(pad) key \(e.key.debugDescription)@\(e.keyPosition)\n"
            dump(e.value, &out, indent + 2)
        }
    case .real(let r): out += "\(pad)real \(r.text.debugDescription) \(r.doubleValue.bitPattern)@\(node.position)\n"
    case .string(let s): out += "\(pad)string \(s.debugDescription) \(Array(s.utf8))@\(node.position)\n"
    default: out += "\(pad)\(node.value.typeName) \(node.value)@\(node.position)\n"
    }
}

func describe(_ e: PlistError) -> String { "ERROR \(e.kind) \(e.line):\(e.column) \(e.message.debugDescription)\n" }

var files: [String] = []
for arg in CommandLine.arguments.dropFirst() {
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: arg, isDirectory: &isDir), isDir.boolValue {
        let e = FileManager.default.enumerator(atPath: arg)!
        for case let f as String in e { 
            var d: ObjCBool = false
            let p = arg + "/" + f
            if FileManager.default.fileExists(atPath: p, isDirectory: &d), !d.boolValue { files.append(p) }
        }
    } else { files.append(arg) }
}
files.sort()
for f in files {
    var out = "== \(f)\n"
    for chunk in [256 * 1024, 64] {
        let reader = PlistReader(chunkSize: chunk)
        out += "-- read chunk \(chunk)\n"
        do { dump(try reader.read(path: f).root, &out, 0) } catch { out += describe(error) }
        out += "-- content chunk \(chunk)\n"
        do {
            switch try reader.readContent(path: f) {
            case .tree(let n): out += "tree\n"; dump(n, &out, 0)
            case .strings(let l):
                out += "strings@\(l.position) \(l.count)\n"
                for (s, p) in zip(l.strings, l.positions) { out += " \(s.debugDescription) \(Array(s.utf8))@\(p)\n" }
            }
        } catch { out += describe(error) }
    }
    FileHandle.standardOutput.write(out.data(using: .utf8)!)
}
