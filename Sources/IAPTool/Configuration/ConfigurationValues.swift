import Diagnostics
import Foundation
import IAPCatalog
import PropertyList
import Yams

/// The values of `iap.yml`: strings as written (with `${NAME}` only where it expands), lists,
/// numbers, booleans, severities, and the paths that must stay inside the file's folder. Each
/// wrong value is an error at its line and column, and reading goes on.
extension ConfigurationParser {
    /// A string as written: `${` in it is an error, as only `Configuration.expandingKeys` expand.
    mutating func string(_ node: Node, _ key: String) -> String? {
        guard case .scalar(let scalar) = node else {
            error(node, key, "expected a string, found \(Self.found(node))")
            return nil
        }
        guard !scalar.string.contains("${") else {
            let instead = key == "bundle-id" ? "pass --bundle-id on the command line instead" : "write the value itself"
            error(node, key, "environment variables are not expanded here, only in \(Configuration.expandingKeys.joined(separator: ", ")) (docs/ci.md); \(instead)")
            return nil
        }
        return scalar.string
    }

    /// A string of a key where `${NAME}` expands, and how a message shows it: quoted as written
    /// in the file (`"${IAP_FORMAT}" (its value, not shown here)`), never the expanded value.
    mutating func expanded(_ node: Node, _ key: String) -> (value: String, shown: String)? {
        guard case .scalar(let scalar) = node else {
            error(node, key, "expected a string, found \(Self.found(node))")
            return nil
        }
        let text = scalar.string
        guard let value = expand(text, node, key) else { return nil }
        return (value, "\"\(text)\"" + (text.contains("${") ? " (its value, not shown here)" : ""))
    }

    /// `${NAME}` replaced by the environment variable; an unset one is an error.
    mutating func expand(_ text: String, _ node: Node, _ key: String) -> String? {
        guard text.contains("${") else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                error(node, key, "unclosed ${ in \"\(text)\"")
                return nil
            }
            let name = String(rest[start.upperBound..<end])
            guard let value = environment[name] else {
                error(node, key, "environment variable \(name) is not set")
                return nil
            }
            out += value
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    /// Whether `path` (as written in the file) stays inside the file's folder; else an error that
    /// says how it leaves and what the command line may say instead (`elsewhere`).
    mutating func confine(_ path: String, _ node: Node, _ key: String, elsewhere: String) -> Bool {
        let why: String?
        if let confined { why = confined.escape(path) }
        else { why = path.hasPrefix("/") || path.split(separator: "/").contains("..") ? "leads out of the folder of iap.yml" : nil }
        guard let why else { return true }
        error(node, key, "\"\(path)\" \(why): the reports, baseline, snapshot and generated files iap.yml names stay inside its folder; "
              + "a path on the command line may go anywhere (\(elsewhere))")
        return false
    }

    /// Whether `path`, named to be read, stays inside the repository holding the file: a pull
    /// request must not point a CI job at the rest of the machine (`catalogs: [/home/runner/.ssh]`),
    /// whose files' first bytes a message about them would quote. Outside a repository, any path.
    mutating func confineRead(_ path: String, _ node: Node, _ key: String) -> Bool {
        guard let repository, let why = repository.escape(path) else { return true }
        error(node, key, "\"\(path)\" \(why): the files iap.yml names to read stay inside the repository; "
              + "a path on the command line may go anywhere")
        return false
    }

    /// A list of paths to read, each inside the repository.
    mutating func readPaths(_ node: Node, _ key: String) -> [String] {
        var kept: [String] = []
        if case .scalar = node {
            if let path = string(node, key), confineRead(path, node, key) { kept.append(path) }
            return kept
        }
        for (index, item) in list(node, key).enumerated() {
            if let path = string(item, "\(key)[\(index)]"), confineRead(path, item, "\(key)[\(index)]") { kept.append(path) }
        }
        return kept
    }

    mutating func list(_ node: Node, _ key: String) -> [Node] {
        if case .sequence(let sequence) = node { return Array(sequence) }
        error(node, key, "expected a list, found \(Self.found(node))")
        return []
    }

    /// A list of strings; a single string is taken as a list of one.
    mutating func strings(_ node: Node, _ key: String) -> [String] {
        if case .scalar = node { return string(node, key).map { [$0] } ?? [] }
        return list(node, key).enumerated().compactMap { string($1, "\(key)[\($0)]") }
    }

    mutating func int(_ node: Node, _ key: String) -> Int? {
        guard case .scalar(let scalar) = node, let value = Int(scalar.string) else {
            error(node, key, "expected an integer, found \(Self.found(node))")
            return nil
        }
        return value
    }

    mutating func bool(_ node: Node, _ key: String) -> Bool? {
        guard case .scalar(let scalar) = node else {
            error(node, key, "expected true or false, found \(Self.found(node))")
            return nil
        }
        switch scalar.string {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            error(node, key, "expected true or false, found \(Self.found(node))")
            return nil
        }
    }

    /// `off`, `info`, `warning`, `error`: nil inside for off.
    mutating func severity(_ node: Node, _ key: String) -> Severity?? {
        guard case .scalar(let scalar) = node else {
            error(node, key, "expected off, info, warning or error, found \(Self.found(node))")
            return nil
        }
        if scalar.string == "off" { return .some(nil) }
        guard let severity = Severity(rawValue: scalar.string) else {
            error(node, key, "expected off, info, warning or error, found \(Self.found(node))")
            return nil
        }
        return .some(severity)
    }

    mutating func bundleID(fromInfoPlist path: String, node: Node, key: String) -> String? {
        guard let document = try? PlistReader().read(path: path),
              let id = document.root.value.dictionaryValue?.entry("CFBundleIdentifier")?.value.value.stringValue else {
            error(node, key, "\(path) is not a readable Info.plist with a CFBundleIdentifier")
            return nil
        }
        guard !id.contains("$(") && !id.contains("${") else {
            error(node, key, "CFBundleIdentifier in \(path) is the build setting '\(id)'; set bundle-id instead")
            return nil
        }
        return id
    }
}
