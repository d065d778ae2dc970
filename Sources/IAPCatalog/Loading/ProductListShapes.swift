import Diagnostics
import Foundation
import PropertyList

/// What one plist turned out to hold.
struct PlistReading {
    var content: CatalogFileContent
    var occurrences: [ProductOccurrence] = []
    var diagnostics: [Diagnostic] = []
    var bundleID: Located<String>?
    var requiredLocales: [String] = []
    /// Whether the content alone shows a product list (keys such as `productIdentifier`,
    /// MKStoreKit's sections, a `Products` array). An `<array>` or `<dict>` of plain strings does
    /// not: a walk takes it only when its name or its strings say product IDs.
    var byContent = true
    /// A `.storekit` file synced from App Store Connect.
    var synced = false
    /// The App Store Connect app it is synced from (`settings._applicationInternalID`).
    var appStoreConnectApp: String?
}

/// Recognises the real shapes of product-ID plist (see `ListShape`) and says what it saw when
/// none fits, so that a file never silently becomes an empty catalog.
struct ProductListShapes {
    let path: String

    /// Keys that name a product's ID inside a product dict, most specific first.
    static let idKeys = ["productIdentifier", "ProductIdentifier", "productId", "ProductId", "productID", "ProductID",
                         "product_id", "ID", "Id", "id", "identifier", "Identifier"]
    /// ID keys that name a product's ID and nothing else.
    static let productIDKeys: Set<String> = ["productIdentifier", "ProductIdentifier", "productId", "ProductId", "productID",
                                             "ProductID", "product_id"]
    /// Keys that, beside a generic `id`, make a dict a product's.
    static let productFieldKeys: Set<String> = ["Price", "price", "Type", "type", "ProductType", "Tier", "tier", "consumable",
                                                "Consumable", "isConsumable", "localizedTitle", "localizedDescription", "kind"]
    static let mkStoreKitKeys = ["Consumables", "Non-Consumables", "Subscriptions", "Others"]
    /// Keys whose presence makes an inner dict look like product metadata.
    static let metadataKeys: Set<String> = ["Title", "title", "Name", "name", "Description", "description", "Type", "type",
                                            "ProductType", "Price", "price", "Tier", "displayName", "localizedTitle",
                                            "localizedDescription", "consumable", "Count", "ConsumableCount"]

    func location(_ position: PlistPosition) -> SourceLocation {
        SourceLocation(path: path, line: Int(position.line), column: Int(position.column))
    }

    func read(_ root: PlistNode) -> PlistReading {
        switch root.value {
        case .array(let items): return readArray(items, root: root)
        case .dictionary(let dict): return readDictionary(dict, root: root)
        default:
            return notAList("the root is a single <\(root.value.typeName)>, not an <array> or <dict> of products")
        }
    }

    private func notAList(_ why: String) -> PlistReading {
        PlistReading(content: .notACatalog(why))
    }

    // MARK: Arrays

    /// A root array of strings as the reader kept it: a plain list of IDs.
    func read(_ list: PlistStringList) -> PlistReading {
        idList(zip(list.strings, list.positions), count: list.count)
    }

    private func idList(_ ids: some Sequence<(String, PlistPosition)>, count: Int) -> PlistReading {
        var reading = PlistReading(content: .productList(.arrayOfIDs))
        reading.byContent = false
        reading.occurrences.reserveCapacity(count)
        for (id, position) in ids {
            reading.occurrences.append(ProductOccurrence(id: id, location: location(position), role: .productList))
        }
        return reading
    }

