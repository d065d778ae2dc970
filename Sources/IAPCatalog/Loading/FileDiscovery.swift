import Foundation
import PropertyList
import Support

/// Finds the files catalogs are read from under the paths a user gives, and groups them by the
/// app they belong to.
///
/// A folder is searched recursively for `.plist`, `.storekit`, Xcode project and `.xcconfig`
/// files (and each project's shared schemes, and the `.xcworkspace`s), passing over what `WalkPolicy` calls junk (build output, dependency folders, hidden
/// folders, `__MACOSX`, AppleDouble `._` files, `.DS_Store`) and the insides of Xcode bundles
/// (`.xcodeproj`, `.xcassets`, …). Paths keep the form they were given in, without `./`. A file found by the walk belongs to the app whose root
/// is the nearest folder above it, inside the walked folder, that holds an app marker (an
/// `.xcodeproj`, an `.xcworkspace`, a `Package.swift`, an `iap.yml`, XcodeGen's `project.yml` or
/// Tuist's `Project.swift`); with no marker, to its own folder. Files named on the command line
/// form one group together.
public struct FileDiscovery: Sendable {
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
        /// `project.pbxproj` files of the app's Xcode projects, and XcodeGen's `project.yml` or
        /// Tuist's `Project.swift` (`ProjectSpec`), sorted.
        public var projects: [String] = []
        /// `.xcconfig` files under the app's root, sorted.
        public var buildConfigurations: [String] = []
        /// The shared schemes of the app's Xcode projects (`App.xcodeproj/xcshareddata/xcschemes/*.xcscheme`),
        /// sorted: they say which `.storekit` file each app target runs with (`SchemeApps`).
        public var schemes: [String] = []
        /// The `.xcworkspace` bundles in the app's root or a folder above it, nearest first: a
        /// scheme's StoreKit path may be written relative to one of them.
        public var workspaces: [String] = []
        /// Whether the files were named on the command line (then each is read strictly).
        public var explicit = false
        /// What the app's project files, and the files its specs include, must stay inside; nil
        /// for files named on the command line (whose group reads no project).
        public var boundary: Boundary?
    }

    /// The folder a walked app's project files (`project.pbxproj`, `project.yml`, `Project.swift`)
    /// and the files a spec `include:`s must stay inside, as the paths `iap.yml` names to read stay
    /// inside the repository (`ConfinedPath`): the repository holding the walked folder (the
    /// nearest folder at or above it with `.git`), or, outside any repository, the walked folder
    /// itself. A pull request can commit a link, or an include, to any file the job can read;
    /// what leads out is passed over, and its content is never read or quoted.
    public struct Boundary: Sendable, Hashable {
        /// The folder, with every link resolved.
        public var root: String
        /// What it is, for messages: "the repository" or "the folder checked".
        public var name: String

        /// The boundary of a walk of the folder whose real path is `realFolder`.
        init(walking realFolder: String) {
            if let repository = FilePaths.repositoryRoot(of: realFolder) {
                (root, name) = (repository, "the repository")
            } else {
                (root, name) = (realFolder, "the folder checked")
            }
        }

        /// The folder of the file at `path` as a boundary of its own, for a spec read without a walk.
        init?(folderOf path: String) {
            let folder = (path as NSString).deletingLastPathComponent
            guard let real = FilePaths.realPath(folder.isEmpty ? "." : folder) else { return nil }
            (root, name) = (real, "the folder of the spec")
        }

        /// Paths relative to `folder` (in the walk's form), kept inside the boundary; nil when
        /// the folder cannot be resolved or is not inside it.
        func confined(from folder: String) -> ConfinedPath? {
            guard let start = FilePaths.realPath(folder), FilePaths.isInside(real: start, root: root) else { return nil }
            return ConfinedPath(root: root, name: name, start: start)
        }
    }

    public enum Failure: Error, Sendable, Equatable {
        case missing(String)
        case unreadable(String, String)
        /// A file named on the command line that no catalog is read from (`Package.swift`, `README.md`).
        case notCatalogFile(String)

        public var message: String {
            switch self {
            case .missing(let path): "\(path): no such file or folder"
            case .unreadable(let path, let why): "\(path): cannot read: \(why)"
            case .notCatalogFile(let path):
                "\(path): not a catalog file: catalogs are read from property lists (.plist: product-ID lists, metadata, "
                    + "Info.plist) and StoreKit configurations (.storekit); pass those files, or the folder that holds them"
            }
        }
    }

    public init() {}

    /// The groups under `paths`, sorted by name; each group's files sorted by path.
    public func groups(for paths: [String]) throws(Failure) -> [Group] {
        try discover(paths).groups
    }

    /// The groups under `paths`, and what the walk passed over without reading: FIFOs, sockets
    /// and devices (never opened, so never waited on), links that loop back or lead outside the
    /// walked folder, a folder that cannot be listed, a file met twice through links.
    public func discover(_ paths: [String]) throws(Failure) -> (groups: [Group], passedOver: [PassedOverFile]) {
        var explicitFiles: [String] = []
        var walked = Walk()
        var folders = FolderWalk()
        for given in paths {
            let path = WalkPolicy.normalized(given)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .missing(path)
            }
            if isDirectory.boolValue {
                walked.roots.append(path)
                walked.realRoots.append(FilePaths.realPath(path) ?? path)
                walked.boundaries.append(Boundary(walking: walked.realRoots.last!))
                do {
                    try folders.walk(path) { folder, entry in Self.visit(entry, in: folder, &walked) }
                } catch {
                    // A folder named on the command line must be listed; one met by the walk is passed over.
                    throw .unreadable(path, "cannot list folder")
                }
            } else {
                if let kind = FileIdentity.specialKind(path) { throw .unreadable(path, "\(kind), not a regular file") }
                guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadable(path, "permission denied") }
                // Named, a file is read whatever the case of its extension (`Products.PLIST`).
                guard Self.isCatalogFile((path as NSString).lastPathComponent.lowercased()) else { throw .notCatalogFile(path) }
                explicitFiles.append(path)
            }
        }
        walked.resolveLinks()
        var groups = walked.groups()
        if !explicitFiles.isEmpty {
            let unique = Array(Set(explicitFiles)).sorted()
            groups.append(Group(name: Self.commonFolder(unique), paths: unique, explicit: true))
        }
        let sorted = groups.sorted { $0.name == $1.name ? $0.paths.lexicographicallyPrecedes($1.paths) : $0.name < $1.name }
        return (sorted, walked.passedOver)
    }

    /// Whether a file name is one this tool reads.
    public static func isCatalogFile(_ name: String) -> Bool {
        name.hasSuffix(".plist") || name.hasSuffix(".storekit")
    }

    /// What a walk saw: candidate files by folder, and the folders that are app roots.
    struct Walk {
        /// The roots as given, and with their links resolved (as `FolderWalk` holds them), to
        /// show a link's target in the form the user gave.
        var roots: [String] = []
        var realRoots: [String] = []
        /// Each root's boundary (`Boundary`), in the same order.
        var boundaries: [Boundary] = []
        /// Folders and files already met (device and inode): a link loop or a second link to one
        /// file is passed over, never walked or read twice.
        var visitedFiles = Set<FileIdentity>()
        /// Links to catalog files inside the roots, in walk order.
        var linkedFiles: [(folder: String, path: String, id: FileIdentity)] = []
        var passedOver: [PassedOverFile] = []

        /// Adds the linked files whose file the walk did not meet itself; the others are passed over.
        mutating func resolveLinks() {
            for link in linkedFiles {
                if visitedFiles.insert(link.id).inserted {
                    filesByFolder[link.folder, default: []].append(link.path)
                } else {
                    passedOver.append(PassedOverFile(path: link.path, reason: "a link to \(shown(FilePaths.realPath(link.path) ?? link.path)), which is read there"))
                }
            }
            linkedFiles = []
        }

        /// A link's resolved target as the user reads it: inside a walked folder, in that folder's
        /// form (`App/IAP_ProductIDs.plist`); outside, relative to the working folder. Never the
        /// machine's absolute path unless the folder was named by one.
        func shown(_ real: String) -> String {
            for (root, realRoot) in zip(roots, realRoots) {
                if real == realRoot { return root }
                let prefix = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
                if real.hasPrefix(prefix) { return WalkPolicy.joined(root, String(real.dropFirst(prefix.count))) }
            }
            return WalkPolicy.relativeToWorkingFolder(real)
        }

        var filesByFolder: [String: [String]] = [:]
        var projectsByFolder: [String: [String]] = [:]
        var configurationsByFolder: [String: [String]] = [:]
        var schemesByFolder: [String: [String]] = [:]
        var workspaces: [String] = []
        var appRoots = Set<String>()

        /// The walk root a folder is in (the deepest one, when roots nest), by its index.
        func rootIndex(of folder: String) -> Int? {
            roots.indices.filter { Self.isInside(folder, roots[$0]) }.max { roots[$0].count < roots[$1].count }
        }

        /// The app root of a folder: the nearest marked folder at or above it, not above the walk root.
        func appRoot(of folder: String) -> String {
            let root = rootIndex(of: folder).map { roots[$0] }
            var current = folder
            while true {
                if appRoots.contains(current) { return current }
                guard let root, current != root, Self.isInside(current, root) else { return folder }
                let parent = (current as NSString).deletingLastPathComponent
                current = parent.isEmpty ? "." : parent
            }
        }

        /// Whether `folder` is `root` or below it, in the walk's path form (`App` is inside `.`).
        static func isInside(_ folder: String, _ root: String) -> Bool {
            if folder == root { return true }
            if root == "." { return !folder.hasPrefix("/") && folder != ".." && !folder.hasPrefix("../") }
            return folder.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }

        func groups() -> [Group] {
            var byRoot: [String: Group] = [:]
            func add(_ folder: String, _ body: (inout Group) -> Void) {
                let root = appRoot(of: folder)
                var group = byRoot[root] ?? Group(name: root, paths: [], boundary: rootIndex(of: folder).map { boundaries[$0] })
                body(&group)
                byRoot[root] = group
            }
            for (folder, files) in filesByFolder { add(folder) { $0.paths += files } }
            for (folder, files) in projectsByFolder { add(folder) { $0.projects += files } }
            for (folder, files) in configurationsByFolder { add(folder) { $0.buildConfigurations += files } }
            for (folder, files) in schemesByFolder { add(folder) { $0.schemes += files } }
            return byRoot.values.filter { !$0.paths.isEmpty }.map { group in
                var sorted = group
                sorted.paths.sort()
                sorted.projects.sort()
                sorted.buildConfigurations.sort()
                sorted.schemes.sort()
                if !sorted.schemes.isEmpty {
                    // Nearest first: the workspace in the root, then the one in its folder, ….
                    sorted.workspaces = workspaces.filter { Self.isInside(group.name, XcodeScheme.parent($0)) }
                        .sorted { (XcodeScheme.parent($1).count, $0) < (XcodeScheme.parent($0).count, $1) }
                }
                return sorted
            }
        }
    }

    /// What discovery does with each entry the walk meets: catalog files, projects, build
    /// settings and app markers are noted by folder; what is passed over is said (`--verbose`).
    private static func visit(_ entry: FolderWalk.Entry, in folder: String, _ walked: inout Walk) -> Bool {
        switch entry {
        case .junk(let path, let why, let isFolder):
            // Said with --verbose, so a catalog kept in such a folder can be found and named.
            walked.passedOver.append(PassedOverFile(path: path, reason: why, isFolder: isFolder))
        case .missing(let path, let name, let isLink):
            // Deleted while the walk runs, or a link to nothing: nothing to read.
            if isLink, isCatalogFile(name) || !name.contains(".") {
                walked.passedOver.append(PassedOverFile(path: path, reason: "a link to nothing"))
            }
        case .special(let path, let name, let kind):
            if isCatalogFile(name) { walked.passedOver.append(PassedOverFile(path: path, reason: "\(kind), not a regular file: not read")) }
        case .linkOut(let path, let name, let real, let status):
            if status.isFolder || isCatalogFile(name) {
                walked.passedOver.append(PassedOverFile(path: path, reason: "a link to \(walked.shown(real)), outside the folders checked: not followed"))
            }
        case .folderAgain(let path, _, let real):
            walked.passedOver.append(PassedOverFile(path: path, reason: "a link to \(walked.shown(real)), a folder already checked: not walked again"))
        case .unlisted(let path, let reason):
            walked.passedOver.append(PassedOverFile(path: path, reason: "a folder that cannot be listed (\(reason))", isFolder: true))
        case .folder(let path, let name, _):
            let ext = (name as NSString).pathExtension
            if ext == "xcodeproj" || ext == "xcworkspace" { walked.appRoots.insert(folder) }
            if ext == "xcodeproj" {
                let project = path + "/project.pbxproj"
                // A link in the bundle may lead anywhere: the project is read only inside the boundary.
                if let confined = walked.boundaries.last?.confined(from: path) {
                    if let why = confined.escape("project.pbxproj") {
                        walked.passedOver.append(PassedOverFile(path: project, reason: "an Xcode project that \(why): not read"))
                    } else if FileManager.default.isReadableFile(atPath: project) {
                        walked.projectsByFolder[folder, default: []].append(project)
                    }
                }
                walked.schemesByFolder[folder, default: []] += sharedSchemes(of: path)
            }
            if ext == "xcworkspace" { walked.workspaces.append(path) }
            // Xcode can store a .storekit file inside a folder named like one.
            return !opaqueFolderExtensions.contains(ext)
        case .file(let path, let name, let status):
            if isCatalogFile(name) {
                // A link is read only when the walk does not meet its file itself (see `discover`).
                if status.isLink {
                    walked.linkedFiles.append((folder, path, status.identity))
                } else if walked.visitedFiles.insert(status.identity).inserted {
                    walked.filesByFolder[folder, default: []].append(path)
                }
            } else if (name as NSString).pathExtension == "xcconfig" {
                walked.configurationsByFolder[folder, default: []].append(path)
            } else if markerFiles.contains(name) {
                walked.appRoots.insert(folder)
                // A generated project's spec sets the bundle ID where no .xcodeproj is committed.
                if ProjectSpec.fileNames.contains(name), !status.isLink { walked.projectsByFolder[folder, default: []].append(path) }
            }
        }
        return false
    }

    /// The shared schemes of the project at `project`: `.xcscheme` entries of its
    /// `xcshareddata/xcschemes` folder. A link, on the way or as an entry, is not followed (it may
    /// lead outside the folders walked); what an entry is, the reader finds when it opens it
    /// (`XcodeScheme.read`, which opens nothing but a regular file).
    static func sharedSchemes(of project: String) -> [String] {
        let shared = project + "/xcshareddata", folder = shared + "/xcschemes"
        guard !FileIdentity.isLink(shared), !FileIdentity.isLink(folder),
              case .success(let entries) = FolderWalk.names(in: folder) else { return [] }
        return entries.filter { $0.hasSuffix(".xcscheme") && WalkPolicy.fileReason($0) == nil }.map { folder + "/" + $0 }
            .filter { !FileIdentity.isLink($0) }
    }

    /// Whether `folder` is `root` or below it, in the walk's path form (`App` is inside `.`).
    public static func isInside(_ folder: String, _ root: String) -> Bool {
        Walk.isInside(WalkPolicy.normalized(folder.isEmpty ? "." : folder), WalkPolicy.normalized(root))
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
