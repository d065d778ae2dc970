import Diagnostics
import Foundation
import IAPCatalog
import PropertyList
import ReportRendering
import SalesReports
import Support

/// `iap list`: one row per product, with `--verbose` what each file is.
public enum ListText {
    public static func render(_ catalogs: [Catalog], verbose: Bool) -> String {
        var out = ""
        for (n, catalog) in catalogs.enumerated() {
            if n > 0 { out += "\n" }
            out += "\(catalog.name): \(plural(catalog.products.count, "product"))"
            if let bundle = catalog.bundleID { out += ", bundle ID \(bundle.value)" }
            out += "\n"
            if verbose {
                for file in catalog.files {
                    out += "  \(file.path): \(describe(file))\n"
                }
                if let bundle = catalog.bundleID { out += "  bundle ID \(bundle.value) from \(bundle.location)\n" }
            }
            guard !catalog.products.isEmpty else { continue }
            let rows = catalog.products.map { product in
                [product.id, product.kind?.rawValue ?? "?", why(product.kindReason),
                 product.metadata.referenceName?.value ?? "", product.displayName ?? "", price(product)]
            }
            out += table(header: ["ID", "KIND", "WHY", "REFERENCE NAME", "DISPLAY NAME", "PRICE"], rows: rows)
        }
        return out
    }

    static func describe(_ file: CatalogFile) -> String {
        switch file.content {
        case .productList(let shape):
            "product list, shape \(shape.rawValue): \(shape.summary); \(plural(file.productCount, "product"))"
        case .metadata: "metadata plist; \(plural(file.productCount, "product"))"
        case .storeKit: "\(file.content.label); \(plural(file.productCount, "product"))"
        case .bundleInfo, .retiredList: "\(file.content.label)" + (file.content == .retiredList ? "; \(plural(file.productCount, "ID"))" : "")
        case .notACatalog(let why): "not a product list: \(why)"
        case .unreadable(let why): "unreadable: \(why)"
        }
    }

    static func why(_ reason: KindReason) -> String {
        switch reason {
        case .declared(let location, _):
            "declared \((location.path as NSString).lastPathComponent)" + (location.line > 0 ? ":\(location.line)" : "")
        case .inferred(let words, let source):
            "inferred: " + words.map { "'\($0)'" }.joined(separator: ",") + (source == "the ID" ? "" : " (\(source))")
        case .unknown: "unknown"
        }
    }

    static func price(_ product: Product) -> String {
        guard let price = product.metadata.price?.value else { return "" }
        var text = price.description
        if let period = product.metadata.subscriptionPeriod?.value { text += " / \(period)" }
        return text
    }

    /// Aligned columns, two spaces apart, the last one unpadded.
    public static func table(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }
            return padded.joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
        }
        return line(header) + rows.map(line).joined()
    }
}

/// `iap list --format json`.
public enum ListJSON {
    struct CatalogJSON: Encodable {
        var name: String
        var bundleID: String?
        var files: [FileJSON]
        var products: [ProductJSON]
    }

    struct FileJSON: Encodable {
        var path: String
        var content: String
        var shape: String?
        var products: Int
    }

    struct ProductJSON: Encodable {
        var id: String
        var kind: String?
        var kindReason: String
        var declared: Bool
        var referenceName: String?
        var displayName: String?
        /// A decimal string, never a binary floating-point number.
        var price: String?
        var currency: String?
        var subscriptionGroup: String?
        var subscriptionPeriod: String?
        var locations: [String]
    }

    public static func render(_ catalogs: [Catalog]) -> String {
        let value = catalogs.map { catalog in
            CatalogJSON(
                name: catalog.name, bundleID: catalog.bundleID?.value,
                files: catalog.files.map { file in
                    var shape: String?
                    if case .productList(let s) = file.content { shape = s.rawValue }
                    return FileJSON(path: file.path, content: file.content.label, shape: shape, products: file.productCount)
                },
                products: catalog.products.map { p in
                    ProductJSON(id: p.id, kind: p.kind?.rawValue, kindReason: p.kindReason.description, declared: p.kindReason.isDeclared,
                                referenceName: p.metadata.referenceName?.value, displayName: p.displayName,
                                price: p.metadata.price.map { $0.value.amountText }, currency: p.metadata.price?.value.currency,
                                subscriptionGroup: p.metadata.subscriptionGroup?.value,
                                subscriptionPeriod: p.metadata.subscriptionPeriod?.value.description,
                                locations: p.occurrences.map(\.location.description))
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// `iap list --format csv`: one row per product, of every catalog, for a spreadsheet.
public enum ListCSV {
    public static let header = ["catalog", "bundle_id", "id", "kind", "kind_reason", "declared", "reference_name", "display_name",
                                "price", "currency", "subscription_group", "subscription_period"]

    public static func render(_ catalogs: [Catalog]) -> String {
        let rows = catalogs.flatMap { catalog in
            catalog.products.map { p in
                [catalog.name, catalog.bundleID?.value ?? "", p.id, p.kind?.rawValue ?? "", p.kindReason.description,
                 p.kindReason.isDeclared ? "yes" : "no", p.metadata.referenceName?.value ?? "", p.displayName ?? "",
                 p.metadata.price.map { $0.value.amountText } ?? "", p.metadata.price?.value.currency ?? "",
                 p.metadata.subscriptionGroup?.value ?? "", p.metadata.subscriptionPeriod?.value.description ?? ""]
            }
        }
        return CSVTable.render(header: header, rows: rows, lineEnd: "\n")
    }
}

/// The forms tables take: aligned text, JSON, CSV.
public enum TableFormat: String, Sendable, CaseIterable {
    case text, json, csv
}

/// Tables as aligned text, a JSON array of objects (keys from the header, lowercased), or CSV.
public enum PriceTable {
    public static func render(header: [String], rows: [[String]], format: TableFormat) -> String {
        switch format {
        case .text:
            return ListText.table(header: header, rows: rows)
        case .csv:
            return CSVTable.render(header: header, rows: rows, lineEnd: "\n")
        case .json:
            let keys = header.map { $0.lowercased().replacingOccurrences(of: " ", with: "-") }
            let objects = rows.map { row in
                "  {" + zip(keys, row).map { "\"\($0)\": " + Escape.json($1) }.joined(separator: ", ") + "}"
            }
            return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        }
    }
}

/// A plist error as `plist lint` prints it: `FILE:LINE:COL: error: MESSAGE`.
public enum PlistErrorText {
    public static func render(_ error: PlistError, file: String) -> String {
        let position = error.line > 0 ? (error.column > 0 ? ":\(error.line):\(error.column)" : ":\(error.line)") : ""
        return "\(file)\(position): error: \(error.message)\n"
    }
}
