import ArgumentParser
import Foundation
import IAPCatalog
import IAPTool
import PriceFormatting
import PropertyList

struct Price: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Format prices as customers see them: one locale, a list of storefronts, or every price of a catalog.",
        discussion: """
        iap price 0.99 --locale en_US --currency USD         one string
        iap price 0.99 --currency EUR --storefronts DEU,FRA   that amount shown in each storefront's locale (never converted)
        iap price --catalog catalogs/RazeFaces                every declared price, with its period and offer
        Negative amounts (refunds) are shown the way the locale shows them: iap price -4.99 --locale de_DE --currency EUR
        """)

    typealias Format = TableFormat

    @Argument(help: "The amount: digits with '.' for decimals (0.99, 1234.5, -4.99).")
    var amount: String?

    @Option(help: "Locale: en_US, pt-BR, ja_JP@currency=JPY.")
    var locale: String?

    @Option(help: "ISO 4217 currency code; wins over the locale's @currency=.")
    var currency: String?

    @Option(help: "Storefronts as alpha-3 or alpha-2 codes (USA,JPN,DEU), or all.")
    var storefronts: String?

    @Option(help: "A catalog (file or folder): format every declared price.")
    var catalog: String?

    @Flag(name: .customLong("iso-code"), help: "Name the currency by its ISO code (USD 0.99) instead of its symbol.")
    var isoCode = false

    @Option(help: "Output format: text, json or csv.")
    var format: Format = .text

    private var style: PriceFormatter.Style { isoCode ? .isoCode : .symbol }

    func run() throws {
        let formatter = PriceFormatter()
        do {
            if let catalog {
                guard amount == nil, storefronts == nil else {
                    throw usage("--catalog formats the catalog's own prices: give no AMOUNT and no --storefronts")
                }
                try printCatalog(catalog, formatter)
                return
            }
            guard let amount else { throw usage("give an AMOUNT, or --catalog PATH") }
            let value = try PriceFormatting.Price(parsing: amount, currency: currency ?? "USD").amount
            if let storefronts {
                guard let currency else { throw usage("--storefronts needs --currency: the amount is shown, never converted") }
                let rows = try Storefronts.parseList(storefronts).map { storefront in
                    [storefront.alpha3, storefront.locale, try formatter.string(value, currency: currency, locale: storefront.locale, style: style)]
                }
                Terminal.out(PriceTable.render(header: ["STOREFRONT", "LOCALE", "PRICE"], rows: rows, format: format))
            } else {
                guard let locale else { throw usage("give --locale ID (or --storefronts)") }
                let text = try formatter.string(value, currency: currency, locale: locale, style: style)
                switch format {
                case .text: Terminal.out(text + "\n")
                case .json: Terminal.out(PriceTable.render(header: ["locale", "currency", "amount", "string"],
                                                           rows: [[locale, currency ?? "", amount, text]], format: .json))
                case .csv: Terminal.out(PriceTable.render(header: ["locale", "currency", "amount", "string"],
                                                          rows: [[locale, currency ?? "", amount, text]], format: .csv))
                }
            }
        } catch let error as PriceError {
            Terminal.err("iap: error: \(error)\n")
            throw ExitCode(64)
        }
    }

    private func usage(_ message: String) -> ExitCode {
        Terminal.err("iap: error: \(message)\n")
        return ExitCode(64)
    }

    /// Every product with a declared price (`CatalogPrices`).
    private func printCatalog(_ path: String, _ formatter: PriceFormatter) throws {
        let catalogs = try Terminal.run { () throws(ToolFailure) in try CatalogSelection(given: [path]).load().requireCatalogs(verbose: false) }
        let rows = try CatalogPrices.rows(catalogs, locale: locale, style: style, formatter: formatter)
        if rows.isEmpty {
            // A header and no rows would read as "nothing to show" and pass in a script.
            let products = catalogs.reduce(0) { $0 + $1.products.count }
            try Terminal.run { () throws(ToolFailure) in
                throw .cannotRun("none of the \(products) product\(products == 1 ? "" : "s") in \(path) has a price with a currency: "
                                 + "give each a price and currency in the metadata plist, or keep a .storekit file beside it")
            }
        }
        Terminal.out(PriceTable.render(header: CatalogPrices.header, rows: rows, format: format))
    }
}

struct StorefrontsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefronts", abstract: "List the App Store's 175 storefronts: codes, currency, display locale.")

    @Option(help: "Output format: text, json or csv.")
    var format: Price.Format = .text

    func run() {
        let rows = Storefronts.all.map { [$0.alpha3, $0.alpha2, $0.currency, $0.locale, $0.name] }
        Terminal.out(PriceTable.render(header: ["ALPHA-3", "ALPHA-2", "CURRENCY", "LOCALE", "NAME"], rows: rows, format: format))
    }
}

extension TableFormat: ExpressibleByArgument {}
