import ArgumentParser
import Foundation
import IAPTool

struct Price: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price",
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

    func run() {
        var job = PriceJob()
        job.amount = amount
        job.locale = locale
        job.currency = currency
        job.storefronts = storefronts
        job.catalog = catalog
        job.isoCode = isoCode
        job.format = format
        Terminal.end(job.run())
    }
}

struct StorefrontsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefronts", abstract: "List the App Store's 175 storefronts: codes, currency, display locale.")

    @Option(help: "Output format: text, json or csv.")
    var format: Price.Format = .text

    func run() {
        Terminal.end(StorefrontList.run(format: format))
    }
}
