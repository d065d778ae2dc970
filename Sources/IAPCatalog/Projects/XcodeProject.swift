import Diagnostics
import Foundation
import PropertyList
import Support

/// What an Xcode project says about its app targets: their bundle IDs (with build-setting
/// variables expanded from the project and the app's `.xcconfig` files) and their `Info.plist`.
/// Modern projects keep the bundle ID here, with `$(PRODUCT_BUNDLE_IDENTIFIER)` in `Info.plist`.
struct XcodeProject {
    /// One application target, read from its release configuration.
    struct AppTarget: Equatable {
        var name: String
        /// `PRODUCT_BUNDLE_IDENTIFIER` as written (`$(BUNDLE_ID_PREFIX).App`).
        var rawBundleID: String
        /// The same with every variable expanded; nil when one could not be.
        var bundleID: String?
        /// Where `PRODUCT_BUNDLE_IDENTIFIER` is set in `project.pbxproj`.
        var location: SourceLocation
        /// `INFOPLIST_FILE`, as a path from the current directory.
        var infoPlist: String?
        /// The target's name and product name: what the app is called.
        var names: [String] = []
        /// The target's object ID in `project.pbxproj`, which schemes name it by (none in a spec).
        var identifier = ""
    }

    let path: String
    var appTargets: [AppTarget] = []

    /// Reads `project.pbxproj`; `settings` are the app's `.xcconfig` assignments (see `BuildSettings`).
    init?(path: String, settings: BuildSettings) {
        self.path = path
        guard case .success(let data) = FileContents.read(path),
              let root = OpenStepParser.parse([UInt8](data)),
              let objects = root["objects"]?.dictionary else { return nil }
        let sourceRoot = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let project = root["rootObject"]?.string.flatMap { objects[$0] }
        let projectSettings = Self.configurations(project?["buildConfigurationList"]?.string, objects)
        for (identifier, object) in objects.sorted(by: { $0.key < $1.key }) {
            guard object["isa"]?.string == "PBXNativeTarget",
                  object["productType"]?.string == "com.apple.product-type.application" else { continue }
            let name = object["name"]?.string ?? "app"
            let configurations = Self.configurations(object["buildConfigurationList"]?.string, objects)
            guard let (configName, buildSettings) = Self.release(configurations) else { continue }
            let inherited = projectSettings.first { $0.0 == configName }?.1 ?? [:]
            func lookup(_ key: String) -> String? {
                if let value = buildSettings[key]?.string ?? inherited[key]?.string { return value }
                switch key {
                case "PRODUCT_NAME", "TARGET_NAME": return object["productName"]?.string ?? name
                case "SRCROOT", "PROJECT_DIR": return sourceRoot
                default: return settings.value(key)
                }
            }
            // A watchOS app is the companion of the phone app, whose bundle ID it extends.
            if (buildSettings["SDKROOT"] ?? inherited["SDKROOT"])?.string?.hasPrefix("watch") == true { continue }
            let rawText: String
            let location: SourceLocation
            if let raw = (buildSettings["PRODUCT_BUNDLE_IDENTIFIER"] ?? inherited["PRODUCT_BUNDLE_IDENTIFIER"]), let text = raw.string {
                (rawText, location) = (text, SourceLocation(path: path, line: raw.line))
            } else if let assignment = settings.assignment("PRODUCT_BUNDLE_IDENTIFIER") {
                (rawText, location) = (assignment.value, assignment.location)
            } else {
                continue
            }
            let expanded = BuildSettings.expand(rawText, lookup: lookup)
            var infoPlist: String?
            if let file = (buildSettings["INFOPLIST_FILE"] ?? inherited["INFOPLIST_FILE"])?.string,
               let resolved = BuildSettings.expand(file, lookup: lookup) {
                infoPlist = resolved.hasPrefix("/") || resolved.hasPrefix(sourceRoot + "/") ? resolved
                    : (sourceRoot == "." ? resolved : sourceRoot + "/" + resolved)
            }
            let productName = lookup("PRODUCT_NAME").flatMap { BuildSettings.expand($0, lookup: lookup) }
            appTargets.append(AppTarget(name: name, rawBundleID: rawText, bundleID: expanded, location: location,
                                        infoPlist: infoPlist, names: [name] + [productName].compactMap { $0 }, identifier: identifier))
        }
    }

    private static func configurations(_ listID: String?, _ objects: [String: OpenStepValue]) -> [(String, [String: OpenStepValue])] {
        guard let listID, let list = objects[listID], let ids = list["buildConfigurations"]?.array else { return [] }
        return ids.compactMap { ref -> (String, [String: OpenStepValue])? in
            guard let id = ref.string, let config = objects[id], let name = config["name"]?.string else { return nil }
            return (name, config["buildSettings"]?.dictionary ?? [:])
        }
    }

    /// The configuration an App Store build uses: `Release`, else one named like a release, else the last.
    private static func release(_ configurations: [(String, [String: OpenStepValue])]) -> (String, [String: OpenStepValue])? {
        configurations.first { $0.0 == "Release" }
            ?? configurations.first { $0.0.lowercased().contains("release") || $0.0.lowercased().contains("appstore") }
            ?? configurations.last
    }
}

