import Foundation

/// Finds catalog files under the paths a user gives and groups them into catalogs.
///
/// A folder is searched recursively for `.plist` and `.storekit` files, skipping build output
/// and dependency folders and hidden folders. Files found directly in one folder form one
/// catalog; files named on the command line form one catalog together.
public struct FileDiscovery: Sendable {
    public static let skippedFolders: Set<String> = ["build", ".build", "Pods", "Carthage", "DerivedData", "node_modules"]

    public struct Group: Sendable, Hashable {
        public var name: String
        public var paths: [String]
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

    /// The catalogs under `paths`, sorted by name; each catalog's files sorted by path.
    public func groups(for paths: [String]) throws(Failure) -> [Group] {
        var explicitFiles: [String] = []
        var byFolder: [String: [String]] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .missing(path)
            }
            if isDirectory.boolValue {
                try walk(path, into: &byFolder)
            } else {
                guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadable(path, "permission denied") }
                explicitFiles.append(path)
            }
        }
        var groups = byFolder.map { Group(name: $0.key, paths: $0.value.sorted()) }
        if !explicitFiles.isEmpty {
            let unique = Array(Set(explicitFiles)).sorted()
            groups.append(Group(name: Self.commonFolder(unique), paths: unique))
        }
        return groups.sorted { $0.name == $1.name ? $0.paths.lexicographicallyPrecedes($1.paths) : $0.name < $1.name }
    }

    /// Whether a file name is one this tool reads.
    public static func isCatalogFile(_ name: String) -> Bool {
        name.hasSuffix(".plist") || name.hasSuffix(".storekit")
    }

    private func walk(_ folder: String, into byFolder: inout [String: [String]]) throws(Failure) {
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
            if isDirectory.boolValue {
                // Xcode can store a .storekit file inside a folder named like one.
                try walk(path, into: &byFolder)
            } else if Self.isCatalogFile(entry) {
                byFolder[folder, default: []].append(path)
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
