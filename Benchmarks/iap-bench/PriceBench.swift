import Foundation
import PriceFormatting

/// Prices across 50 locales: PriceFormatter against a NumberFormatter created per call (what the
/// tutorials do) and one pre-configured NumberFormatter per locale fed pre-rounded values (the floor).
enum PriceBench {
    static let locales: [(String, String)] = [
        ("en_US", "USD"), ("en_GB", "GBP"), ("de_DE", "EUR"), ("fr_FR", "EUR"), ("it_IT", "EUR"), ("es_ES", "EUR"), ("nl_NL", "EUR"),
        ("pt_BR", "BRL"), ("pt_PT", "EUR"), ("ru_RU", "RUB"), ("tr_TR", "TRY"), ("pl_PL", "PLN"), ("sv_SE", "SEK"), ("nb_NO", "NOK"),
        ("da_DK", "DKK"), ("fi_FI", "EUR"), ("cs_CZ", "CZK"), ("hu_HU", "HUF"), ("ro_RO", "RON"), ("th_TH", "THB"), ("ms_MY", "MYR"),
        ("en_SG", "SGD"), ("zh_Hans_CN", "CNY"), ("zh_Hant_HK", "HKD"), ("zh_Hant_TW", "TWD"), ("ja_JP", "JPY"), ("ko_KR", "KRW"),
        ("en_AU", "AUD"), ("en_NZ", "NZD"), ("en_ZA", "ZAR"), ("es_MX", "MXN"), ("es_CL", "CLP"), ("es_CO", "COP"), ("ar_SA", "SAR"),
        ("ar_AE", "AED"), ("ar_KW", "KWD"), ("he_IL", "ILS"), ("hi_IN", "INR"), ("en_IN", "INR"), ("id_ID", "IDR"), ("vi_VN", "VND"),
        ("ur_PK", "PKR"), ("uk_UA", "UAH"), ("en_NG", "NGN"), ("fil_PH", "PHP"), ("kk_KZ", "KZT"), ("el_GR", "EUR"), ("de_CH", "CHF"),
        ("fr_CA", "CAD"), ("en_CA", "CAD"),
    ]

    static func run(count: Int) {
        let amounts = (0..<1000).map { Decimal($0 % 200) + Decimal(string: "0.99")! }
        let formatter = PriceFormatter()
        // Warm the cache: what a long-running app pays once per locale.
        for (locale, currency) in locales { _ = try? formatter.string(1, currency: currency, locale: locale) }

        var sink = 0
        let time = Child.bestOfThree
        let ours = time {
            for i in 0..<count {
                let (locale, currency) = locales[i % locales.count]
                sink &+= (try? formatter.string(amounts[i % amounts.count], currency: currency, locale: locale))?.utf8.count ?? 0
            }
        }
        let floorFormatters = locales.map { locale, currency -> NumberFormatter in
            let f = NumberFormatter()
            f.numberStyle = .currency
            f.locale = Locale(identifier: locale)
            f.currencyCode = currency
            return f
        }
        let rounded = amounts.map { NSDecimalNumber(decimal: $0) }
        let floor = time {
            for i in 0..<count {
                sink &+= floorFormatters[i % locales.count].string(from: rounded[i % rounded.count])?.utf8.count ?? 0
            }
        }
        let perCallCount = max(count / 50, 1000)
        let perCall = time {
            for i in 0..<perCallCount {
                let (locale, currency) = locales[i % locales.count]
                let f = NumberFormatter()
                f.numberStyle = .currency
                f.locale = Locale(identifier: locale)
                f.currencyCode = currency
                sink &+= f.string(from: rounded[i % rounded.count])?.utf8.count ?? 0
            }
        } * Double(count) / Double(perCallCount)
        // Two threads, each formatting half, sharing one PriceFormatter.
        // Each thread works on its own copies of the inputs, so the harness shares no reference
        // counts between cores; only the formatter is shared.
        let twoThreads = time {
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                let myLocales = locales.map { ($0.0 + "", $0.1 + "") }
                let myAmounts = amounts.map { $0 }
                var local = 0
                for i in stride(from: half, to: count, by: 2) {
                    let (locale, currency) = myLocales[i % myLocales.count]
                    local &+= (try? formatter.string(myAmounts[i % myAmounts.count], currency: currency, locale: locale))?.utf8.count ?? 0
                }
                _ = local
            }
        }
        // The same with one PriceFormatter per thread: what sharing costs, if anything.
        let separate = [PriceFormatter(), PriceFormatter()]
        for f in separate { for (locale, currency) in locales { _ = try? f.string(1, currency: currency, locale: locale) } }
        let twoSeparate = time {
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                let myLocales = locales.map { ($0.0 + "", $0.1 + "") }
                let myAmounts = amounts.map { $0 }
                let mine = separate[half]
                var local = 0
                for i in stride(from: half, to: count, by: 2) {
                    let (locale, currency) = myLocales[i % myLocales.count]
                    local &+= (try? mine.string(myAmounts[i % myAmounts.count], currency: currency, locale: locale))?.utf8.count ?? 0
                }
                _ = local
            }
        }
        // Control: what two threads give on this machine for pure arithmetic, measured the same way.
        @Sendable func spin(_ n: Int) -> UInt64 {
            var x: UInt64 = 88_172_645_463_325_252
            for _ in 0..<n { x ^= x << 13; x ^= x >> 7; x ^= x << 17 }
            return x
        }
        let spins = 150_000_000
        let controlOne = time { sink &+= Int(truncatingIfNeeded: spin(spins)) }
        let results = UnsafeMutablePointer<UInt64>.allocate(capacity: 16)
        defer { results.deallocate() }
        nonisolated(unsafe) let slots = results
        let controlTwo = time {
            // Each thread writes its own slot, 64 bytes apart, so the result is kept and not shared.
            DispatchQueue.concurrentPerform(iterations: 2) { i in slots[i * 8] = spin(spins / 2) }
        }
        sink &+= Int(truncatingIfNeeded: results[0] ^ results[8])
        FileHandle.standardError.write(Data(String(format: "2 threads: shared formatter %.2f×, one formatter each %.2f×, arithmetic control %.2f×\n",
                                                   ours / twoThreads, ours / twoSeparate, controlOne / controlTwo).utf8))
        print("| prices | PriceFormatter | NumberFormatter per call (est. from \(perCallCount)) | pre-configured NumberFormatter (floor) | per-call ÷ ours | ours ÷ floor | 2 threads speed-up |")
        print("|---|---|---|---|---|---|---|")
        print(String(format: "| %d × %d locales | %.0f ms | %.0f ms | %.0f ms | %.1f× | %.2f× | %.2f× |", count, locales.count,
                     ours * 1000, perCall * 1000, floor * 1000, perCall / ours, ours / floor, ours / twoThreads))
        if sink == 42 { print("") }
    }
}
