import Foundation

/// Formats prices the way a customer sees them, per locale and currency, through Foundation's
/// `NumberFormatter`, working around its Linux defects:
/// - amounts are rounded half-even on the `Decimal` and never pass through `Double`
///   (`1.005 USD` is `$1.00`; `12345678901234567.89` keeps every digit);
/// - Indian grouping (`₹10,00,000.00`) is restored: the locale's real grouping sizes are read
///   from `FormatStyle` and pushed into the formatter, whose secondary size Linux resets to 0;
/// - a currency's fraction digits come from what the formatter prints (JPY 0, KWD 3), since its
///   `minimum/maximumFractionDigits` say 2 for every currency;
/// - `currencySymbol` is never set, because setting it makes the formatter ignore `currencyCode`.
///
/// What one (locale, currency) looks like is learned once and cached; formatting a price after
/// that is plain string work under a short lock, so threads do not queue on a shared formatter.
public final class PriceFormatter: Sendable {
    /// How the currency is named: the locale's symbol (`$0.99`) or the ISO code (`USD 0.99`).
    public enum Style: Sendable, Hashable {
        case symbol
        case isoCode
    }

    private struct Key: Hashable {
        var locale: String
        var currency: String
        var style: Style
    }

    private let cache = LockedDictionary<Key, CurrencyTemplate>()
    /// The same templates keyed by the strings callers pass, so a hit skips parsing and validation;
    /// striped by thread, each stripe with its own lock and its own copies of the templates, so
    /// threads sharing one formatter do not contend on a lock or on reference counts.
    private struct RequestKey: Hashable {
        var locale: String
        var currency: String?
        var style: Style
    }

    private let stripes: [LockedDictionary<RequestKey, CurrencyTemplate>] = (0..<16).map { _ in LockedDictionary() }
    /// Each thread's stripe, handed out round-robin on its first call, so the first 16 threads
    /// never share one. The key belongs to this formatter and is deleted with it.
    private let threadStripe: pthread_key_t
    private let nextStripe = LockedCounter()

    private var stripe: LockedDictionary<RequestKey, CurrencyTemplate> {
        if let stored = pthread_getspecific(threadStripe) {
            return stripes[Int(bitPattern: stored) - 1]
        }
        let index = nextStripe.next() % stripes.count
        pthread_setspecific(threadStripe, UnsafeRawPointer(bitPattern: index + 1))
        return stripes[index]
    }

    public init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        threadStripe = key
    }

    deinit {
        pthread_key_delete(threadStripe)
    }

    /// The customer-facing string for `price` in `locale`.
    public func string(for price: Price, locale: PriceLocale, style: Style = .symbol) throws(PriceError) -> String {
        let currency = try CurrencyCodes.validate(price.currency)
        return try format(price.amount, with: template(locale: locale.identifier, currency: currency, style: style))
    }

    /// Formats `amount` for a locale written as StoreKit or a person writes it; `currency` wins
    /// over the locale's `@currency=` keyword.
    /// `amount` in the currency and locale of the storefront `code` (alpha-3 or alpha-2), as its
    /// customers see it (`¥750`, `4,99 €`); nil for a code that is no storefront.
    public func string(_ amount: Decimal, storefront code: String) -> String? {
        guard let storefront = try? Storefronts.find(code) else { return nil }
        return try? string(amount, currency: storefront.currency, locale: storefront.locale)
    }

    public func string(_ amount: Decimal, currency: String? = nil, locale: String, style: Style = .symbol) throws(PriceError) -> String {
        let request = RequestKey(locale: locale, currency: currency, style: style)
        let stripe = self.stripe
        let template: CurrencyTemplate
        if let cached = stripe[request] {
            template = cached
        } else {
            let parsed = try PriceLocale(parsing: locale)
            guard let code = currency ?? parsed.currency else { throw .missingCurrency(locale) }
            template = self.template(locale: parsed.identifier, currency: try CurrencyCodes.validate(code), style: style).copy()
            stripe[request] = template
        }
        return try format(amount, with: template)
    }

    private func format(_ amount: Decimal, with template: CurrencyTemplate) throws(PriceError) -> String {
        guard let text = template.format(amount) else { throw .invalidAmount("\(amount)") }
        return text
    }

    /// The number of fraction digits the locale shows for the currency (JPY 0, USD 2, KWD 3).
    public func fractionDigits(currency: String, locale: String) throws(PriceError) -> Int {
        let parsed = try PriceLocale(parsing: locale)
        return template(locale: parsed.identifier, currency: try CurrencyCodes.validate(currency), style: .symbol).fractionDigits
    }

    private func template(locale: String, currency: String, style: Style) -> CurrencyTemplate {
        let key = Key(locale: locale, currency: currency, style: style)
        if let cached = cache[key] { return cached }
        let made = CurrencyTemplate(locale: locale, currency: currency, style: style, grouping: Self.grouping(locale: locale, currency: currency))
        cache[key] = made
        return made
    }

    /// The locale's (primary, secondary) grouping sizes for currency amounts, read from how
    /// `FormatStyle` formats 1111111111 in the currency (it keeps ICU's secondary size:
    /// `₹11,11,11,11,111` in en_IN). The currency pattern, not the plain-number one: a locale
    /// can group numbers the Indian way and amounts of money the Western way (en_BT).
    static func grouping(locale: String, currency: String) -> (Int, Int) {
        let style = Decimal.FormatStyle.Currency(code: currency).precision(.fractionLength(0)).locale(Locale(identifier: locale))
        let text = Decimal(string: "1111111111")!.formatted(style)
        var groups: [Int] = []
        var run = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal { run += 1 } else if run > 0 { groups.append(run); run = 0 }
        }
        groups.append(run)
        guard groups.count >= 2 else { return (3, 0) }
        let primary = groups[groups.count - 1]
        let secondary = groups.count >= 3 ? groups[groups.count - 2] : primary
        return (primary, secondary == primary ? 0 : secondary)
    }
}

/// A counter behind a lock.
final class LockedCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    func next() -> Int {
        lock.withLock {
            defer { value += 1 }
            return value
        }
    }
}

/// A dictionary behind a lock, for caches shared between threads; held only for a lookup.
final class LockedDictionary<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private var storage: [Key: Value] = [:]
    private let lock = NSLock()

    subscript(key: Key) -> Value? {
        get { lock.withLock { storage[key] } }
        set { lock.withLock { storage[key] = newValue } }
    }
}
