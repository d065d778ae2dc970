import Foundation
import IAPCatalog
import PriceFormatting

/// `iap price`: an amount as customers see it in one locale, or in a list of storefronts (shown,
/// never converted), or every declared price of a catalog.
public struct PriceJob: Sendable {
    /// The amount as given: digits with '.' for decimals.
    public var amount: String?
    public var locale: String?
    /// ISO 4217; wins over the locale's `@currency=`.
    public var currency: String?
    /// Storefronts as alpha-3 or alpha-2 codes, or `all`.
    public var storefronts: String?
    /// A catalog (file or folder) whose declared prices are shown.
    public var catalog: String?
    /// The ISO code (USD 0.99) instead of the symbol.
    public var isoCode = false
    public var format = TableFormat.text

    public init() {}

    private var style: PriceFormatter.Style { isoCode ? .isoCode : .symbol }

    /// The prices; a value that cannot be read (an amount, a currency, a locale, a storefront)
    /// and a combination of options that says nothing are usage errors.
    public func run() -> CommandOutcome {
        do throws(ToolFailure) {
            return CommandOutcome(stdout: try text())
        } catch {
            return CommandOutcome(error)
        }
    }

    private func text() throws(ToolFailure) -> String {
        let formatter = PriceFormatter()
        if let catalog {
            guard amount == nil, storefronts == nil else {
                throw .usage("--catalog formats the catalog's own prices: give no AMOUNT and no --storefronts")
            }
            return try catalogText(catalog, formatter)
        }
        guard let amount else { throw .usage("give an AMOUNT, or --catalog PATH") }
        let value = try Self.priced { () throws(PriceError) in try Price(parsing: amount, currency: currency ?? "USD").amount }
        if let storefronts {
            guard let currency else { throw .usage("--storefronts needs --currency: the amount is shown, never converted") }
            let rows = try Self.priced { () throws(PriceError) in
                try Storefronts.parseList(storefronts).map { storefront throws(PriceError) in
                    [storefront.alpha3, storefront.locale, try formatter.string(value, currency: currency, locale: storefront.locale, style: style)]
                }
            }
            return PriceTable.render(header: ["STOREFRONT", "LOCALE", "PRICE"], rows: rows, format: format)
        }
        guard let locale else { throw .usage("give --locale ID (or --storefronts)") }
        let text = try Self.priced { () throws(PriceError) in try formatter.string(value, currency: currency, locale: locale, style: style) }
        switch format {
        case .text: return text + "\n"
        case .json, .csv:
            return PriceTable.render(header: ["locale", "currency", "amount", "string"], rows: [[locale, currency ?? "", amount, text]], format: format)
        }
    }

    /// A value the user gave that cannot be read is a usage error that says which.
    private static func priced<T>(_ body: () throws(PriceError) -> T) throws(ToolFailure) -> T {
        do { return try body() } catch { throw .usage("\(error)") }
    }

    /// Every product with a declared price (`CatalogPrices`).
    private func catalogText(_ path: String, _ formatter: PriceFormatter) throws(ToolFailure) -> String {
        let catalogs = try CatalogSelection(given: [path]).load().requireCatalogs(verbose: false)
        let rows = try Self.priced { () throws(PriceError) in try CatalogPrices.rows(catalogs, locale: locale, style: style, formatter: formatter) }
        if rows.isEmpty {
            // A header and no rows would read as "nothing to show" and pass in a script.
            let products = catalogs.reduce(0) { $0 + $1.products.count }
            throw .cannotRun("none of the \(products) product\(products == 1 ? "" : "s") in \(path) has a price with a currency: "
                             + "give each a price and currency in the metadata plist, or keep a .storekit file beside it")
        }
        return PriceTable.render(header: CatalogPrices.header, rows: rows, format: format)
    }
}

/// `iap storefronts`: the App Store's storefronts, with codes, currency and display locale.
public enum StorefrontList {
    public static func run(format: TableFormat) -> CommandOutcome {
        let rows = Storefronts.all.map { [$0.alpha3, $0.alpha2, $0.currency, $0.locale, $0.name] }
        return CommandOutcome(stdout: PriceTable.render(header: ["ALPHA-3", "ALPHA-2", "CURRENCY", "LOCALE", "NAME"], rows: rows, format: format))
    }
}