    private func readArray(_ items: [PlistNode], root: PlistNode) -> PlistReading {
        if items.allSatisfy({ $0.value.stringValue != nil }) {
            return idList(items.lazy.map { ($0.value.stringValue!, $0.position) }, count: items.count)
        }
        if items.allSatisfy({ $0.value.dictionaryValue != nil }) {
            let dicts = items.map { ($0, $0.value.dictionaryValue!) }
            if dicts.contains(where: { idEntry(in: $0.1) != nil }) {
                var reading = PlistReading(content: .productList(.arrayOfDicts))
                reading.byContent = dicts.contains { Self.isProductDict($0.1) }
                addProductDicts(dicts, containerKey: nil, to: &reading)
                return reading
            }
            return notAList("an <array> of \(items.count) dicts whose keys (\(keySummary(dicts.map(\.1)))) include no product-ID key (\(Self.idKeys.prefix(6).joined(separator: ", ")))")
        }
        let types = Set(items.map { $0.value.typeName }).sorted().joined(separator: ", ")
        return notAList("an <array> mixing \(types): a product list holds ID strings or product dicts")
    }

    /// Product dicts (array items): each must have an ID key; its other keys become metadata.
    private func addProductDicts(_ dicts: [(PlistNode, PlistDictionary)], containerKey: String?, to reading: inout PlistReading) {
        for (node, dict) in dicts {
            guard let idEntry = idEntry(in: dict), let id = idEntry.value.value.stringValue else {
                reading.diagnostics.append(InvalidMetadataRule.description.finding(
                    "product dict without a product-ID key (\(Self.idKeys.prefix(4).joined(separator: ", ")), …)",
                    at: location(node.position)))
                continue
            }
            var occurrence = ProductOccurrence(id: id, location: location(idEntry.value.position), role: .productList,
                                               containerKey: containerKey)
            applyProductFields(dict, to: &occurrence)
            reading.occurrences.append(occurrence)
        }
    }

    /// The entry holding the product ID: the string entry whose key comes first in `idKeys`.
    func idEntry(in dict: PlistDictionary) -> PlistDictionary.Entry? {
        var best: (rank: Int, entry: PlistDictionary.Entry)?
        for entry in dict.entries where entry.value.value.stringValue != nil {
            guard let rank = Self.idKeyRank[entry.key] else { continue }
            if best == nil || rank < best!.rank { best = (rank, entry) }
        }
        return best?.entry
    }

    /// A dict keyed by a product-ID key, or by a generic `id` beside a price, type or tier.
    static func isProductDict(_ dict: PlistDictionary) -> Bool {
        dict.keys.contains { productIDKeys.contains($0) }
            || (dict.keys.contains { ["ID", "Id", "id", "identifier", "Identifier"].contains($0) }
                && dict.keys.contains { productFieldKeys.contains($0) })
    }

    static let idKeyRank: [String: Int] = Dictionary(uniqueKeysWithValues: idKeys.enumerated().map { ($1, $0) })

    // MARK: Dictionaries

    private func readDictionary(_ dict: PlistDictionary, root: PlistNode) -> PlistReading {
        if dict.isEmpty { return notAList("an empty <dict>") }
        if let products = dict.entry(anyOf: ["Products", "products"]) {
            return readProductsKey(products, dict: dict)
        }
        if dict.keys.contains(where: Self.mkStoreKitKeys.contains) {
            return readMKStoreKit(dict)
        }
        if let idEntry = idEntry(in: dict) {
            var reading = PlistReading(content: .productList(.singleProduct))
            reading.byContent = Self.isProductDict(dict)
            var occurrence = ProductOccurrence(id: idEntry.value.value.stringValue!, location: location(idEntry.value.position),
                                               role: .productList)
            applyProductFields(dict, to: &occurrence)
            reading.occurrences.append(occurrence)
            return reading
        }
        if let items = dict["items"]?.value.arrayValue,
           items.contains(where: { $0.value.dictionaryValue?.entry("assets") != nil }) {
            return notAList("looks like an over-the-air install manifest (items → assets, metadata), not a product list")
        }
        let values = dict.entries.map(\.value.value)
        if values.allSatisfy({ $0.stringValue != nil }) {
            return readStringDictionary(dict, root: root)
        }
        if values.allSatisfy({ $0.dictionaryValue != nil }) {
            let inner = values.compactMap(\.dictionaryValue)
            // ID → dict of product fields (simstorekit), or of the app's own keys (icon, order):
            // the latter only when the keys read as product IDs.
            let described = inner.allSatisfy { $0.keys.contains(where: Self.metadataKeys.contains) }
            let productKeys = Self.looksLikeProductIDs(dict.keys)
            let named = Self.looksLikeCatalogFile((path as NSString).lastPathComponent)
            if dict.keys.allSatisfy(Self.hasIDSyntax), described || productKeys || named {
                var reading = PlistReading(content: .productList(.idToMetadata))
                reading.byContent = described || productKeys
                for entry in dict.entries {
                    var occurrence = ProductOccurrence(id: entry.key, location: location(entry.keyPosition), role: .productList)
                    applyProductFields(entry.value.value.dictionaryValue!, to: &occurrence)
                    reading.occurrences.append(occurrence)
                }
                return reading
            }
        }
        return notAList("a <dict> with keys \(entrySummary(dict)): no product-list shape matches")
    }

