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
        iap price plan --base USA:4.99 --price-points FILE    the price in every storefront, snapped to App Store Connect's points
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

extension PricePlanJob.Format: ExpressibleByArgument {}
extension PricePlan.Rounding: ExpressibleByArgument {}

struct PricePlanCommand: ParsableCommand {
    /// Parsed on its own by `IAP.main` (`iap price plan …`): `iap price` takes an amount where a
    /// subcommand's name would go.
    static let configuration = CommandConfiguration(
        commandName: "iap price plan",
        abstract: "Plan a price in every storefront from a base price: Apple's equalization, or that times a multiplier per storefront, snapped to App Store Connect's price points.")

    @Option(help: "The base price: a storefront and a price in its currency (USA:4.99).")
    var base: String

    @Option(name: .customLong("price-points"), help: "The price-points file `iap asc pull --price-points` wrote. Default: iap.yml's asc.price-points.")
    var pricePoints: String?

    @Flag(help: "Plan a subscription's price (its own price points); default an in-app purchase's.")
    var subscription = false

    @Option(help: "A CSV of storefront,multiplier lines (a purchasing-power index): each storefront's price is Apple's equalization times its multiplier.")
    var multipliers: String?

    @Option(help: "How a price between two points is snapped: nearest (halfway: the lower), or down (the customer never pays more than the plan).")
    var round: PricePlan.Rounding = .nearest

    @Option(help: "Storefronts to plan (USA,JPN,DEU), or all (default: every one the file has).")
    var storefronts: String?

    @Option(help: "Output format: text, markdown, csv, json or html.")
    var format: PricePlanJob.Format = .text

    @Option(name: .shortAndLong, help: "Write the plan as a metadata plist (FILE.plist) for --product, instead of a table.")
    var output: String?

    @Option(help: "The product the plan prices (with -o).")
    var product: String?

    @OptionGroup var config: ConfigArguments

    func run() {
        Terminal.end { () throws(ToolFailure) in
            let configuration = try config.load(verbose: false)
            guard let file = pricePoints ?? configuration.asc.pricePoints else {
                throw ToolFailure.usage("name the price points: --price-points FILE (iap asc pull --price-points writes it), or asc: price-points: in iap.yml")
            }
            var job = PricePlanJob(base: base, pricePoints: file)
            job.kind = subscription ? .subscriptions : .inAppPurchases
            job.multipliers = multipliers
            job.rounding = round
            job.storefronts = storefronts
            job.format = format
            job.output = output
            job.product = product
            return job.run()
        }
    }
}
