import Foundation

/// Finds the files catalogs are read from under the paths a user gives, and groups them by the
/// app they belong to.
///
/// A folder is searched recursively for `.plist`, `.storekit`, Xcode project and `.xcconfig`
/// files, skipping build output, dependency folders, hidden folders and the insides of Xcode
/// bundles (`.xcodeproj`, `.xcassets`, …). A file found by the walk belongs to the app whose root
/// is the nearest folder above it, inside the walked folder, that holds an app marker (an
/// `.xcodeproj`, an `.xcworkspace`, a `Package.swift`, an `iap.yml`, XcodeGen's `project.yml` or
/// Tuist's `Project.swift`); with no marker, to its own folder. Files named on the command line
/// form one group together.
public struct FileDiscovery: Sendable {
    public static let skippedFolders: Set<String> = ["build", ".build", "Pods", "Carthage", "DerivedData", "node_modules"]
    /// Folder extensions whose contents are Xcode's or a build's, never an app's catalog.
    static let opaqueFolderExtensions: Set<String> = ["xcodeproj", "xcworkspace", "xcassets", "framework", "xcframework",
                                                      "app", "appex", "dSYM", "xcarchive", "playground", "xctest"]
    /// Names of files that make their folder an app's root.
    static let markerFiles: Set<String> = ["Package.swift", "iap.yml", "project.yml", "Project.swift"]

    /// The files of one app (or of one command line).
    public struct Group: Sendable, Hashable {
        /// The app's root folder, or the files' common folder.
        public var name: String
        /// `.plist` and `.storekit` files, sorted.
        public var paths: [String]
        /// `project.pbxproj` files of the app's Xcode projects, sorted.
        public var projects: [String] = []
        /// `.xcconfig` files under the app's root, sorted.
        public var buildConfigurations: [String] = []
        /// Whether the files were named on the command line (then each is read strictly).
        public var explicit = false
    }

    public enum Failure: Error, Sendable, Equatable {
        case missing(String)
        case unreadable(String, String)

        public var message: String {
            switch self {
            case .missing(let path): "\(path): no such file or folder"
            case .unreadable(let path, let why): "\(path): cannot read: \(why)"
            }
        }
    }

    public init() {}

    /// The groups under `paths`, sorted by name; each group's files sorted by path.
    public func groups(for paths: [String]) throws(Failure) -> [Group] {
        var explicitFiles: [String] = []
        var walked = Walk()
        for given in paths {
            let path = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .missing(path)
            }
            if isDirectory.boolValue {
                walked.roots.append(path)
                try walk(path, into: &walked)
            } else {
                guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadable(path, "permission denied") }
                explicitFiles.append(path)
            }
        }
        var groups = walked.groups()
        if !explicitFiles.isEmpty {
            let unique = Array(Set(explicitFiles)).sorted()
            groups.append(Group(name: Self.commonFolder(unique), paths: unique, explicit: true))
        }
        return groups.sorted { $0.name == $1.name ? $0.paths.lexicographicallyPrecedes($1.paths) : $0.name < $1.name }
    }

    /// Whether a file name is one this tool reads.
    public static func isCatalogFile(_ name: String) -> Bool {
        name.hasSuffix(".plist") || name.hasSuffix(".storekit")
    }

    /// What a walk saw: candidate files by folder, and the folders that are app roots.
    struct Walk {
        var roots: [String] = []
        var filesByFolder: [String: [String]] = [:]
        var projectsByFolder: [String: [String]] = [:]
        var configurationsByFolder: [String: [String]] = [:]
        var appRoots = Set<String>()

        /// The app root of a folder: the nearest marked folder at or above it, not above the walk root.
        func appRoot(of folder: String) -> String {
            let root = roots.filter { folder == $0 || folder.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }.max { $0.count < $1.count }
            var current = folder
            while true {
                if appRoots.contains(current) { return current }
                guard let root, current != root, current.count > root.count else { return folder }
                current = (current as NSString).deletingLastPathComponent
            }
        }

        func groups() -> [Group] {
            var byRoot: [String: Group] = [:]
            func add(_ folder: String, _ body: (inout Group) -> Void) {
                let root = appRoot(of: folder)
                var group = byRoot[root] ?? Group(name: root, paths: [])
                body(&group)
                byRoot[root] = group
            }
            for (folder, files) in filesByFolder { add(folder) { $0.paths += files } }
            for (folder, files) in projectsByFolder { add(folder) { $0.projects += files } }
            for (folder, files) in configurationsByFolder { add(folder) { $0.buildConfigurations += files } }
            return byRoot.values.filter { !$0.paths.isEmpty }.map { group in
                var sorted = group
                sorted.paths.sort()
                sorted.projects.sort()
                sorted.buildConfigurations.sort()
                return sorted
            }
        }
    }

    private func walk(_ folder: String, into walked: inout Walk) throws(Failure) {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .unreadable(folder, "cannot list folder")
        }
        for entry in entries.sorted() {
            if entry.hasPrefix(".") || Self.skippedFolders.contains(entry) { continue }
            let path = folder.hasSuffix("/") ? folder + entry : folder + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let ext = (entry as NSString).pathExtension
            if isDirectory.boolValue {
                if ext == "xcodeproj" || ext == "xcworkspace" { walked.appRoots.insert(folder) }
                if ext == "xcodeproj" {
                    let project = path + "/project.pbxproj"
                    if FileManager.default.isReadableFile(atPath: project) { walked.projectsByFolder[folder, default: []].append(project) }
                }
                if Self.opaqueFolderExtensions.contains(ext) { continue }
                // Xcode can store a .storekit file inside a folder named like one.
                try walk(path, into: &walked)
            } else if Self.isCatalogFile(entry) {
                walked.filesByFolder[folder, default: []].append(path)
            } else if ext == "xcconfig" {
                walked.configurationsByFolder[folder, default: []].append(path)
            } else if Self.markerFiles.contains(entry) {
                walked.appRoots.insert(folder)
            }
        }
    }

    static func commonFolder(_ paths: [String]) -> String {
        let folders = paths.map { ($0 as NSString).deletingLastPathComponent }
        guard var common = folders.first else { return "." }
        for folder in folders.dropFirst() {
            while !(folder == common || folder.hasPrefix(common + "/")) && !common.isEmpty {
                common = (common as NSString).deletingLastPathComponent
            }
        }
        return common.isEmpty ? "." : common
    }
}
