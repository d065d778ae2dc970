import Diagnostics
import Foundation
import PropertyList
import Support

/// Reads the files of catalogs and merges their products by ID.
public struct CatalogLoader: Sendable {
    /// `--bundle-id`: wins over `Info.plist` and the metadata plist.
    public var bundleIDOverride: String?
    /// Where the override was given, for the "bundle ID from here" note.
    public var bundleIDOverrideSource = SourceLocation(path: "--bundle-id")
    public var reader = PlistReader()

    public init(bundleIDOverride: String? = nil) {
        self.bundleIDOverride = bundleIDOverride
    }

    /// What a load found: the catalogs, and the files a walk passed over (with why).
    public struct Result: Sendable {
        public var catalogs: [Catalog]
        public var passedOver: [PassedOverFile]
    }

    /// Every catalog under `paths` (see `FileDiscovery` for how files group into catalogs).
    public func load(paths: [String]) throws(FileDiscovery.Failure) -> [Catalog] {
        try loadAll(paths: paths).catalogs
    }

    /// Every catalog under `paths`, and the files passed over. A group of files that holds no
    /// catalog file (only `Info.plist`s and other plists) is no catalog.
    public func loadAll(paths: [String]) throws(FileDiscovery.Failure) -> Result {
        let discovered = try FileDiscovery().discover(paths)
        var result = Result(catalogs: [], passedOver: discovered.passedOver)
        for group in discovered.groups {
            var noted = Set<PassedOverFile>()
            // Each file is read once; the readings are split by app, then merged.
            var (parts, schemesPassedOver) = Self.splitByApp(read(group.paths.map { ($0, group.explicit) }), group: group)
            result.passedOver += schemesPassedOver
            for index in parts.indices {
                // The part's readings leave the list, so that `assemble` holds the only reference
                // to them and moves a million occurrences into products without copying them.
                let (name, bundleIDs, reads) = (parts[index].name, parts[index].bundleIDs, parts[index].reads)
                parts[index].reads = []
                let (catalog, passedOver, unreadable) = assemble(name: name, reads: reads, projects: group.projects,
                                                                 configurations: group.buildConfigurations, app: bundleIDs,
                                                                 boundary: group.boundary)
                // A file that cannot be read, named or found, stops the run with the OS's reason:
                // checking the rest as if it were the whole catalog would pass what nobody checked.
                if let (path, why) = unreadable.first { throw .unreadable(path, why) }
                var found = catalog
                Self.markSchemeRuns(&found, group: group)
                if !found.files.isEmpty { result.catalogs.append(found) }
                // Each app of the group reads its specs: what they passed over is said once.
                result.passedOver += passedOver.filter { noted.insert($0).inserted }
            }
        }
        result.passedOver.sort { $0.path < $1.path }
        return result
    }

    /// One file as read: its path, whether it was named, and what reading it gave.
    typealias FileRead = (path: String, strict: Bool, reading: FileReading)

    /// One app's part of a group: its name (a path), its files' readings, and the bundle IDs of
    /// the app targets that run with its `.storekit` files (none: the bundle ID is found as usual).
    typealias AppPart = (name: String, reads: [FileRead], bundleIDs: Set<String>)

    /// Marks each `.storekit` file of `catalog` with the shared schemes of its group that run
    /// with it (`CatalogFile.runBySchemes`).
    static func markSchemeRuns(_ catalog: inout Catalog, group: FileDiscovery.Group) {
        guard !group.schemes.isEmpty else { return }
        let storeKit = catalog.files.filter { if case .storeKit = $0.content { true } else { false } }.map(\.path)
        let runs = SchemeApps.runs(storeKitFiles: storeKit, schemes: group.schemes, workspaces: group.workspaces)
        guard !runs.isEmpty else { return }
        for index in catalog.files.indices {
            catalog.files[index].runBySchemes = runs[catalog.files[index].path] ?? []
        }
    }

