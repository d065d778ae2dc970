import AppStoreConnect
import CatalogTool
import Diagnostics
import Foundation
import PriceFormatting
import Support

/// `iap price plan`: a `PricePlan` from a price-points file, as a table or a metadata plist.
public struct PricePlanJob: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, markdown, csv, json, html
    }

    /// `USA:4.99`.
    public var base: String
    public var pricePoints: String
    public var kind: PricePoints.Kind = .inAppPurchases
    /// A CSV of per-storefront multipliers (none: Apple's equalization as it is).
    public var multipliers: String?
    public var rounding = PricePlan.Rounding.nearest
    public var storefronts: String?
    public var format = Format.text
    /// `-o FILE.plist`: the plan as a metadata plist for `product`.
    public var output: String?
    public var product: String?

    public init(base: String, pricePoints: String) {
        self.base = base
        self.pricePoints = pricePoints
    }

    public static let header = ["STOREFRONT", "CURRENCY", "AMOUNT", "PRICE", "PROCEEDS", "APPLE'S EQUALIZATION", "MULTIPLIER"]

    public func run() -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let (territory, price) = try Self.parseBase(base)
            let points = try Self.readPoints(pricePoints)
            var plan = PricePlan(kind: kind, baseTerritory: territory, basePrice: price, rounding: rounding)
            if let storefronts {
                do {
                    plan.storefronts = try Storefronts.parseList(storefronts).map(\.alpha3)
                } catch {
                    throw .usage("--storefronts: \(error)")
                }
            }
            if let multipliers {
                let text: String
                switch FileContents.read(multipliers, limit: 1 << 20) {
                case .success(let data): text = String(decoding: data, as: UTF8.self)
                case .failure(let failure): throw .cannotRun("cannot read the multipliers \(multipliers): \(failure.phrase)")
                }
                plan.multipliers = try PricePlan.multipliers(csv: text, path: multipliers)
            }
            let (rows, leftOut) = try plan.rows(points, path: pricePoints)
            for why in leftOut { outcome.stderr += "iap: left out \(why)\n" }
            if let output {
                guard output.lowercased().hasSuffix(".plist") else {
                    throw .usage("-o writes a metadata plist (FILE.plist): a .storekit file holds one storefront's prices, not a plan's")
                }
                guard let product, ASCValue.productID(product) == nil else {
                    throw .usage("-o FILE.plist needs the product the plan prices: --product ID")
                }
                outcome.files.append(OutputContent(path: output, content: Self.metadataPlist(rows, product: product, plan: plan),
                                                   note: "iap: wrote \(output) (\(product) in \(rows.count) storefronts)", label: "the metadata plist"))
            } else {
                outcome.stdout = Self.render(rows, format: format)
            }
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// `USA:4.99` (`--base`, `--equalize`): a storefront's alpha-3 code and a price in its currency.
    public static func parseBase(_ base: String) throws(ToolFailure) -> (territory: String, price: Decimal) {
        let parts = base.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let storefront = try? Storefronts.find(parts[0]), ValueCheckDecimal.isPlainDecimal(parts[1]),
              let price = Decimal(string: parts[1], locale: Locale(identifier: "en_US_POSIX")) else {
            throw .usage("--base is a storefront and a price in its currency, like USA:4.99 or JPN:800; found \(Quote.bounded(base))")
        }
        return (storefront.alpha3, price)
    }

    /// The price-points file at `path`, read through its value checks; the error names the file.
    static func readPoints(_ path: String) throws(ToolFailure) -> PricePoints {
        switch FileContents.read(path, limit: 64 << 20) {
        case .success(let data):
            do {
                return try PricePoints.decode(data, path: path)
            } catch {
                throw .cannotRun(error.description)
            }
        case .failure(let failure):
            throw .cannotRun("cannot read the price points \(path): \(failure.phrase)")
        }
    }

    /// A price as customers in `territory` see it, through `NumberFormatter` in the storefront's locale.
    static func shown(_ amount: Decimal?, _ territory: String, _ formatter: PriceFormatter) -> String {
        guard let amount else { return "" }
        return formatter.string(amount, storefront: territory) ?? PricePoints.text(amount)
    }

    static func cells(_ row: PricePlan.Row, _ formatter: PriceFormatter) -> [String] {
        [row.territory, row.currency ?? "", PricePoints.text(row.price), shown(row.price, row.territory, formatter),
         shown(row.proceeds, row.territory, formatter), shown(row.equalized, row.territory, formatter), row.multiplier.map(PricePoints.text) ?? ""]
    }

    public static func render(_ rows: [PricePlan.Row], format: Format) -> String {
        // One formatter: it keeps each locale's and currency's template.
        let formatter = PriceFormatter()
        let cells = rows.map { Self.cells($0, formatter) }
        switch format {
        case .text: return PriceTable.render(header: header, rows: cells, format: .text)
        case .csv: return PriceTable.render(header: header, rows: cells, format: .csv)
        case .json: return PriceTable.render(header: header, rows: cells, format: .json)
        case .markdown:
            let line = { (row: [String]) in "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n" }
            return line(header) + line(header.map { _ in "---" }) + cells.map(line).joined()
        case .html:
            let escape = Escape.html
            let head = header.map { "<th>\(escape($0))</th>" }.joined()
            let body = cells.map { "<tr>" + $0.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n" }.joined()
            return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Price plan</title></head><body>\n"
                + "<table>\n<thead><tr>\(head)</tr></thead>\n<tbody>\n\(body)</tbody>\n</table>\n</body></html>\n"
        }
    }

    /// The plan as a metadata plist: the base price and currency, and every other storefront's
    /// price under `prices`, for one product. Its kind only for a subscription (subscription points
    /// are for auto-renewable subscriptions); an in-app purchase's kind is the catalog's to say.
    static func metadataPlist(_ rows: [PricePlan.Row], product: String, plan: PricePlan) -> String {
        let xml = Escape.plistXMLText
        let currency = (try? Storefronts.find(plan.baseTerritory))?.currency ?? "USD"
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>IAPCatalogMetadata</key>
            \t<integer>1</integer>
            \t<key>products</key>
            \t<dict>
            \t\t<key>\(xml(product))</key>
            \t\t<dict>
            \(plan.kind == .subscriptions ? "\t\t\t<key>kind</key>\n\t\t\t<string>auto-renewable</string>\n" : "")\t\t\t<key>price</key>
            \t\t\t<string>\(PricePoints.text(plan.basePrice))</string>
            \t\t\t<key>currency</key>
            \t\t\t<string>\(currency)</string>
            \t\t\t<key>prices</key>
            \t\t\t<dict>

            """
        for row in rows where row.territory != plan.baseTerritory {
            out += "\t\t\t\t<key>\(row.territory)</key>\n\t\t\t\t<string>\(PricePoints.text(row.price))</string>\n"
        }
        out += "\t\t\t</dict>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n"
        return out
    }
}
