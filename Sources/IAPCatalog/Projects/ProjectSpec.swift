import Diagnostics
import Foundation
import PropertyList
import Support

/// The bundle IDs an app's project *spec* sets, for repositories that generate their Xcode
/// project and do not commit it: XcodeGen's `project.yml` (and the files it `include:`s) and
/// Tuist's `Project.swift`. Both are read as text, line by line — never run, never evaluated —
/// so only IDs written out are found: `PRODUCT_BUNDLE_IDENTIFIER: com.acme.app`, XcodeGen's
/// `bundleIdPrefix` with an application target's name, Tuist's `bundleId: "com.acme.app"`. A value
/// built from variables or interpolation (`$(PREFIX).app`, `"\(prefix).app"`) is left alone.
enum ProjectSpec {
    static let fileNames: Set<String> = ["project.yml", "Project.swift"]
    /// Specs larger than this are not read (no real one comes near).
    static let maxBytes = 4 << 20
    /// Distinct files `include:`d from one spec that are followed, at most; each counts whether
    /// it is read, refused or missing. A name written again is not counted again.
    static let maxIncludes = 16
    /// How deep `include:`s nest, at most: the spec's own includes are 1 deep.
    static let maxIncludeDepth = 8

    /// What reading one spec gave: its application targets, the includes it did not follow (with
    /// why, said under `--verbose`), and the files it read.
    struct Reading {
        var targets: [XcodeProject.AppTarget] = []
        var passedOver: [PassedOverFile] = []
        /// The spec, then each file it includes that was read, in the order read.
        var filesRead: [String] = []
        /// The include names kept from those files (each name once a file): what following them costs.
        var includeNames = 0
    }

    /// The app targets of the spec at `path`. An XcodeGen spec's includes are followed breadth
    /// first, each distinct one once, within `maxIncludes` and `maxIncludeDepth`, and only inside
    /// `boundary` (without one, inside the spec's own folder): an include that is absolute, climbs
    /// out with `..` or goes through a link leading out is passed over, never read.
    static func read(path: String, boundary: FileDiscovery.Boundary? = nil) -> Reading {
        var reading = Reading()
        if path.hasSuffix("Project.swift") {
            reading.targets = tuist(path)
            reading.filesRead = [path]
            return reading
        }
        var prefix: String?
        var unnamed: [(name: String, location: SourceLocation)] = []
        // The spec counts as one of the files, as it always has: the spec + `maxIncludes`.
        var seen: Set<String> = [path]
        var queue: [(path: String, depth: Int)] = [(path, 0)]
        var next = 0
        var capped = false
        let bounds = boundary ?? FileDiscovery.Boundary(folderOf: path)
        while next < queue.count {
            let (file, depth) = queue[next]
            next += 1
            guard let text = read(file) else { continue }
            reading.filesRead.append(file)
            // Enough names to reach the cap even when every one already seen is written here too;
            // none past the cap.
            let spec = xcodeGen(file, text, includeLimit: capped ? 0 : maxIncludes + 1 + seen.count)
            reading.includeNames += spec.includes.count
            reading.targets += spec.targets
            prefix = prefix ?? spec.prefix
            unnamed += spec.withoutID
            let folder = (file as NSString).deletingLastPathComponent
            func joined(_ include: String) -> String {
                include.hasPrefix("/") ? include : (folder.isEmpty ? include : folder + "/" + include)
            }
            guard depth < maxIncludeDepth else {
                if let deeper = spec.includes.first(where: { !seen.contains(joined($0)) }) {
                    reading.passedOver.append(PassedOverFile(path: file, reason: "its include \(Quote.bounded(deeper)) nests more than \(maxIncludeDepth) includes deep: not read"))
                }
                continue
            }
            let confined = spec.includes.isEmpty ? nil : bounds?.confined(from: folder.isEmpty ? "." : folder)
            for include in spec.includes {
                let joined = joined(include)
                guard seen.insert(joined).inserted else { continue }
                guard seen.count <= maxIncludes + 1 else {
                    reading.passedOver.append(PassedOverFile(path: file, reason: "its include \(Quote.bounded(include)) is past the \(maxIncludes) files iap follows from one XcodeGen spec: not read"))
                    capped = true
                    break
                }
                guard let confined else { continue }
                if let why = confined.escape(include) {
                    reading.passedOver.append(PassedOverFile(path: file, reason: "its include \(Quote.bounded(include)) \(why): not read"))
                    continue
                }
                queue.append((joined, depth + 1))
            }
        }
        // `bundleIdPrefix` (in any of the files) + the name of an application target that sets no ID.
        if let prefix {
            for target in unnamed where isLiteralID(prefix + "." + target.name) {
                let id = prefix + "." + target.name
                reading.targets.append(XcodeProject.AppTarget(name: target.name, rawBundleID: id, bundleID: id, location: target.location,
                                                              infoPlist: nil, names: [target.name]))
            }
        }
        return reading
    }