    /// `{"Products": [...]}` with optional `"Subscriptions": [{"Group", "Products"}]` (StoreHelper),
    /// or `{"Products": [dicts with "ID"]}`.
    private func readProductsKey(_ products: PlistDictionary.Entry, dict: PlistDictionary) -> PlistReading {
        guard let items = products.value.value.arrayValue else {
            return notAList("\(Quote.bounded(products.key)) holds a <\(products.value.value.typeName)>, not an <array> of product IDs")
        }
        if !items.isEmpty, items.allSatisfy({ $0.value.dictionaryValue != nil }) {
            var reading = PlistReading(content: .productList(.productsArrayOfDicts))
            addProductDicts(items.map { ($0, $0.value.dictionaryValue!) }, containerKey: nil, to: &reading)
            return reading
        }
        var reading = PlistReading(content: .productList(.productsAndSubscriptions))
        addIDStrings(items, containerKey: nil, group: nil, to: &reading)
        if let subscriptions = dict.entry(anyOf: ["Subscriptions", "subscriptions"]) {
            for groupNode in subscriptions.value.value.arrayValue ?? [] {
                guard let group = groupNode.value.dictionaryValue,
                      let ids = group.entry(anyOf: ["Products", "products"])?.value.value.arrayValue else {
                    reading.diagnostics.append(InvalidMetadataRule.description.finding(
                        "a Subscriptions entry must be a <dict> with Group and Products",
                        at: location(groupNode.position)))
                    continue
                }
                let name = group.entry(anyOf: ["Group", "group"]).flatMap { entry in
                    entry.value.value.stringValue.map { Located($0, at: location(entry.value.position)) }
                }
                addIDStrings(ids, containerKey: subscriptions.key, group: name, to: &reading)
            }
        }
        return reading
    }

    private func addIDStrings(_ items: [PlistNode], containerKey: String?, group: Located<String>?,
                              to reading: inout PlistReading) {
        for item in items {
            guard let id = item.value.stringValue else {
                reading.diagnostics.append(InvalidMetadataRule.description.finding(
                    "expected a product ID <string>, found <\(item.value.typeName)>",
                    at: location(item.position)))
                continue
            }
            var occurrence = ProductOccurrence(id: id, location: location(item.position), role: .productList,
                                               containerKey: containerKey)
            if let group {
                var metadata = ProductMetadata()
                metadata.subscriptionGroup = group
                occurrence.metadata = metadata
            }
            reading.occurrences.append(occurrence)
        }
    }

    /// MKStoreKit: `Consumables` (dict ID → {Count, Name}), `Non-Consumables` (dict or array),
    /// `Subscriptions` (dict ID → days), `Others` (array), and often a committed `SharedSecret`.
    private func readMKStoreKit(_ dict: PlistDictionary) -> PlistReading {
        var reading = PlistReading(content: .productList(.mkStoreKit))
        for entry in dict.entries where Self.mkStoreKitKeys.contains(entry.key) {
            switch entry.value.value {
            case .dictionary(let inner):
                for item in inner.entries {
                    var occurrence = ProductOccurrence(id: item.key, location: location(item.keyPosition), role: .productList,
                                                       containerKey: entry.key)
                    if let fields = item.value.value.dictionaryValue { applyProductFields(fields, to: &occurrence) }
                    reading.occurrences.append(occurrence)
                }
            case .array(let items):
                addIDStrings(items, containerKey: entry.key, group: nil, to: &reading)
            default:
                reading.diagnostics.append(InvalidMetadataRule.description.finding(
                    "MKStoreKit key \(Quote.bounded(entry.key)) holds a <\(entry.value.value.typeName)>; expected a <dict> or <array> of product IDs",
                    at: location(entry.value.position)))
            }
        }
        return reading
    }

