import Diagnostics
import Foundation
import PropertyList

/// Reads the files of catalogs and merges their products by ID.
public struct CatalogLoader: Sendable {
    /// `--bundle-id`: wins over `Info.plist` and the metadata plist.
    public var bundleIDOverride: String?
    public var reader = PlistReader()

    public init(bundleIDOverride: String? = nil) {
        self.bundleIDOverride = bundleIDOverride
    }

    /// Every catalog under `paths` (see `FileDiscovery` for how files group into catalogs).
    public func load(paths: [String]) throws(FileDiscovery.Failure) -> [Catalog] {
        let groups = try FileDiscovery().groups(for: paths)
        let explicit = Set(paths)
        return groups.map { group in
            loadCatalog(name: group.name, paths: group.paths, explicit: explicit)
        }
    }

    /// Names under which a plist found in a folder walk is taken for a product list.
    public static func looksLikeCatalogFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.hasSuffix(".storekit") { return true }
        return ["product", "iap", "purchase", "storekit", "subscription", "inapp", "sku", "mkstorekit", "catalog", "metadata"]
            .contains { lower.contains($0) }
    }

    static func isInfoPlist(_ name: String) -> Bool { name == "Info.plist" || name.hasSuffix("-Info.plist") }

    /// `RetiredProductIDs.plist` (any case, `-`/`_` allowed): the catalog's own retired-ID list.
    static func isRetiredList(_ name: String) -> Bool {
        name.lowercased().filter { $0.isLetter } == "retiredproductidsplist"
    }

    /// One catalog from its files. Files named in `explicit` are always read as catalog files;
    /// others only when their name looks like one (or they carry our metadata marker).
    public func loadCatalog(name: String, paths: [String], explicit: Set<String> = []) -> Catalog {
        var files: [CatalogFile] = []
        var occurrences: [ProductOccurrence] = []
        var diagnostics: [Diagnostic] = []
        var infoBundle: Located<String>?
        var metadataBundle: Located<String>?
        var retired: [String: SourceLocation] = [:]
        var requiredLocales: [String] = []

        for path in paths {
            let fileName = (path as NSString).lastPathComponent
            let reading = readFile(path, fileName: fileName, explicit: explicit.contains(path))
            guard let reading else { continue }
            diagnostics += reading.diagnostics
            requiredLocales += reading.requiredLocales.filter { !requiredLocales.contains($0) }
            if Self.isRetiredList(fileName), case .productList = reading.content {
                files.append(CatalogFile(path: path, content: .retiredList, productCount: reading.occurrences.count))
                for occurrence in reading.occurrences where retired[occurrence.id] == nil {
                    retired[occurrence.id] = occurrence.location
                }
                continue
            }
            files.append(CatalogFile(path: path, content: reading.content, productCount: reading.occurrences.count))
            occurrences += reading.occurrences
            if let bundle = reading.bundleID {
                if case .bundleInfo = reading.content { infoBundle = infoBundle ?? bundle } else {
                    metadataBundle = metadataBundle ?? bundle
                }
            }
        }

        var bundleID: Located<String>?
        if let override = bundleIDOverride {
            bundleID = Located(override, at: SourceLocation(path: "--bundle-id"))
        } else if let fromMetadata = metadataBundle {
            bundleID = fromMetadata
        } else if let fromInfo = infoBundle {
            if fromInfo.value.contains("$(") {
                diagnostics.append(Diagnostic(
                    ruleID: "unresolved-bundle-id", severity: .warning,
                    message: "CFBundleIdentifier is '\(fromInfo.value)', a build setting this tool cannot expand: pass --bundle-id com.your.app to check ID prefixes",
                    location: fromInfo.location,
                    fix: SuggestedFix("run with --bundle-id set to the app's PRODUCT_BUNDLE_IDENTIFIER")))
            } else {
                bundleID = fromInfo
            }
        }
        return Catalog(name: name, files: files, bundleID: bundleID, products: Self.merge(occurrences),
                       loadDiagnostics: diagnostics, retiredIDs: retired, requiredLocales: requiredLocales)
    }

    /// Reads one file; nil when a folder walk found a plist that is not one of ours.
    private func readFile(_ path: String, fileName: String, explicit: Bool) -> PlistReading? {
        if fileName.hasSuffix(".storekit") {
            guard let data = FileManager.default.contents(atPath: path) else {
                return PlistReading(content: .unreadable("cannot read file"), diagnostics: [
                    Diagnostic(ruleID: "malformed-catalog", severity: .error, message: "cannot read file",
                               location: SourceLocation(path: path)),
                ])
            }
            return StoreKitReader(path: path).read(data)
        }
        let wanted = explicit || Self.isInfoPlist(fileName) || Self.looksLikeCatalogFile(fileName)
            || Self.isRetiredList(fileName)
        let document: PlistDocument
        do {
            document = try reader.read(path: path)
        } catch {
            // A plist that is not ours and does not parse is none of our business in a folder walk.
            guard wanted else { return nil }
            return PlistReading(content: .unreadable(error.message), diagnostics: [
                Diagnostic(ruleID: "malformed-catalog", severity: .error, message: malformedMessage(error),
                           location: SourceLocation(path: path, line: error.line, column: error.column)),
            ])
        }
        let isMetadata = MetadataPlist.isMetadata(document.root)
        guard wanted || isMetadata else { return nil }
        var reading = isMetadata
            ? MetadataPlist(path: path).read(document.root)
            : ProductListShapes(path: path).read(document.root)
        SecretScanner.scan(document.root, path: path, into: &reading.diagnostics)
        if case .notACatalog(let why) = reading.content {
            reading.diagnostics.append(Diagnostic(
                ruleID: "unrecognized-catalog", severity: .error,
                message: "not a product list: \(why)",
                location: SourceLocation(path: path, line: Int(document.root.position.line),
                                         column: Int(document.root.position.column)),
                fix: SuggestedFix("list product IDs as an <array> of <string>, or move this file out of the catalog")))
        }
        if case .productList = reading.content, reading.occurrences.isEmpty {
            reading.diagnostics.append(Diagnostic(
                ruleID: "empty-product-list", severity: .warning,
                message: "the product list is empty: the app would request no products",
                location: SourceLocation(path: path, line: Int(document.root.position.line),
                                         column: Int(document.root.position.column))))
        }
        return reading
    }

    private func malformedMessage(_ error: PlistError) -> String {
        switch error.kind {
        case .unsupportedFormat, .io: error.message
        default: "cannot read the property list: \(error.message)"
        }
    }

    /// Groups occurrences by exact ID and merges their metadata (our metadata plist first, then
    /// `.storekit`, then fields of the product list itself). Products come in product-list order,
    /// then metadata order, then `.storekit` order; each product points at its first occurrence
    /// in that order, so diagnostics name the line of the list the app loads.
    static func merge(_ occurrences: [ProductOccurrence]) -> [Product] {
        // Stable partition by role (product lists, then metadata, then .storekit): no sort needed.
        let ordered = [ProductOccurrence.Role.productList, .metadata, .storeKit].flatMap { role in
            occurrences.lazy.filter { $0.role == role }
        }
        var slot: [String: Int] = [:]
        var lists: [[ProductOccurrence]] = []
        slot.reserveCapacity(occurrences.count)
        lists.reserveCapacity(occurrences.count)
        for occurrence in ordered {
            if let index = slot[occurrence.id] {
                lists[index].append(occurrence)
            } else {
                slot[occurrence.id] = lists.count
                lists.append([occurrence])
            }
        }
        var classifier = Classifier()
        return lists.map { list in
            let id = list[0].id
            let metadata = mergedMetadata(list)
            let (kind, reason) = classifier.classify(list, metadata: metadata)
            return Product(id: id, occurrences: list, kind: kind, kindReason: reason, metadata: metadata)
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
            if merged.price == nil {
                merged.price = other.price
                merged.currency = merged.currency ?? other.currency
            }
            merged.subscriptionGroup = merged.subscriptionGroup ?? other.subscriptionGroup
            merged.subscriptionPeriod = merged.subscriptionPeriod ?? other.subscriptionPeriod
            merged.introductoryOffer = merged.introductoryOffer ?? other.introductoryOffer
            if merged.promotionalOffers.isEmpty { merged.promotionalOffers = other.promotionalOffers }
            merged.familyShareable = merged.familyShareable ?? other.familyShareable
        }
        return merged
    }
}
