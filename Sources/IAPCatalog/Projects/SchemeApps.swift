import Foundation

/// Which app each `.storekit` file of an app root runs with, as the root's shared Xcode schemes
/// say: a scheme's Run action names a StoreKit configuration and the target it launches, and that
/// target's `PRODUCT_BUNDLE_IDENTIFIER` is the app's. One `.xcodeproj` with two app targets (a
/// free and a pro app, an iOS and a macOS app), each with its scheme and its own unsynced
/// `.storekit`, is two apps; `CatalogLoader.splitByApp` makes them two catalogs.
///
/// A scheme that cannot be read or does not parse is passed over (said under `--verbose`); one
/// that names no StoreKit configuration, a file that is not one of the root's `.storekit` files,
/// or a target that is not an application with a written-out bundle ID says nothing.
struct SchemeApps {
    /// The schemes of `schemes` whose Run action names each of `storeKitFiles` (by its path as
    /// given), sorted; a file no scheme names is not a key. Schemes that cannot be read say nothing.
    static func runs(storeKitFiles: [String], schemes: [String], workspaces: [String]) -> [String: [String]] {
        guard !storeKitFiles.isEmpty else { return [:] }
        let byPath = Dictionary(storeKitFiles.map { (XcodeScheme.normalized($0), $0) }, uniquingKeysWith: { first, _ in first })
        var found: [String: [String]] = [:]
        for path in schemes {
            guard case .success(let scheme) = XcodeScheme.read(path), let identifier = scheme.storeKitConfiguration,
                  let file = XcodeScheme.storeKitCandidates(identifier, scheme: path, workspaces: workspaces).lazy
                      .compactMap({ byPath[$0] }).first else { continue }
            found[file, default: []].append(path)
        }
        return found.mapValues { $0.sorted() }
    }

    /// The app of each `.storekit` file a scheme runs with, by path: a key the files of one app share.
    private(set) var appOf: [String: String] = [:]
    /// Each app's bundle IDs: one, or more when one file is run by targets of different IDs
    /// (then those targets share a catalog, and are one app here).
    private(set) var bundleIDs: [String: Set<String>] = [:]
    /// The schemes that could not be read, with why.
    private(set) var passedOver: [PassedOverFile] = []

    /// `storeKitFiles`: the root's `.storekit` files; `schemes`, `workspaces`: the group's
    /// (`FileDiscovery.Group`); `projects` and `configurations`: where the targets' bundle IDs are.
    init(storeKitFiles: [String], schemes: [String], workspaces: [String], projects: [String], configurations: [String]) {
        let byPath = Dictionary(storeKitFiles.map { (XcodeScheme.normalized($0), $0) }, uniquingKeysWith: { first, _ in first })
        var runs: [(file: String, scheme: String, target: XcodeScheme.Target)] = []
        for path in schemes {
            switch XcodeScheme.read(path) {
            case .failure(let failure):
                passedOver.append(PassedOverFile(path: path, reason: failure.reason))
            case .success(let scheme):
                guard let identifier = scheme.storeKitConfiguration, let target = scheme.launched,
                      let file = XcodeScheme.storeKitCandidates(identifier, scheme: path, workspaces: workspaces).lazy
                          .compactMap({ byPath[$0] }).first else { continue }
                runs.append((file, path, target))
            }
        }
        guard !runs.isEmpty else { return }
        // Projects are read only when a scheme runs with one of the files here.
        let settings = BuildSettings(files: configurations)
        var targetsByProject: [String: [XcodeProject.AppTarget]] = [:]
        for project in projects where (project as NSString).lastPathComponent == "project.pbxproj" {
            targetsByProject[XcodeScheme.parent(project)] = XcodeProject(path: project, settings: settings)?.appTargets ?? []
        }
        var idsOf: [String: [String]] = [:]
        for run in runs {
            guard let target = Self.target(run.target, ofScheme: run.scheme, in: targetsByProject),
                  let id = target.bundleID, !id.isEmpty, !id.contains("$") else { continue }
            if !(idsOf[run.file]?.contains(id) ?? false) { idsOf[run.file, default: []].append(id) }
        }
        // Bundle IDs that share a file are one app, keyed by its smallest ID.
        var parent: [String: String] = [:]
        func root(_ id: String) -> String {
            var id = id
            // Path halving: each step points a node at its grandparent.
            while let up = parent[id], up != id {
                let grand = parent[up] ?? up
                parent[id] = grand
                id = grand
            }
            return id
        }
        for ids in idsOf.values {
            for id in ids where parent[id] == nil { parent[id] = id }
            for (a, b) in zip(ids, ids.dropFirst()) {
                let (ra, rb) = (root(a), root(b))
                if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
            }
        }
        for (file, ids) in idsOf { appOf[file] = root(ids[0]) }
        for id in parent.keys { bundleIDs[root(id), default: []].insert(id) }
    }

    /// The application target a scheme launches: by its object ID in the scheme's own project,
    /// then in the root's other projects (a workspace scheme); by name in its own project only
    /// when the scheme gives no ID. The container's name is not trusted: Xcode keeps it stale
    /// after a project is renamed.
    static func target(_ launched: XcodeScheme.Target, ofScheme scheme: String,
                       in targetsByProject: [String: [XcodeProject.AppTarget]]) -> XcodeProject.AppTarget? {
        let own = XcodeScheme.projectPath(ofScheme: scheme).flatMap { targetsByProject[$0] } ?? []
        guard let id = launched.blueprintIdentifier else {
            return launched.blueprintName.flatMap { name in own.first { $0.name == name } }
        }
        if let target = own.first(where: { $0.identifier == id }) { return target }
        for project in targetsByProject.keys.sorted() {
            if let target = targetsByProject[project]!.first(where: { $0.identifier == id }) { return target }
        }
        return nil
    }
}