    /// A group's readings split by app. `.storekit` files synced from different App Store Connect
    /// apps (different `_applicationInternalID`s) are two apps' catalogs, whether walked in one
    /// folder or named together; else, within an app root, `.storekit` files that the project's
    /// shared schemes run with targets of different bundle IDs are (`SchemeApps`). Every other file
    /// joins the app whose file shares the longest folder with it. One app, or none known, is one
    /// catalog. Schemes are read only when the group holds two `.storekit` files or more.
    static func splitByApp(_ reads: [FileRead], group: FileDiscovery.Group) -> (parts: [AppPart], passedOver: [PassedOverFile]) {
        var synced: [String: String] = [:]
        var storeKitFiles: [String] = []
        for read in reads {
            guard case .catalog(let reading) = read.reading else { continue }
            if let app = reading.appStoreConnectApp { synced[read.path] = app }
            if read.path.lowercased().hasSuffix(".storekit") { storeKitFiles.append(read.path) }
        }
        if Set(synced.values).count > 1 {
            return (split(reads, name: group.name, appOf: synced).map { ($0.name, $0.reads, []) }, [])
        }
        guard storeKitFiles.count > 1, !group.schemes.isEmpty else { return (split(reads, name: group.name, appOf: group.projects.isEmpty ? nearestApps(reads) : [:]).map { ($0.name, $0.reads, []) }, []) }
        let apps = SchemeApps(storeKitFiles: storeKitFiles, schemes: group.schemes, workspaces: group.workspaces,
                              projects: group.projects, configurations: group.buildConfigurations)
        return (split(reads, name: group.name, appOf: apps.appOf).map { ($0.name, $0.reads, $0.app.flatMap { apps.bundleIDs[$0] } ?? []) },
                apps.passedOver)
    }

    /// The app of each catalog file when a root with no project or project spec (whose targets
    /// name the apps, and which a catalog named by its app's folder would no longer read) holds
    /// several apps' own `Info.plist`s in folders of their own (a workspace whose projects are
    /// generated, not committed) and every catalog
    /// file sits nearer to one of them than to any other: each app's catalog files are its own
    /// catalog. A file as near to two apps (a catalog at the root, a shared metadata plist), or
    /// apps whose written-out bundle IDs are one, keep the root one catalog (`AppPairing` then
    /// tells which app it is). Empty: no split.
    static func nearestApps(_ reads: [FileRead]) -> [String: String] {
        var apps: [BundleInfo] = []
        var catalogFiles: [String] = []
        for read in reads {
            switch read.reading {
            case .bundle(let info) where BundleIDResolver.isTheApps(info, read.strict): apps.append(info)
            case .catalog: catalogFiles.append(read.path)
            default: break
            }
        }
        let literal = apps.compactMap { $0.bundleID?.value }.filter { !$0.contains("$") }
        guard apps.count > 1, !catalogFiles.isEmpty, Set(literal).count == literal.count,
              !reads.contains(where: { $0.strict }) else { return [:] }
        var appOf: [String: String] = [:]
        for file in catalogFiles {
            let folder = AppPairing.folder(file)
            let depths = apps.map { AppPairing.sharedDepth(folder, AppPairing.folder($0.path)) }
            guard let best = depths.max(), depths.filter({ $0 == best }).count == 1,
                  let index = depths.firstIndex(of: best) else { return [:] }
            appOf[file] = apps[index].path
        }
        // Each app's Info.plist anchors its app: an app that sells nothing is a part with no
        // catalog file, which no catalog is made of.
        for app in apps { appOf[app.path] = app.path }
        return appOf
    }

