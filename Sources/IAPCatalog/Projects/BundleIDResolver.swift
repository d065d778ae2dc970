import Diagnostics
import Foundation
import Support

/// Finds an app's bundle ID among its `Info.plist` files and Xcode projects.
///
/// Candidates are the literal `CFBundleIdentifier` of the app's own `Info.plist` files (not an
/// extension's, a test bundle's, …) and the `PRODUCT_BUNDLE_IDENTIFIER` of the projects'
/// application targets, with build variables expanded from the projects and `.xcconfig` files.
/// The candidate that most product IDs start with wins (an app target per platform, or a pro and
/// a free app, share one folder); then an `Info.plist` over a project; then the shorter ID.
struct BundleIDResolver {
    struct Candidate {
        var id: Located<String>
        var fromInfoPlist: Bool
        var order: Int
    }

    /// The `Info.plist`s of the catalog's app and of what is not an app (extensions, tests, …).
    let bundles: [(info: BundleInfo, strict: Bool)]
    /// The other apps' `Info.plist`s, which the catalog is not paired with.
    let otherApps: [BundleInfo]
    private(set) var candidates: [Candidate] = []
    private(set) var targets: [XcodeProject.AppTarget] = []
    /// What the project specs did not follow (an include out of the boundary, past the caps).
    private(set) var specsPassedOver: [PassedOverFile] = []
    /// The steps product IDs took through the candidates' trie (`CandidatePrefixes`): the work
    /// scoring did, the candidates' lengths aside.
    private(set) var scoringSteps = 0
    let bundleID: Located<String>?

    /// The app `Info.plist`s the catalog is paired with, and the others (`AppPairing`).
    let pairing: AppPairing
    /// The catalog's own files (not `Info.plist`s): where an ambiguous pairing is said.
    let catalogFiles: [String]

    /// `app`: the bundle IDs of the app targets the catalog's shared schemes run with its
    /// `.storekit` files (`SchemeApps`); when given, only those are candidates, and only those
    /// targets name the app. `boundary`: what the files project specs include must stay inside
    /// (`FileDiscovery.Group.boundary`). `catalogFiles`: the catalog's own files, which pair it
    /// with the app it belongs to when several apps' `Info.plist`s are beside it (`AppPairing`).
    init(bundles: [(info: BundleInfo, strict: Bool)], projects: [String], configurations: [String], productIDs: [String],
         app: Set<String> = [], boundary: FileDiscovery.Boundary? = nil, catalogFiles: [String] = []) {
        self.catalogFiles = catalogFiles
        pairing = AppPairing(catalogFiles: catalogFiles, apps: bundles.filter { Self.isTheApps($0.info, $0.strict) })
        let otherApps = Set(pairing.others.map { WalkPolicy.normalized($0.path) })
        // Another app's Info.plist lends this catalog nothing.
        let bundles = bundles.filter { !otherApps.contains(WalkPolicy.normalized($0.info.path)) }
        self.bundles = bundles
        self.otherApps = pairing.others
        let settings = BuildSettings(files: configurations)
        for project in projects {
            if ProjectSpec.fileNames.contains((project as NSString).lastPathComponent) {
                let spec = ProjectSpec.read(path: project, boundary: boundary)
                targets += spec.targets
                specsPassedOver += spec.passedOver
            } else {
                targets += XcodeProject(path: project, settings: settings)?.appTargets ?? []
            }
        }
        if !app.isEmpty { targets = targets.filter { $0.bundleID.map(app.contains) ?? false } }
        // Nor does the target built with it.
        targets = targets.filter { target in target.infoPlist.map { !otherApps.contains(WalkPolicy.normalized($0)) } ?? true }
        let appPlists = Set(targets.compactMap(\.infoPlist))
        var order = 0
        for (info, strict) in bundles where Self.isTheApps(info, strict) || appPlists.contains(info.path) {
            guard let id = info.bundleID, !id.value.contains("$"), app.isEmpty || app.contains(id.value) else { continue }
            candidates.append(Candidate(id: id, fromInfoPlist: true, order: order))
            order += 1
        }
        for target in targets {
            guard let id = target.bundleID, !id.isEmpty else { continue }
            candidates.append(Candidate(id: Located(id, at: target.location), fromInfoPlist: false, order: order))
            order += 1
        }
        let projectNames = Set(projects.map { (($0 as NSString).deletingLastPathComponent as NSString).deletingPathExtension.lowercased() })
        let names = Dictionary(targets.compactMap { t in t.bundleID.map { ($0, t.name) } }, uniquingKeysWith: { a, _ in a })
        // One candidate (or none) needs no scoring against every product ID.
        guard candidates.count > 1 else {
            bundleID = candidates.first?.id
            return
        }
        let candidates = candidates
        var prefixes = CandidatePrefixes(candidates: candidates.lazy.map { $0.id.value.lowercased() })
        for id in productIDs { prefixes.count(id.lowercased()) }
        scoringSteps = prefixes.steps
        bundleID = candidates.indices.map { index -> (Candidate, Score) in
            let candidate = candidates[index]
            let name = names[candidate.id.value]?.lowercased() ?? ""
            return (candidate, Score(
                matches: prefixes.matches(index),
                commonPrefix: prefixes.commonPrefix(index),
                shipped: !Self.previewWords.contains { name.contains($0) },
                namedLikeProject: projectNames.contains(name),
                fromInfoPlist: candidate.fromInfoPlist, length: prefixes.length(index), order: candidate.order))
        }.min { $0.1 < $1.1 }?.0.id
    }