    static func read(_ path: String) -> String? {
        guard case .success(let data) = FileContents.read(path, limit: maxBytes) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A YAML scalar as written: quotes and a trailing comment removed.
    static func scalar(_ text: Substring) -> String {
        var value = text
        if let hash = value.range(of: " #") { value = value[..<hash.lowerBound] }
        value = value.drop { $0 == " " || $0 == "\t" }
        while let last = value.last, last == " " || last == "\t" || last == "\r" { value = value.dropLast() }
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first { value = value.dropFirst().dropLast() }
        return String(value)
    }

    static func isLiteralID(_ value: String) -> Bool {
        !value.isEmpty && !value.contains("$") && !value.contains("{") && value.contains(".") && !value.contains(" ")
    }

    /// XcodeGen: every `PRODUCT_BUNDLE_IDENTIFIER:` written out, `bundleIdPrefix`, the targets of
    /// `type: application` that set no ID, and the files `include:` names: each name once, in
    /// the order written, the first `includeLimit` of them.
    static func xcodeGen(_ path: String, _ text: String, includeLimit: Int = .max)
        -> (targets: [XcodeProject.AppTarget], includes: [String], prefix: String?, withoutID: [(name: String, location: SourceLocation)]) {
        var targets: [XcodeProject.AppTarget] = []
        var includes: [String] = []
        var named = Set<String>()
        // A name written again costs one lookup, and past the limit nothing is kept.
        func include(_ name: String) {
            if includes.count < includeLimit, named.insert(name).inserted { includes.append(name) }
        }
        var prefix: String?
        var inTargets = false
        var inIncludes = false
        var current: (name: String, indent: Int, line: Int, application: Bool, explicit: Bool)?
        var pending: [(name: String, line: Int)] = []
        func close() {
            if let target = current, target.application, !target.explicit { pending.append((target.name, target.line)) }
            current = nil
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.isEmpty || body.hasPrefix("#") { continue }
            if indent == 0 {
                close()
                inTargets = body.hasPrefix("targets:")
                inIncludes = body.hasPrefix("include:")
                if inIncludes, body.count > "include:".count {
                    // `include: [a.yml, b.yml]` or `include: a.yml`.
                    let rest = scalar(body.dropFirst("include:".count))
                    for name in rest.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").map({ scalar($0) })
                    where !name.isEmpty {
                        include(name)
                    }
                }
                continue
            }
            if inIncludes, body.hasPrefix("- ") {
                var item = body.dropFirst(2)
                if item.hasPrefix("path:") { item = item.dropFirst(5) }
                let value = scalar(item)
                if !value.isEmpty { include(value) }
                continue
            }
            if inIncludes, body.hasPrefix("path:") {
                include(scalar(body.dropFirst(5)))
                continue
            }
            if body.hasPrefix("bundleIdPrefix:") {
                let value = scalar(body.dropFirst("bundleIdPrefix:".count))
                if isLiteralID(value + ".x") { prefix = value }
                continue
            }
            // A target: a key one level under `targets:`.
            if inTargets, let colon = body.firstIndex(of: ":"), body[body.index(after: colon)...].allSatisfy({ $0 == " " }),
               current == nil || indent <= current!.indent {
                close()
                current = (scalar(body[..<colon]), indent, index + 1, false, false)
                continue
            }
            if body.hasPrefix("type:"), scalar(body.dropFirst(5)) == "application" { current?.application = true }
            if body.hasPrefix("PRODUCT_BUNDLE_IDENTIFIER:") {
                let value = scalar(body.dropFirst("PRODUCT_BUNDLE_IDENTIFIER:".count))
                current?.explicit = true
                guard isLiteralID(value) else { continue }
                targets.append(XcodeProject.AppTarget(name: current?.name ?? "", rawBundleID: value, bundleID: value,
                                                      location: SourceLocation(path: path, line: index + 1), infoPlist: nil,
                                                      names: current.map { [$0.name] } ?? []))
            }
        }
        close()
        return (targets, includes, prefix, pending.map { ($0.name, SourceLocation(path: path, line: $0.line)) })
    }

    /// Tuist: every `bundleId: "…"` written out as a plain string.
    static func tuist(_ path: String) -> [XcodeProject.AppTarget] {
        guard let text = read(path) else { return [] }
        var targets: [XcodeProject.AppTarget] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let key = line.range(of: "bundleId:") else { continue }
            let rest = line[key.upperBound...].drop { $0 == " " }
            guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else { continue }
            let value = String(rest[rest.index(after: rest.startIndex)..<end])
            guard isLiteralID(value), !value.contains("\\") else { continue }
            targets.append(XcodeProject.AppTarget(name: "", rawBundleID: value, bundleID: value,
                                                  location: SourceLocation(path: path, line: index + 1), infoPlist: nil))
        }
        return targets
    }
}
