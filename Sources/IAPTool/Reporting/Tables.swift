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
            (reason.isGuess ? "a guess: " : "inferred: ") + words.map { "'\($0)'" }.joined(separator: ",") + (source == "the ID" ? "" : " (\(source))")
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
            let line = padded.joined(separator: "  ")
            // Trimmed only when an end is blank: trimming every line of a wide table cost a
            // third of `iap asc ready`'s time in 175 storefronts.
            let blank = { (scalar: Unicode.Scalar?) in scalar.map { CharacterSet.whitespaces.contains($0) } ?? false }
            guard blank(line.unicodeScalars.first) || blank(line.unicodeScalars.last) else { return line + "\n" }
            return line.trimmingCharacters(in: .whitespaces) + "\n"
        }
        return line(header) + rows.map(line).joined()
    }
}

/// `iap list --format json`: the catalogs as an array, keys sorted, absent values left out, in the
/// layout Foundation's `JSONEncoder` gave it (`.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`),
/// which tools already parse; the tests compare it with `JSONEncoder`'s bytes.
public enum ListJSON {
    public static func render(_ catalogs: [Catalog]) -> String {
        var json = JSONWriter(capacity: 1024 + 600 * catalogs.reduce(0) { $0 + $1.products.count }, style: .foundation)
        json.openArray()
        for catalog in catalogs {
            json.openObject()
            if let bundleID = catalog.bundleID?.value { json.key("bundleID"); json.string(bundleID) }
            json.key("files")
            json.openArray()
            for file in catalog.files {
                json.openObject()
                json.key("content"); json.string(file.content.label)
                json.key("path"); json.string(file.path)
                problem(of: file, in: catalog, &json)
                json.key("products"); json.int(file.productCount)
                if case .productList(let shape) = file.content { json.key("shape"); json.string(shape.rawValue) }
                json.closeObject()
            }
            json.closeArray()
            json.key("name"); json.string(catalog.name)
            json.key("products")
            json.openArray()
            for p in catalog.products {
                json.openObject()
                optional("currency", p.metadata.price?.value.currency, &json)
                json.key("declared"); json.bool(p.kindReason.isDeclared)
                optional("displayName", p.displayName, &json)
                json.key("id"); json.string(p.id)
                optional("kind", p.kind?.rawValue, &json)
                json.key("kindReason"); json.string(p.kindReason.description)
                json.key("locations")
                json.openArray()
                for occurrence in p.occurrences { json.string(occurrence.location.description) }
                json.closeArray()
                // A decimal string, never a binary floating-point number.
                optional("price", p.metadata.price.map { $0.value.amountText }, &json)
                optional("referenceName", p.metadata.referenceName?.value, &json)
                optional("subscriptionGroup", p.metadata.subscriptionGroup?.value, &json)
                optional("subscriptionPeriod", p.metadata.subscriptionPeriod?.value.description, &json)
                json.closeObject()
            }
            json.closeArray()
            json.closeObject()
        }
        json.closeArray()
        return json.finish()
    }

    /// `"key" : value`, or nothing when there is no value.
    /// Why a file is not a catalog file, as `iap validate` says it: its finding's place, text and
    /// rule, or the reason the reader gave. Nothing for a catalog file.
    private static func problem(of file: CatalogFile, in catalog: Catalog, _ json: inout JSONWriter) {
        let reason: String
        switch file.content {
        case .notACatalog(let why), .unreadable(let why): reason = why
        default: return
        }
        json.key("problem")
        json.openObject()
        if let finding = catalog.unreadableFileFindings.first(where: { $0.location.path == file.path }) {
            if finding.location.line > 0 {
                if finding.location.column > 0 { json.key("column"); json.int(finding.location.column) }
                json.key("line"); json.int(finding.location.line)
            }
            json.key("message"); json.string(finding.message)
            json.key("rule"); json.string(finding.ruleID)
        } else {
            json.key("message"); json.string(reason)
        }
        json.closeObject()
    }

    private static func optional(_ key: StaticString, _ value: String?, _ json: inout JSONWriter) {
        guard let value else { return }
        json.key(key)
        json.string(value)
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
    /// A row per line: `{"key": "value", "key": "value"}`, in an array of two-space-indented lines.
    static let rowsStyle = JSONWriter.Style(colon: ": ", comma: ", ", lineDepth: 1, emptyOnTwoLines: true)

    public static func render(header: [String], rows: [[String]], format: TableFormat) -> String {
        switch format {
        case .text:
            return ListText.table(header: header, rows: rows)
        case .csv:
            return CSVTable.render(header: header, rows: rows, lineEnd: "\n")
        case .json:
            let keys = header.map { $0.lowercased().replacingOccurrences(of: " ", with: "-") }
            var json = JSONWriter(capacity: 256 + 80 * rows.count * max(keys.count, 1), style: rowsStyle)
            json.openArray()
            for row in rows {
                json.openObject()
                for (key, cell) in zip(keys, row) { json.key(key); json.string(cell) }
                json.closeObject()
            }
            json.closeArray()
            return json.finish()
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