    /// A `<dict>` of strings is either ID → display value (Apple's SKDemo: `"consumable.fuel.octane87": "⛽️"`)
    /// or name → ID (`"Coffee-Tip": "com.example.tip"`): the side that reads as IDs wins.
    private func readStringDictionary(_ dict: PlistDictionary, root: PlistNode) -> PlistReading {
        let keysAreIDs = dict.keys.allSatisfy(Self.hasIDSyntax)
        let values = dict.entries.map { $0.value.value.stringValue! }
        let valuesAreIDs = values.allSatisfy(Self.hasIDSyntax)
        let dottedKeys = dict.keys.filter { $0.contains(".") }.count
        let dottedValues = values.filter { $0.contains(".") }.count
        let valuesWin = valuesAreIDs && (!keysAreIDs || dottedValues >= dottedKeys)
        if valuesWin {
            var reading = PlistReading(content: .productList(.nameToID))
            reading.byContent = false
            for entry in dict.entries {
                var occurrence = ProductOccurrence(id: entry.value.value.stringValue!, location: location(entry.value.position),
                                                   role: .productList)
                var metadata = ProductMetadata()
                metadata.referenceName = Located(entry.key, at: location(entry.keyPosition))
                occurrence.metadata = metadata
                reading.occurrences.append(occurrence)
            }
            if let finding = dictRootFinding(dict, root: root) { reading.diagnostics.append(finding) }
            return reading
        }
        var reading = PlistReading(content: .productList(.idToValue))
        reading.byContent = false
        for entry in dict.entries {
            reading.occurrences.append(ProductOccurrence(id: entry.key, location: location(entry.keyPosition), role: .productList))
        }
        return reading
    }

    /// A name → ID dict in a file named as an ID list, or with Xcode's default "Item 0" keys, is
    /// the classic bug of code reading it as `[String]` and getting nothing.
    private func dictRootFinding(_ dict: PlistDictionary, root: PlistNode) -> Diagnostic? {
        let fileName = (path as NSString).lastPathComponent.lowercased()
        let namedAsList = fileName.contains("productid") || fileName.contains("product_id") || fileName.contains("productsid")
        let xcodeItemKeys = dict.keys.allSatisfy { $0.hasPrefix("Item ") && Int($0.dropFirst(5)) != nil }
        guard namedAsList || xcodeItemKeys else { return nil }
        let why = xcodeItemKeys ? "its keys are Xcode's default array labels ('Item 0', …)" : "the file is named as a list of IDs"
        return DictRootedIDListRule.description.finding(
            "the root is a <dict> of name → ID but \(why): code that reads it as an array ([String], NSArray(contentsOfFile:)) gets nothing and the app loads no products",
            at: location(root.position),
            fix: SuggestedFix("make the root an <array> of ID strings, or read the file as a dictionary and use its values"))
    }

    // MARK: Product fields