/// Build-setting assignments from `.xcconfig` files, and `$(VAR)` expansion.
struct BuildSettings: Sendable {
    struct Assignment: Sendable {
        var value: String
        var location: SourceLocation
    }

    /// Every distinct value assigned to each name, in file order.
    private(set) var values: [String: [Assignment]] = [:]
    /// The assignment `assignment(_:)` gives for each name, chosen once.
    private var chosen: [String: Assignment] = [:]

    init(files: [String] = []) {
        // Where each value of a name is in `values`: an .xcconfig of 100,000 values of one name
        // is one lookup a line, not a search of the ones before.
        var positions: [String: [String: Int]] = [:]
        for file in files {
            guard case .success(let text) = FileContents.text(file) else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("//"), !trimmed.hasPrefix("#") else { continue }
                // The `=` of the assignment, not one inside a condition (`NAME[config=Release] = …`).
                var bracketDepth = 0
                guard let equals = trimmed.indices.first(where: { i in
                    if trimmed[i] == "[" { bracketDepth += 1 } else if trimmed[i] == "]" { bracketDepth -= 1 }
                    return trimmed[i] == "=" && bracketDepth == 0
                }) else { continue }
                var name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
                // `NAME[config=Release]`: a conditional assignment still names the setting.
                if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
                var value = trimmed[trimmed.index(after: equals)...]
                if let comment = value.range(of: "//") { value = value[..<comment.lowerBound] }
                let text = value.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !text.isEmpty else { continue }
                let assignment = Assignment(value: text, location: SourceLocation(path: file, line: index + 1))
                if let same = positions[name]?[text] {
                    // The same value in a debug and a release file: point at the release one.
                    if values[name]![same].location.path.lowercased().contains("debug"), !file.lowercased().contains("debug") {
                        values[name]![same] = assignment
                    }
                } else {
                    positions[name, default: [:]][text] = values[name, default: []].count
                    values[name, default: []].append(assignment)
                }
            }
        }
        chosen = values.compactMapValues { $0.min { $0.value.count == $1.value.count ? $0.value < $1.value : $0.value.count < $1.value.count } }
    }

    /// The assignment of a setting. When configuration files disagree (a debug or beta variant),
    /// the shortest value wins: variants extend the release value (`com.acme.app.beta`).
    func assignment(_ name: String) -> Assignment? {
        chosen[name]
    }

    func value(_ name: String) -> String? { assignment(name)?.value }

    /// The most references one expansion follows, and the most bytes it gives. References nest,
    /// so a hostile project multiplies them at every level (`A = $(B)$(B)…`, `B = $(C)$(C)…`:
    /// 50 a value, 7 deep, is 50⁶ references from 1 kB); a bundle ID, product name or
    /// `Info.plist` path takes a handful, and far fewer bytes.
    static let maxReferences = 256
    static let maxExpandedBytes = 4_096

    /// `text` with `$(NAME)`, `${NAME}` and `$(NAME:modifier)` expanded; nil when a name is
    /// unknown, or past `maxReferences` or `maxExpandedBytes`.
    static func expand(_ text: String, lookup: (String) -> String?) -> String? {
        var budget = maxReferences
        return expand(text, lookup: lookup, depth: 0, budget: &budget)
    }

    private static func expand(_ text: String, lookup: (String) -> String?, depth: Int, budget: inout Int) -> String? {
        // A value longer than the result may be is not scanned again for each reference to it.
        guard depth == 0 || text.utf8.count <= maxExpandedBytes else { return nil }
        guard text.contains("$") else { return text }
        guard depth < 8, text.utf8.count <= maxExpandedBytes else { return nil }
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            budget -= 1
            guard budget >= 0, result.utf8.count <= maxExpandedBytes else { return nil }
            let after = rest.index(after: dollar)
            guard after < rest.endIndex else { return nil }
            if rest[after] != "(" && rest[after] != "{" {
                // `$NAME`, which xcconfig files also accept.
                let name = rest[after...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard !name.isEmpty, let value = lookup(String(name)),
                      let expanded = expand(value, lookup: lookup, depth: depth + 1, budget: &budget) else { return nil }
                result += expanded
                rest = rest[name.endIndex...]
                continue
            }
            let close: Character = rest[after] == "(" ? ")" : "}"
            guard let end = rest[after...].firstIndex(of: close) else { return nil }
            let inner = rest[rest.index(after: after)..<end]
            let name = String(inner.split(separator: ":", maxSplits: 1).first ?? "")
            if name != "inherited" {
                guard let value = lookup(name), let expanded = expand(value, lookup: lookup, depth: depth + 1, budget: &budget) else { return nil }
                result += inner.contains(":rfc1034identifier")
                    ? String(expanded.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" }) : expanded
            }
            rest = rest[rest.index(after: end)...]
        }
        result += rest
        guard result.utf8.count <= maxExpandedBytes else { return nil }
        return result.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    }
}
