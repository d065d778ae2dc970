import CodeGeneration
import Diagnostics
import Foundation
import IAPCatalog
import SourceLint
import Support

/// `iap init`: a commented `iap.yml` filled from what the folder holds — its catalogs and their
/// bundle IDs, the folders with Swift and Objective-C sources — with every other key shown
/// commented out, so the file documents itself.
public enum StarterConfiguration {
    /// The starter for a folder: the file's text, what the walks passed over (`--verbose`), and
    /// whether it names anything to check.
    public struct Starter: Sendable {
        public var text: String
        public var passedOver: [PassedOverFile]
        /// Whether the file names a catalog or a source folder (else `iap check` has nothing to do).
        public var checksSomething: Bool

        /// What to do once the file at `path` is written: a command that works as printed, or,
        /// when the folder holds nothing to check, what to add (never a command that would fail).
        public func nextStep(configPath path: String) -> String {
            guard checksSomething else {
                return "nothing to check here yet: add the app's product-ID plist, metadata plist or .storekit file "
                    + "to this folder, or name the folder that holds them under catalogs: in \(path)"
            }
            return path == Configuration.fileName ? "run iap check" : "run iap check --config \(Escape.shellArgument(path, path: true))"
        }
    }

    /// A catalog file that cannot be read stops it (exit 2 with the reason): a starter that says
    /// "no catalog found here" would be wrong.
    public static func make(for folder: String) throws(ToolFailure) -> Starter {
        let loaded: CatalogLoader.Result
        do {
            loaded = try CatalogLoader().loadAll(paths: [folder])
        } catch {
            throw .cannotRun(error.message)
        }
        let catalogs = loaded.catalogs
        let sources = (try? SourceLinter().walk([folder])) ?? (files: [], passedOver: [])
        var paths = RelativePaths(root: folder)
        let catalogPaths = catalogFolders(catalogs, paths: &paths)
        // The top-level folders holding the app's sources; the folder itself when sources sit at
        // its top (Package.swift aside). Vendored code, a Flutter app's desktop runners and an
        // Android project are not the app's: left out, or excluded when inside a folder linted.
        var noise = SourceNoise(root: folder)
        var noiseFolders: [String: String] = [:]
        var own: [String] = []
        for path in sources.files {
            let rel = paths.relative(path)
            if let found = noise.folder(of: rel) { noiseFolders[found.folder] = found.reason } else { own.append(rel) }
        }
        var sourceFolders = Set(own.map { rel -> String in
            let first = rel.split(separator: "/").first.map(String.init) ?? rel
            return first == rel ? (rel == "Package.swift" ? "" : ".") : first
        }).filter { !$0.isEmpty }.sorted()
        if sourceFolders.contains(".") { sourceFolders = ["."] }
        let linted = Set(sourceFolders)
        // Noise inside a folder linted is excluded; beside them, it is only not listed.
        let excluded = noiseFolders.keys.filter { noisy in
            linted.contains(".") || linted.contains(String(noisy.split(separator: "/")[0]))
        }.sorted()
        let leftOut = noiseFolders.keys.filter { !excluded.contains($0) }.sorted()

        var out = """
        # iap.yml: what `iap check` checks, and how. Paths are relative to this file (what it writes
        # stays inside this folder). `iap rules` lists every rule; docs/ci.md shows CI set-ups.

        """
        if catalogs.count == 1, let bundle = catalogs[0].bundleID {
            out += "\n# The bundle ID, found in \(paths.relative(bundle.location.path)); uncomment to pin it.\n"
            out += "# bundle-id: \(bundle.value)\n"
        } else {
            out += "\n# The app's bundle ID (or info-plist: App/Info.plist to read it from).\n# bundle-id: com.example.app\n"
        }
        out += "\n# Catalog files or folders (product-ID plists, metadata plists, .storekit files).\n"
        if catalogPaths.isEmpty {
            out += "# No catalog found here yet; name the folder that holds it.\n# catalogs:\n#   - Store\n"
        } else {
            out += "catalogs:\n" + catalogPaths.map { "  - \(yaml($0))\n" }.joined()
        }
        out += """

        # Product IDs deleted in App Store Connect, which can never come back (one per line).
        # retired: RetiredProductIDs.txt

        # Locales every product must be localized in.
        # required-locales: [en-US]

        # Severity per rule (off, info, warning, error), and the name limits.
        # rules:
        #   undeclared-kind: off
        #   display-name-too-long: {severity: error, limit: 30}

        """
        if sourceFolders.isEmpty {
            out += "\n# Sources to lint for hardcoded prices, titles and product IDs.\n# lint:\n#   paths: [App]\n"
        } else {
            out += "\n# Sources to lint for hardcoded prices, titles and product IDs.\n"
                + leftOut.map { "# Not linted: \($0), \(noiseFolders[$0]!).\n" }.joined()
                + "lint:\n  paths:\n"
                + sourceFolders.map { "    - \(yaml($0))\n" }.joined()
            if excluded.isEmpty {
                out += "  # exclude: [\"*/Generated/*\"]\n"
            } else {
                // A folder path matches that run of folders wherever the file is read from (ExcludePattern).
                out += "  # Not the app's code: \(excluded.map { "\($0) (\(noiseFolders[$0]!))" }.joined(separator: ", ")).\n"
                    + "  exclude:\n" + excluded.map { "    - \(yaml($0))\n" }.joined()
            }
        }
        out += """

        # Generated files `iap check` keeps up to date (iap gen --check).
        # generate:
        #   - output: App/ProductID.swift
        #     style: constants

        # Reports written besides stdout, and a baseline of accepted findings.
        # reports: [sarif:iap.sarif, junit:iap-junit.xml]
        # baseline: iap-baseline.json

        """
        let passedOver = Array(Set(loaded.passedOver + sources.passedOver)).sorted { ($0.path, $0.reason) < ($1.path, $1.reason) }
        return Starter(text: out, passedOver: passedOver, checksSomething: !catalogPaths.isEmpty || !sourceFolders.isEmpty)
    }