    /// `reads` split by app, given the app of some of them (the anchors): every other file joins
    /// the app whose anchor shares the longest folder with it (the first app, by path, when two
    /// share as much). Apps come in the order of their first anchor by path. With one app or none,
    /// the group is one part.
    static func split(_ reads: [FileRead], name: String, appOf: [String: String]) -> [(name: String, app: String?, reads: [FileRead])] {
        guard Set(appOf.values).count > 1 else { return [(name, nil, reads)] }
        // Each app's anchors, the app of the first such file by path first.
        let anchors = appOf.keys.sorted()
        var order: [String] = []
        for path in anchors where !order.contains(appOf[path]!) { order.append(appOf[path]!) }
        var members: [String: [FileRead]] = [:]
        for read in reads {
            if let app = appOf[read.path] { members[app, default: []].append(read); continue }
            let folder = (read.path as NSString).deletingLastPathComponent
            var best: (app: String, shared: Int)?
            for anchor in anchors {
                let shared = Self.sharedFolderDepth(folder, (anchor as NSString).deletingLastPathComponent)
                if best == nil || shared > best!.shared { best = (appOf[anchor]!, shared) }
            }
            if let best { members[best.app, default: []].append(read) }
        }
        return order.compactMap { app in
            guard let part = members[app], !part.isEmpty else { return nil }
            // A path (init writes catalog names into iap.yml): the app's files' own folder; two
            // apps in one folder both name it, and reading it splits them again.
            let common = FileDiscovery.commonFolder(part.map(\.path))
            return (common.isEmpty ? name : common, app, part)
        }
    }

    /// How many folders two folders share from the top.
    static func sharedFolderDepth(_ a: String, _ b: String) -> Int {
        zip(a.split(separator: "/"), b.split(separator: "/")).prefix { $0.0 == $0.1 }.count
    }

    /// One catalog from its files. Files named in `explicit` must be catalog files (or an
    /// `Info.plist`); the others are read as a walk reads them.
    /// A file that cannot be read is a finding here, for callers that check one catalog (`loadAll` stops instead).
    public func loadCatalog(name: String, paths: [String], explicit: Set<String> = []) -> Catalog {
        var (catalog, _, unreadable) = load(name: name, files: paths.map { ($0, explicit.contains($0)) }, projects: [], configurations: [])
        for (path, why) in unreadable {
            catalog.loadDiagnostics.append(MalformedCatalogRule.description.finding("cannot read the file: \(why)", at: SourceLocation(path: path)))
        }
        return catalog
    }

    private func load(name: String, files paths: [(String, Bool)], projects: [String],
                      configurations: [String]) -> (Catalog, [PassedOverFile], [(String, String)]) {
        assemble(name: name, reads: read(paths), projects: projects, configurations: configurations)
    }

    /// Each file read by the catalog file reader, in order.
    private func read(_ paths: [(String, Bool)]) -> [FileRead] {
        let fileReader = CatalogFileReader(reader: reader)
        return paths.map { ($0.0, $0.1, fileReader.read($0.0, strict: $0.1)) }
    }