    /// Names, descriptions and a stated type from a product dict's other keys, in one pass over
    /// its entries (product dicts can number a million).
    private func applyProductFields(_ dict: PlistDictionary, to occurrence: inout ProductOccurrence) {
        var metadata = occurrence.metadata ?? ProductMetadata()
        var title: PlistDictionary.Entry?, name: PlistDictionary.Entry?, description: String?
        var longDescription: String?, type: PlistDictionary.Entry?, consumable: PlistDictionary.Entry?
        for entry in dict.entries {
            switch entry.key {
            case "Title", "title", "localizedTitle", "displayName", "DisplayName":
                if title == nil, entry.value.value.stringValue != nil { title = entry }
            case "Name", "name":
                if name == nil, entry.value.value.stringValue != nil { name = entry }
            case "Description", "description", "localizedDescription":
                if description == nil { description = entry.value.value.stringValue }
            case "longDescription", "LongDescription":
                longDescription = entry.value.value.dictionaryValue?.entries.first?.value.value.stringValue
            case "Type", "type", "ProductType", "kind", "Kind":
                if type == nil { type = entry }
            case "consumable", "Consumable", "isConsumable":
                if consumable == nil, entry.value.value.boolValue != nil { consumable = entry }
            default:
                break
            }
        }
        if let name {
            metadata.referenceName = Located(name.value.value.stringValue!, at: location(name.value.position))
        }
        let shown = title ?? name
        let displayName = shown?.value.value.stringValue
        let text = description ?? longDescription
        if displayName != nil || text != nil {
            metadata.localizations.append(Localization(locale: "default", displayName: displayName, description: text,
                                                       location: shown.map { location($0.value.position) } ?? occurrence.location))
        }
        if let entry = type {
            switch entry.value.value {
            case .string(let s):
                if let kind = ProductKind(spelling: s) {
                    occurrence.declaredKind = Located(kind, at: location(entry.value.position))
                    occurrence.declaredBy = "\(entry.key) = \(s)"
                } else {
                    occurrence.containerKey = occurrence.containerKey ?? s
                }
            case .integer(let i) where entry.key == "ProductType":
                // simstorekit's documented codes: 0 non-consumable, 1 consumable, 2 subscription.
                let kinds: [Int64: ProductKind] = [0: .nonConsumable, 1: .consumable]
                if let code = i.int64Value, let kind = kinds[code] {
                    occurrence.declaredKind = Located(kind, at: location(entry.value.position))
                    occurrence.declaredBy = "ProductType = \(code)"
                }
            default: break
            }
        }
        if occurrence.declaredKind == nil, let entry = consumable, let flag = entry.value.value.boolValue {
            occurrence.declaredKind = Located(flag ? .consumable : .nonConsumable, at: location(entry.value.position))
            occurrence.declaredBy = "\(entry.key) = \(flag)"
        }
        if metadata != ProductMetadata() { occurrence.metadata = metadata }
    }

    // MARK: Helpers

    /// Characters App Store Connect allows in product IDs, and no spaces: used to tell IDs from names.
    static func hasIDSyntax(_ s: String) -> Bool { IDCharacters.hasIDSyntax(s) }

    /// Names under which a plist is taken for a product list even when its shape alone does not
    /// prove it (an `<array>` of strings, a `<dict>` of strings).
    static func looksLikeCatalogFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.hasSuffix(".storekit") { return true }
        return ["product", "iap", "purchase", "storekit", "subscription", "inapp", "sku", "mkstorekit", "catalog", "metadata"]
            .contains { lower.contains($0) }
    }

    /// IDs in reverse-DNS form under one shared two-segment prefix (`com.acme.app.coins`,
    /// `com.acme.app.gems`): what product IDs look like, and lists of other things rarely do.
    static func looksLikeProductIDs(_ ids: [String]) -> Bool {
        guard let first = ids.first else { return false }
        let prefix = first.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false).prefix(2).joined(separator: ".") + "."
        return ids.allSatisfy { id in hasIDSyntax(id) && id.hasPrefix(prefix) && id.split(separator: ".").count >= 3 }
    }

    private func keySummary(_ dicts: [PlistDictionary]) -> String {
        var seen: [String] = []
        for dict in dicts { for key in dict.keys where !seen.contains(key) { seen.append(key) } }
        let shown = seen.prefix(8).joined(separator: ", ")
        return seen.count > 8 ? shown + ", …" : shown
    }

    private func entrySummary(_ dict: PlistDictionary) -> String {
        let shown = dict.entries.prefix(6).map { "\(Quote.bounded($0.key)) (\($0.value.value.typeName))" }.joined(separator: ", ")
        return dict.count > 6 ? shown + ", …" : shown
    }
}