    /// The app's own `Info.plist`, or one named on the command line (taken as the user says).
    static func isTheApps(_ info: BundleInfo, _ strict: Bool) -> Bool { strict || info.role == .app }

    /// Targets named like these are preview or demo apps, not the app the catalog sells in.
    static let previewWords = ["preview", "demo", "sample", "example", "playground"]

    /// How a candidate ranks, best first: most product IDs under it, then the longest start in
    /// common with one (`co.acme.words` for `co.acme.words_testing.game`), a shipping app over a
    /// preview app, the target named like its project, an Info.plist over a project, the shorter ID.
    struct Score: Comparable {
        var matches: Int
        var commonPrefix: Int
        var shipped: Bool
        var namedLikeProject: Bool
        var fromInfoPlist: Bool
        var length: Int
        var order: Int

        static func < (a: Score, b: Score) -> Bool {
            if a.matches != b.matches { return a.matches > b.matches }
            if a.commonPrefix != b.commonPrefix { return a.commonPrefix > b.commonPrefix }
            if a.shipped != b.shipped { return a.shipped }
            if a.namedLikeProject != b.namedLikeProject { return a.namedLikeProject }
            if a.fromInfoPlist != b.fromInfoPlist { return a.fromInfoPlist }
            if a.length != b.length { return a.length < b.length }
            return a.order < b.order
        }
    }

    /// What the app is called: its targets' names and its `Info.plist` display names.
    var appNames: [String] {
        var names: [String] = []
        var seen = Set<String>()
        // A set, not `names.contains`: a project (or spec) of 20,000 targets is one pass.
        for name in targets.flatMap(\.names) + bundles.filter({ Self.isTheApps($0.info, $0.strict) }).flatMap(\.info.names)
        where seen.insert(name).inserted {
            names.append(name)
        }
        return names
    }

    /// The `Info.plist` whose `CFBundleIdentifier` is the bundle ID, if one is.
    func lender(of bundleID: Located<String>?) -> BundleInfo? {
        guard let bundleID else { return nil }
        return bundles.first { $0.info.bundleID == bundleID }?.info
    }

    /// `unresolved-bundle-id` at the app's `Info.plist` (or its target) when its bundle ID is a
    /// build variable that no project or configuration file here defines.
    func unresolvedFinding() -> Diagnostic? {
        let unresolved = bundles.filter { Self.isTheApps($0.info, $0.strict) && ($0.info.bundleID?.value.contains("$(") ?? false) }
        if pairing.isAmbiguous, unresolved.count > 1, let file = catalogFiles.first {
            // Which app sells it is not known: said at the catalog, never at an app.
            let apps = unresolved.map(\.info.path)
            return UnresolvedBundleIDRule.description.finding(
                "the catalog's bundle ID is unknown: it sits beside \(apps.count) apps (\(apps.joined(separator: ", "))) whose CFBundleIdentifier is "
                    + "a build setting, and nothing tells which one sells it; name its app's bundle ID to check ID prefixes",
                at: SourceLocation(path: file), fix: SuggestedFix(Self.bundleIDAdvice(catalogFiles)))
        }
        let appBundle = unresolved.first
        let location: SourceLocation
        let what: String
        if let appBundle, let id = appBundle.info.bundleID {
            (location, what) = (id.location, "CFBundleIdentifier is \(Quote.bounded(id.value))")
        } else if let target = targets.first(where: { $0.bundleID == nil }) {
            (location, what) = (target.location, "PRODUCT_BUNDLE_IDENTIFIER of target \(Quote.bounded(target.name)) is \(Quote.bounded(target.rawBundleID))")
        } else {
            return nil
        }
        return UnresolvedBundleIDRule.description.finding("\(what), a build setting this tool cannot expand: pass --bundle-id com.your.app to check ID prefixes",
                                                          at: location, fix: SuggestedFix(Self.bundleIDAdvice(catalogFiles)))
    }

    /// What to run to check a catalog with its app's bundle ID: `--bundle-id` with the catalog's
    /// own files, so that in a repository of several apps it applies to this catalog alone.
    static func bundleIDAdvice(_ catalogFiles: [String]) -> String {
        guard !catalogFiles.isEmpty else { return "run with --bundle-id set to the app's PRODUCT_BUNDLE_IDENTIFIER" }
        return "check this catalog with its app's PRODUCT_BUNDLE_IDENTIFIER: `iap validate \(Escape.shellArguments(catalogFiles)) --bundle-id com.your.app`"
    }

    /// The `Info.plist` files that lent nothing, with why, and what the project specs did not follow.
    func passedOver(lent: Located<String>?, hasCatalog: Bool) -> [PassedOverFile] {
        let others = otherApps.map { info in
            PassedOverFile(path: info.path, reason: "another app's Info.plist: the catalog beside it belongs to the app of "
                           + "\(pairing.paired.map(\.path).joined(separator: " or ")), nearer to its files or named like it")
        }
        return specsPassedOver + others + bundles.compactMap { info, _ in
            if let lent, info.bundleID == lent { return nil }
            let reason: String
            switch info.role {
            case .other(let whose): reason = "\(whose) Info.plist: lends no bundle ID to a catalog"
            case .app:
                if !hasCatalog {
                    reason = "the app's Info.plist, but the app has no catalog"
                } else if let lent {
                    reason = "an Info.plist of the app; the bundle ID comes from \(lent.location)"
                } else {
                    reason = "the app's Info.plist, whose bundle ID \(Quote.bounded(info.bundleID?.value ?? "")) is not written out"
                }
            }
            return PassedOverFile(path: info.path, reason: reason + (info.preprocessed ? " (preprocessor lines evaluated with no macro defined)" : ""))
        }
    }
}