    /// One catalog from its files' readings.
    /// `app`: the bundle IDs of the app targets that run with the catalog's `.storekit` files (from
    /// the shared schemes); with some, the bundle ID is one of them.
    /// `reads` is consumed: each reading is taken out of it, so the occurrences are referenced once
    /// when `merge` moves them into products (a second reference would make it copy them all).
    private func assemble(name: String, reads: consuming [FileRead], projects: [String], configurations: [String],
                          app: Set<String> = [], boundary: FileDiscovery.Boundary? = nil) -> (Catalog, [PassedOverFile], [(String, String)]) {
        var files: [CatalogFile] = []
        var occurrences: [ProductOccurrence] = []
        var diagnostics: [Diagnostic] = []
        var metadataBundle: Located<String>?
        var retired: [String: SourceLocation] = [:]
        var requiredLocales: [String] = []
        var bundles: [(info: BundleInfo, strict: Bool)] = []
        var passedOver: [PassedOverFile] = []
        var unreadable: [(String, String)] = []

        for index in reads.indices {
            let (path, strict, read) = reads[index]
            reads[index].reading = .passedOver("")
            let fileName = (path as NSString).lastPathComponent
            let reading: PlistReading
            switch read {
            case .passedOver(let why):
                passedOver.append(PassedOverFile(path: path, reason: why))
                continue
            case .unreadable(let why):
                unreadable.append((path, why))
                continue
            case .bundle(let info):
                bundles.append((info, strict))
                continue
            case .catalog(let r):
                reading = r
            }
            diagnostics += reading.diagnostics
            requiredLocales += reading.requiredLocales.filter { !requiredLocales.contains($0) }
            if CatalogFileReader.isRetiredList(fileName), case .productList = reading.content {
                files.append(CatalogFile(path: path, content: .retiredList, productCount: reading.occurrences.count))
                for occurrence in reading.occurrences where retired[occurrence.id] == nil {
                    retired[occurrence.id] = occurrence.location
                }
                continue
            }
            var file = CatalogFile(path: path, content: reading.content, productCount: reading.occurrences.count)
            file.syncedFromAppStoreConnect = reading.synced
            files.append(file)
            // The first file's occurrences are taken as they are: no second copy of a million.
            if occurrences.isEmpty { occurrences = reading.occurrences } else { occurrences += reading.occurrences }
            if let bundle = reading.bundleID { metadataBundle = metadataBundle ?? bundle }
        }
        let products = Self.merge(consume occurrences)
        var bundleID: Located<String>?
        if let override = bundleIDOverride {
            bundleID = Located(override, at: bundleIDOverrideSource)
        } else if let fromMetadata = metadataBundle {
            bundleID = fromMetadata
        }
        // An app without a catalog needs no bundle ID: its projects are not read.
        let resolver = BundleIDResolver(bundles: bundles, projects: files.isEmpty ? [] : projects,
                                        configurations: files.isEmpty ? [] : configurations, productIDs: products.map(\.id), app: app,
                                        boundary: boundary, catalogFiles: files.map(\.path))
        if bundleID == nil {
            bundleID = resolver.bundleID
            if bundleID == nil, !files.isEmpty, !products.isEmpty, let unresolved = resolver.unresolvedFinding() {
                diagnostics.append(unresolved)
            }
        }
        if !files.isEmpty, let lender = resolver.lender(of: bundleID) {
            files.append(CatalogFile(path: lender.path, content: .bundleInfo(lender.bundleID?.value), productCount: 0))
            files.sort { $0.path < $1.path }
        }
        passedOver += resolver.passedOver(lent: files.isEmpty ? nil : bundleID, hasCatalog: !files.isEmpty)
        var catalog = Catalog(name: name, files: files, bundleID: bundleID, products: products,
                              loadDiagnostics: diagnostics, retiredIDs: retired, requiredLocales: requiredLocales)
        catalog.appNames = resolver.appNames
        return (catalog, passedOver, unreadable)
    }