    /// What to list under `catalogs:`: each catalog's app folder (the one holding its Xcode
    /// project, so the bundle ID still resolves); for a catalog whose app folder is the folder
    /// itself, the folders holding its files when they also hold where its bundle ID comes from
    /// (or it has none), else the folder itself. Each listed once, none inside another.
    static func catalogFolders(_ catalogs: [Catalog], paths: inout RelativePaths) -> [String] {
        var folders = Set<String>()
        for catalog in catalogs {
            let root = paths.relative(catalog.name)
            guard root == "." || root.isEmpty else {
                // An app's folder, unless its bundle ID comes from outside the folders of its
                // files (a workspace's app whose Info.plist sits beside its Store folder, a spec
                // at the root): a walk of the folder would not pair them again, so the folder
                // itself is listed, as `validate .` read it.
                let source = catalog.bundleID.map { paths.relative($0.location.path) }
                let inside = source.map { source in
                    catalog.files.contains { file in
                        if case .bundleInfo = file.content { return false }
                        return source.hasPrefix(paths.relative((file.path as NSString).deletingLastPathComponent) + "/")
                    }
                } ?? true
                folders.insert(inside || hasAppMarker((paths.root as NSString).appendingPathComponent(root)) ? root : ".")
                continue
            }
            var fileFolders = Set<String>()
            for file in catalog.files {
                if case .bundleInfo = file.content { continue }
                let parent = paths.relative((file.path as NSString).deletingLastPathComponent)
                fileFolders.insert(parent.isEmpty ? "." : parent)
            }
            let bundleSource = catalog.bundleID.map { paths.relative($0.location.path) }
            let bundleInside = bundleSource.map { source in fileFolders.contains { $0 == "." || source.hasPrefix($0 + "/") } } ?? true
            if bundleInside { folders.formUnion(fileFolders) } else { folders.insert(".") }
        }
        let sorted = folders.sorted()
        return sorted.filter { candidate in
            !sorted.contains { other in other != candidate && (other == "." || candidate.hasPrefix(other + "/")) }
        }
    }

    /// Whether a folder holds what makes it an app's root for a walk (`FileDiscovery`): then a
    /// walk of it reads its bundle ID's source with its catalog files.
    static func hasAppMarker(_ folder: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return names.contains { name in
            ["xcodeproj", "xcworkspace"].contains((name as NSString).pathExtension)
                || ["Package.swift", "iap.yml", "project.yml", "Project.swift"].contains(name)
        }
    }

    /// A plain scalar when safe, else double-quoted.
    static func yaml(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-".contains($0) } && !text.hasPrefix("-")
        return plain ? text : "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// `iap init`: the starter `iap.yml` for a folder, written there or printed.
public struct InitJob: Sendable {
    /// The project folder.
    public var folder: String
    /// Replace an existing `iap.yml`.
    public var force = false
    /// Print the file instead of writing it.
    public var toStdout = false
    /// Also say what the walks passed over.
    public var verbose = false

    public init(folder: String = ".") {
        self.folder = folder
    }

    /// The file written (never over an existing one without `force`), and the next step to take.
    public func run() -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .cannotRun("\(folder): no such folder")
            }
            let starter = try StarterConfiguration.make(for: folder)
            if verbose { outcome.stderr += PassedOverFile.lines(starter.passedOver) }
            if toStdout {
                outcome.stdout = starter.text
                return outcome
            }
            let path = folder == "." ? Configuration.fileName : (folder as NSString).appendingPathComponent(Configuration.fileName)
            if FileManager.default.fileExists(atPath: path), !force {
                throw .cannotRun("\(path) exists; pass --force to replace it, or --stdout to see the starter")
            }
            do {
                _ = try OutputFile.write(starter.text, to: path)
            } catch {
                throw .cannotRun(error.description)
            }
            outcome.written = [path]
            outcome.stderr += "iap: wrote \(path); \(starter.nextStep(configPath: path))\n"
        } catch {
            outcome.fail(error)
        }
        return outcome
    }
}
