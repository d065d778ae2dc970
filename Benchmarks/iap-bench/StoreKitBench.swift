import Foundation
import Diagnostics
import IAPCatalog

/// `iap storekit` on a generated metadata plist of N products, process start to file written,
/// against the Python script a team would write (Benchmarks/storekit_from_plist.py: plistlib in,
/// json out, no checks) in the same run. Target at 10,000 products: under 0.5 s.
enum StoreKitBench {
    /// A metadata plist of `count` products: consumables and non-consumables, one in ten
    /// non-renewing, three in ten auto-renewable in 50 groups with levels and free trials; each
    /// priced in USD and localized in en-US and de-DE.
    static func generate(count: Int, to path: String) {
        if FileManager.default.fileExists(atPath: path) { return }
        var out = ""
        for i in 0..<count {
            let id = "com.bench.app.product\(i)"
            let kind: String
            switch i % 10 {
            case 0, 1, 2: kind = "auto-renewable"
            case 3: kind = "non-renewing"
            case 4, 5, 6: kind = "consumable"
            default: kind = "non-consumable"
            }
            out += "\t\t<key>\(id)</key>\n\t\t<dict>\n"
            out += "\t\t\t<key>kind</key>\n\t\t\t<string>\(kind)</string>\n"
            out += "\t\t\t<key>referenceName</key>\n\t\t\t<string>Product \(i)</string>\n"
            out += "\t\t\t<key>price</key>\n\t\t\t<string>\(i % 50).99</string>\n"
            out += "\t\t\t<key>currency</key>\n\t\t\t<string>USD</string>\n"
            if kind == "auto-renewable" {
                out += "\t\t\t<key>subscriptionGroup</key>\n\t\t\t<string>Group \(i % 50)</string>\n"
                out += "\t\t\t<key>groupLevel</key>\n\t\t\t<integer>\(1 + i / 50 % 20)</integer>\n"
                out += "\t\t\t<key>subscriptionPeriod</key>\n\t\t\t<string>\(["P1W", "P1M", "P1Y"][i % 3])</string>\n"
                out += "\t\t\t<key>introductoryOffer</key>\n\t\t\t<dict>\n\t\t\t\t<key>paymentMode</key>\n\t\t\t\t<string>free-trial</string>\n\t\t\t\t<key>period</key>\n\t\t\t\t<string>P1W</string>\n\t\t\t</dict>\n"
            }
            out += "\t\t\t<key>localizations</key>\n\t\t\t<dict>\n"
            for (locale, name) in [("en-US", "Product"), ("de-DE", "Produkt")] {
                out += "\t\t\t\t<key>\(locale)</key>\n\t\t\t\t<dict>\n\t\t\t\t\t<key>displayName</key>\n\t\t\t\t\t<string>\(name) \(i)</string>\n"
                out += "\t\t\t\t\t<key>description</key>\n\t\t\t\t\t<string>\(name) number \(i)</string>\n\t\t\t\t</dict>\n"
            }
            out += "\t\t\t</dict>\n\t\t</dict>\n"
        }
        out.removeLast()
        guard FileManager.default.createFile(atPath: path, contents: Data(RuleExample.metadataPlist(out).utf8)) else { fail("cannot write \(path)") }
    }

    static func run(count: Int, iap: URL) {
        let folder = "Benchmarks/inputs/storekit-\(count)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let plist = "\(folder)/Metadata.plist"
        generate(count: count, to: plist)
        let ours = NSTemporaryDirectory() + "iap-bench-\(count).storekit", theirs = NSTemporaryDirectory() + "py-bench-\(count).storekit"
        defer {
            try? FileManager.default.removeItem(atPath: ours)
            try? FileManager.default.removeItem(atPath: theirs)
        }
        // Each iap run writes the file anew: the previous one is removed first, so "unchanged"
        // (which skips the write) never flatters the time.
        let iapTimes = (0..<5).map { _ -> Double in
            try? FileManager.default.removeItem(atPath: ours)
            return SalesBench.measure(iap.path, ["storekit", plist, "-o", ours]).seconds
        }
        let pyTimes = (0..<5).map { _ -> Double in
            SalesBench.measure("python3", ["Benchmarks/storekit_from_plist.py", plist, theirs]).seconds
        }
        func products(_ path: String) -> Int {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return text.components(separatedBy: "\"productID\" : ").count - 1
        }
        let iapBest = iapTimes.min()!, pyBest = pyTimes.min()!
        print("storekit: \(count) products from a metadata plist (\((try? FileManager.default.attributesOfItem(atPath: plist)[.size] as? Int).flatMap { $0 }.map { "\($0 / 1024) KB" } ?? "?")), best of 5:")
        print("  products written: iap \(products(ours)), python3 \(products(theirs))")
        print(String(format: "  iap storekit (process start to file written)   %.3f s   target < 0.5 s: %@", iapBest, iapBest < 0.5 ? "met" : "NOT MET"))
        print(String(format: "  python3 storekit_from_plist.py                 %.3f s", pyBest))
        print(String(format: "  iap's time ÷ python3's: %.2f×", iapBest / pyBest))
    }
}