    /// Groups occurrences by exact ID and merges their metadata (our metadata plist first, then
    /// `.storekit`, then fields of the product list itself). Products come in product-list order,
    /// then metadata order, then `.storekit` order; each product points at its first occurrence
    /// in that order, so diagnostics name the line of the list the app loads.
    static func merge(_ occurrences: consuming [ProductOccurrence]) -> [Product] {
        // Stable partition by role (product lists, then metadata, then .storekit), by index: an
        // occurrence is copied once, into its product. Most loads hold one role, or roles in order.
        let roles: [ProductOccurrence.Role] = [.productList, .metadata, .storeKit]
        var inRoleOrder = true
        for i in occurrences.indices.dropFirst()
        where roles.firstIndex(of: occurrences[i].role)! < roles.firstIndex(of: occurrences[i - 1].role)! {
            inRoleOrder = false
            break
        }
        let order: [Int] = inRoleOrder ? [] : roles.flatMap { role in occurrences.indices.filter { occurrences[$0].role == role } }
        // Each product's first occurrence, and the rest for the few IDs found more than once,
        // through an open-addressing table over the IDs' case-folded hashes (each product keeps
        // its hash: case-duplicate-id groups by it without reading the IDs again).
        var firsts: [Int] = []
        var hashes: [UInt64] = []
        var more: [Int: [Int]] = [:]
        firsts.reserveCapacity(occurrences.count)
        hashes.reserveCapacity(occurrences.count)
        var bits = 1
        while 1 << bits < 2 * occurrences.count { bits += 1 }
        var table = [Int32](repeating: -1, count: 1 << bits)
        let mask = (1 << bits) - 1
        for n in occurrences.indices {
            let at = inRoleOrder ? n : order[n]
            let id = occurrences[at].id
            let hash = IDKeys.hash(id, .lower)
            var slot = Int(truncatingIfNeeded: hash >> UInt64(64 - bits)) & mask
            while true {
                let product = Int(table[slot])
                if product < 0 {
                    table[slot] = Int32(firsts.count)
                    firsts.append(at)
                    hashes.append(hash)
                    break
                }
                if hashes[product] == hash, occurrences[firsts[product]].id == id {
                    more[product, default: []].append(at)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        table = []
        // One occurrence per product, in order (a plain ID list): product i is occurrence i.
        let identity = inRoleOrder && more.isEmpty
        if identity { firsts = [] }
        // Products are built (and classified) on every core, each worker with its own kind
        // cache, in chunks of the catalog order: the same products whatever the thread count.
        // Each occurrence belongs to one product and is moved into it, never copied: a copy
        // retains the ID, the file's path (one string shared by every occurrence of the file,
        // whose count two threads would fight over) and the extras, and the array's end
        // releases them all again.
        let (firstAt, lowerHashes, repeats) = (firsts, hashes, more)
        let count = lowerHashes.count
        let workers = count < 20_000 ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        var occurrences = occurrences
        return occurrences.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let source = buffer
            @Sendable func take(_ index: Int) -> ProductOccurrence {
                let occurrence = (source.baseAddress! + index).move()
                // What is left behind holds no reference: nothing to retain now or release later.
                (source.baseAddress! + index).initialize(to: ProductOccurrence(id: "", location: SourceLocation(path: ""), role: .productList))
                return occurrence
            }
            @Sendable func product(_ index: Int, _ classifier: inout Classifier) -> Product {
                let first = take(identity ? index : firstAt[index])
                guard let others = repeats[index]?.map(take) else {
                    // One source: its own box is the product's (nil for a bare ID).
                    let (kind, reason) = classifier.classify(first, [], metadata: first.metadataBox)
                    return Product(first: first, others: [], kind: kind, reason: reason, metadataBox: first.metadataBox,
                                   lowerHash: lowerHashes[index])
                }
                let box = MetadataBox(mergedMetadata([first] + others))
                let (kind, reason) = classifier.classify(first, others, metadata: box)
                return Product(first: first, others: others, kind: kind, reason: reason, metadataBox: box, lowerHash: lowerHashes[index])
            }
            return [Product](unsafeUninitializedCapacity: count) { built, initialized in
                nonisolated(unsafe) let slots = built
                ParallelChunks.run(count: count, workers: workers) { chunk in
                    var classifier = Classifier()
                    for index in chunk {
                        (slots.baseAddress! + index).initialize(to: product(index, &classifier))
                    }
                }
                initialized = count
            }
        }
    }

    static func mergedMetadata(_ occurrences: [ProductOccurrence]) -> ProductMetadata {
        let sources = occurrences
            .sorted { KindInference.rolePriority($0.role) < KindInference.rolePriority($1.role) }
            .compactMap(\.metadata)
        guard var merged = sources.first else { return ProductMetadata() }
        for other in sources.dropFirst() {
            merged.kind = merged.kind ?? other.kind
            merged.referenceName = merged.referenceName ?? other.referenceName
            if merged.localizations.isEmpty { merged.localizations = other.localizations }
            // A price and its storefronts' prices come from one file (a price plan adopted whole).
            if merged.price == nil, merged.storefrontPrices.isEmpty {
                merged.price = other.price
                merged.storefrontPrices = other.storefrontPrices
                merged.priceStartDate = other.priceStartDate
            }
            merged.reviewNote = merged.reviewNote ?? other.reviewNote
            merged.availability = merged.availability ?? other.availability
            merged.subscriptionGroup = merged.subscriptionGroup ?? other.subscriptionGroup
            merged.groupLevel = merged.groupLevel ?? other.groupLevel
            merged.subscriptionPeriod = merged.subscriptionPeriod ?? other.subscriptionPeriod
            merged.introductoryOffer = merged.introductoryOffer ?? other.introductoryOffer
            if merged.promotionalOffers.isEmpty { merged.promotionalOffers = other.promotionalOffers }
            if merged.winBackOffers.isEmpty { merged.winBackOffers = other.winBackOffers }
            if merged.offerCodes.isEmpty { merged.offerCodes = other.offerCodes }
            merged.familyShareable = merged.familyShareable ?? other.familyShareable
        }
        return merged
    }
}
