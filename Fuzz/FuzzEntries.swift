@testable import AppStoreConnect
@testable import CatalogJoins
import Crypto
import CatalogTool
import Diagnostics
import Foundation
@testable import IAPCatalog
@testable import IAPTool
@testable import PriceFormatting
@testable import PropertyList
import SalesReports
@testable import SourceLint

/// One input through one reader, as the fuzzers (`scripts/fuzz.sh`) and the replay tests
/// (`FuzzReplayTests`, which run every file under Tests/Fixtures/FuzzFindings) call it. Each entry
/// must return for every input: an error is an answer, a crash or a hang is a finding.
enum FuzzEntries {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "plist": plist,
        "storekit": storekit,
        "shapes": shapes,
        "objc": objc,
        "swift": swift,
        "price": price,
        "config": config,
        "sales": sales,
        "gencheck": gencheck,
        "baseline": baseline,
        "asc": asc,
        "ascanswers": ascAnswers,
        "pricepoints": pricePoints,
        "plan": plan,
    ]

    /// `iap asc apply`'s plan file: read, written and read back (it must read, and be the same
    /// plan), each step judged against an app with nothing and against a small app, then applied
    /// to each through a scripted App Store Connect (`PlanStore`) that takes every write but one
    /// the input's length chooses.
    static func plan(_ bytes: [UInt8]) {
        guard let plan = try? CatalogPlan.decode(Data(bytes), path: "p.json") else { return }
        let text = plan.encoded()
        let again: CatalogPlan
        do {
            again = try CatalogPlan.decode(Data(text.utf8), path: "p.json")
        } catch {
            preconditionFailure("a plan read does not read back once written: \(error)")
        }
        precondition(again == plan, "a plan read back once written is another plan")
        precondition(again.encoded() == text, "a plan read back once written is written otherwise")
        let apply = PlanApply(plan: plan, allTerritories: ["USA", "GBR", "JPN"])
        let empty = ASCSnapshot(app: plan.app, inAppPurchases: [], subscriptionGroups: [])
        for live in [empty, planSnapshot] {
            _ = apply.staleness(live, resuming: false)
            _ = apply.staleness(live, resuming: true)
            _ = apply.statuses(live)
            _ = apply.verify(live)
        }
        guard let key = try? APIKey(issuerID: "i", keyID: "K", pem: fuzzKey) else { return }
        for live in [empty, planSnapshot] {
            let store = PlanStore(plan, badWrite: bytes.count % 32, badAnswer: bytes.count / 32 % 4)
            guard var client = try? ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: store, sleep: { _ in }) else { return }
            client.maxAttempts = 1
            do {
                try apply.run(live: live, client: client) { _ in }
            } catch {
                _ = error.description
            }
        }
    }

    /// App Store Connect for `plan`, answering reads from what the plan names: a territory's price
    /// points are the first 100 amounts the plan sets there, offers' included (so a price it looks
    /// for is most often found); a point's equalizations, the first amount in each of the first 200
    /// territories the plan prices; a product's localizations, the locales the plan names; any other
    /// read, an empty page. A write is answered with the resource it made, of the type it sent,
    /// except the `badWrite`th (from 0), whose answer is cut short, of another type, an ID that is
    /// not one, or a 409.
    final class PlanStore: HTTPTransport, @unchecked Sendable {
        let lock = NSLock()
        /// Territory → amounts. Bounded, as App Store Connect's are (800 a territory, 175
        /// territories), so that a plan of many prices costs the fuzzer its length, not its square.
        let amounts: [String: [String]]
        let equalized: [String]
        /// The locales the plan's localization steps name, at most 50: every product has them.
        let locales: [String]
        let badWrite: Int
        let badAnswer: Int
        var writes = 0

        init(_ plan: CatalogPlan, badWrite: Int, badAnswer: Int) {
            var amounts: [String: Set<String>] = [:]
            for step in plan.steps {
                if step.action == .setPrices {
                    for (territory, amount) in step.set where territory != "baseTerritory" { amounts[territory, default: []].insert(amount) }
                }
                if step.action == .setIntroductoryOffer, let territory = step.set["baseTerritory"], let amount = step.set["price"] {
                    amounts[territory, default: []].insert(amount)
                }
            }
            // A plan's amounts, territories and locales are letters, digits, '.', '-' and '_' (`ASCValue`): nothing to escape.
            self.amounts = amounts.mapValues { Array($0.sorted().prefix(100)) }
            equalized = Array(amounts.keys.sorted().prefix(200))
            locales = Array(Set(plan.steps.compactMap(\.locale)).sorted().prefix(50))
            self.badWrite = badWrite
            self.badAnswer = badAnswer
        }

        func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse {
            var points: [(territory: String, id: String, price: String)] = []
            if url.path.hasSuffix("/pricePoints") {
                let filter = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "filter[territory]" }?.value ?? ""
                for territory in filter.split(separator: ",").map(String.init) {
                    for (index, amount) in (amounts[territory] ?? []).enumerated() { points.append((territory, "pp\(territory)\(index)", amount)) }
                }
            } else if url.path.hasSuffix("/equalizations") {
                for territory in equalized { points.append((territory, "eq\(territory)", amounts[territory]![0])) }
            }
            let type = url.path.hasPrefix("/v1/subscription") ? "subscriptionPricePoints" : "inAppPurchasePricePoints"
            var data = points.map {
                #"{"type":"\#(type)","id":"\#($0.id)","attributes":{"customerPrice":"\#($0.price)"},"relationships":{"territory":{"data":{"type":"territories","id":"\#($0.territory)"}}}}"#
            }
            if url.path.hasSuffix("Localizations") {
                let type = url.lastPathComponent
                data = locales.enumerated().map { #"{"type":"\#(type)","id":"loc\#($0.offset)","attributes":{"locale":"\#($0.element)"}}"# }
            }
            return HTTPResponse(status: 200, body: Data(#"{"data":[\#(data.joined(separator: ","))],"links":{"self":"http://127.0.0.1:9/x"}}"#.utf8))
        }

        func send(_ method: String, _ url: URL, headers: [String: String], body: Data) throws(TransportError) -> HTTPResponse {
            struct Sent: Decodable { struct Resource: Decodable { var type: String }; var data: Resource }
            let type = (try? JSONDecoder().decode(Sent.self, from: body))?.data.type ?? "none"
            let number = lock.withLock { () -> Int in
                defer { writes += 1 }
                return writes
            }
            guard number == badWrite else {
                return HTTPResponse(status: method == "POST" ? 201 : 200, body: Data(#"{"data":{"type":"\#(type)","id":"9\#(number)"}}"#.utf8))
            }
            switch badAnswer {
            case 0: return HTTPResponse(status: 201, body: Data(#"{"data":{"type":"\#(type)","#.utf8))
            case 1: return HTTPResponse(status: 201, body: Data(#"{"data":{"type":"apps","id":"1"}}"#.utf8))
            case 2: return HTTPResponse(status: 201, body: Data(#"{"data":{"type":"\#(type)","id":"../../v1/apps"}}"#.utf8))
            default: return HTTPResponse(status: 409, body: Data(#"{"errors":[{"status":"409","code":"ENTITY_ERROR","title":"taken"}]}"#.utf8))
            }
        }
    }

    /// A small app for plans to be judged against: two in-app purchases (one priced and sold in
    /// every territory), a group with a subscription that has an introductory offer.
    static let planSnapshot = try! ASCSnapshot.decode(Data(#"""
        {"format": "iap-asc-snapshot", "version": 1, "storefront": "USA",
         "app": {"bundleId": "com.acme.shop", "id": "6470000001", "name": "Shop"},
         "inAppPurchases": [
          {"familySharable": false, "id": "6470001001", "name": "100 Coins", "productId": "com.acme.shop.coins.100", "state": "APPROVED", "type": "CONSUMABLE",
           "localizations": [{"description": "A pile of coins", "locale": "en-US", "name": "100 Coins", "state": "APPROVED"}],
           "price": {"amount": "0.99", "currency": "USD"},
           "prices": {"GBR": "0.99 GBP", "JPN": "160 JPY", "USA": "0.99 USD"},
           "review": {"availability": {"availableInNewTerritories": true, "id": "ia6470001001", "territories": ["GBR", "JPN", "USA"]}, "screenshot": true}},
          {"id": "6470001002", "name": "Shop Pro", "productId": "com.acme.shop.pro", "type": "NON_CONSUMABLE",
           "localizations": [{"locale": "fr-FR", "name": "Pro"}]}
         ],
         "subscriptionGroups": [
          {"id": "21470001", "referenceName": "Club", "localizations": [{"locale": "en-US", "name": "Shop Club"}],
           "subscriptions": [
            {"familySharable": true, "groupLevel": 1, "id": "6470002001", "name": "Club Monthly", "period": "ONE_MONTH", "productId": "com.acme.shop.club.monthly",
             "introductoryOffer": {"duration": "ONE_MONTH", "mode": "PAY_AS_YOU_GO", "periods": 3, "price": {"amount": "0.99", "currency": "USD"}},
             "localizations": [{"description": "Every month", "locale": "en-US", "name": "Club"}],
             "prices": {"USA": "2.99 USD"},
             "review": {"availability": {"availableInNewTerritories": false, "id": "sa6470002001", "territories": ["USA"]}, "screenshot": true}}
           ]}
         ]}
        """#.utf8), path: "s.json")

    /// A price-points file (read, written again, a catalog checked against it, a plan made from
    /// it), and the same bytes as a plan's multipliers CSV.
    static func pricePoints(_ bytes: [UInt8]) {
        let data = Data(bytes)
        if let points = try? PricePoints.decode(data, path: "p.json") {
            _ = points.encoded()
            let catalog = CatalogLoader().loadCatalog(name: "fuzz", paths: [], explicit: [])
            _ = PricePointCheck(points: points, path: "p.json").check(catalog)
            for kind in PricePoints.Kind.allCases {
                for equalization in points.equalizations[kind] ?? [] {
                    let plan = PricePlan(kind: kind, baseTerritory: equalization.territory, basePrice: equalization.price, rounding: .down)
                    _ = try? plan.rows(points, path: "p.json")
                }
            }
        }
        _ = try? PricePlan.multipliers(csv: String(decoding: bytes, as: UTF8.self), path: "m.csv")
    }

    /// App Store Connect: the bytes as a snapshot file (read, located, made a catalog, compared
    /// with a catalog), then as every answer of a pull with prices (the JSON:API pages).
    static func asc(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        _ = DriftCheck.productLines(text, path: "s.json")
        if let snapshot = try? ASCSnapshot.decode(data, path: "s.json") {
            let catalog = snapshot.catalog(path: "s.json", text: text)
            let drift = DriftCheck(snapshot: snapshot, path: "s.json", text: text)
            _ = drift.check(catalog)
            let requests = snapshot.inAppPurchases.prefix(8).map { CodeRequest(id: "com.acme.app." + $0.productId, location: SourceLocation(path: "a.swift", line: 1, column: 1)) }
            _ = Readiness(catalog: catalog, drift: drift, requests: requests, storefronts: ["USA", "JPN"]).findings()
            _ = snapshot.encoded()
        }
        struct Answer: HTTPTransport {
            let body: Data
            func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse { HTTPResponse(status: 200, body: body) }
        }
        guard let key = try? APIKey(issuerID: "i", keyID: "K", pem: fuzzKey),
              var client = try? ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: Answer(body: data), sleep: { _ in })
        else { return }
        client.maxAttempts = 1
        _ = try? SnapshotPull(storefront: "USA", connections: 1).pull(app: "com.acme.app", client: client)
        _ = try? SnapshotPull(connections: 1).pull(app: "1", client: client)
    }

    /// App Store Connect's answers, one after another: the input split at NUL bytes, each part an
    /// answer — its first byte the status (most often 200; else 404, 429, 500 or 400) and whether
    /// an `X-Rate-Limit` header says how many requests are left (its second byte), the rest its
    /// body — given in order to a pull with prices on one connection (then 404s), to the resume of
    /// what it left partial, to a pull of every kind of offer, and to a report download.
    static func ascAnswers(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        final class Script: HTTPTransport, @unchecked Sendable {
            let lock = NSLock()
            let answers: [HTTPResponse]
            var next = 0
            init(_ parts: [[UInt8]]) {
                answers = parts.map { part in
                    let head = part.first ?? 0
                    let statuses = [200, 200, 200, 200, 404, 429, 500, 400]
                    var headers: [String: String] = [:]
                    if head & 0x08 != 0, part.count > 1 { headers["x-rate-limit"] = "user-hour-lim:3600;user-hour-rem:\(part[1]);" }
                    if head & 0x10 != 0 { headers["retry-after"] = "0" }
                    return HTTPResponse(status: statuses[Int(head & 0x07)], headers: headers, body: Data(part.dropFirst(head & 0x08 != 0 ? 2 : 1)))
                }
            }
            func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse {
                lock.withLock {
                    defer { next += 1 }
                    return next < answers.count ? answers[next] : HTTPResponse(status: 404, body: Data(#"{"errors":[]}"#.utf8))
                }
            }
        }
        guard let key = try? APIKey(issuerID: "00000000-0000-0000-0000-000000000000", keyID: "ABCDEFGHIJ", pem: fuzzKey) else { return }
        func client() -> ASCClient? {
            guard var client = try? ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: Script(parts), sleep: { _ in })
            else { return nil }
            client.maxAttempts = 2
            return client
        }
        let pull = SnapshotPull(storefront: "USA", connections: 1)
        guard let first = client() else { return }
        if let outcome = try? pull.pull(app: "com.acme.app", client: first) {
            let text = outcome.snapshot.encoded()
            if let partial = try? ASCSnapshot.decode(Data(text.utf8), path: "p.json", partial: true), partial.isPartial, let again = client() {
                _ = try? pull.resume(partial, client: again)
            }
            let catalog = outcome.snapshot.catalog(path: "p.json", text: text)
            _ = try? StoreKitWriter(storefront: "USA").write(catalog)
        }
        // The same answers to a pull of every kind of offer (promotional, win-back, offer codes).
        let offers = SnapshotPull(storefront: "USA", connections: 1, promotionalOffers: true, winBackOffers: true, offerCodes: true)
        if let again = client(), let outcome = try? offers.pull(app: "com.acme.app", client: again) {
            _ = outcome.snapshot.encoded()
        }
        if var reports = client(), let fetch = try? ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-11-01", to: "2026-11-02") {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-fuzz-reports-\(getpid())-\(UUID().uuidString)").path
            _ = try? fetch.run(into: folder, client: &reports)
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// A P-256 key made for the run (it signs nothing anyone verifies).
    static let fuzzKey = P256.Signing.PrivateKey().pemRepresentation

    /// The plist reader, XML and binary.
    static func plist(_ bytes: [UInt8]) {
        _ = try? PlistReader().read(bytes: bytes)
    }

    /// The `.storekit` reader (JSON, with its own syntax-error positions), then what it read
    /// written back by the `.storekit` and metadata-plist writers (`iap storekit`, `iap convert`).
    static func storekit(_ bytes: [UInt8]) {
        _ = StoreKitReader(path: "Fuzz.storekit").read(Data(bytes))
        withFile(bytes, name: "Fuzz.storekit") { path in
            let catalog = CatalogLoader().loadCatalog(name: "Fuzz", paths: [path])
            _ = try? StoreKitWriter().write(catalog)
            _ = MetadataWriter().metadataPlist(catalog)
            _ = MetadataWriter.repeatedLocales(catalog)
        }
    }

    /// Product-list shape detection and the metadata reader, then every catalog rule on what they
    /// found, on whatever the plist reader accepts.
    static func shapes(_ bytes: [UInt8]) {
        guard let document = try? PlistReader().read(bytes: bytes) else { return }
        _ = ProductListShapes(path: "IAP_ProductIDs.plist").read(document.root)
        if MetadataPlist.isMetadata(document.root) {
            _ = MetadataPlist(path: "Metadata.plist").read(document.root)
        }
        withFile(bytes, name: "IAP_ProductIDs.plist") { path in
            let catalog = CatalogLoader().loadCatalog(name: "Fuzz", paths: [path])
            _ = CatalogValidator().validate(catalog)
        }
    }

    /// The Objective-C tokenizer and linter.
    static func objc(_ bytes: [UInt8]) {
        _ = SourceLinter(context: context).lint(source: String(decoding: bytes, as: UTF8.self), path: "Fuzz.m")
    }

    /// The Swift lint visitor (swift-syntax's parser, then our rules).
    static func swift(_ bytes: [UInt8]) {
        _ = SourceLinter(context: context).lint(source: String(decoding: bytes, as: UTF8.self), path: "Fuzz.swift")
    }

    /// The price-amount parser, and formatting what it accepts.
    static func price(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let price = try? Price(parsing: text, currency: "USD") else { return }
        _ = try? PriceFormatter().string(price.amount, currency: price.currency, locale: "en_US")
    }

    /// The `iap.yml` reader.
    static func config(_ bytes: [UInt8]) {
        withFile(bytes, name: "iap.yml") { path in
            _ = try? Configuration.parse(path: path, displayPath: "iap.yml", environment: ["HOME": "/nonexistent"])
        }
    }

    /// The App Store Connect sales-report reader.
    static func sales(_ bytes: [UInt8]) {
        withFile(bytes, name: "S_D_80012345_20261104.txt") { path in
            var ledger = SalesLedger()
            SalesReportReader.read(path, into: &ledger)
        }
    }

    /// `gen --check`: the input split at its first NUL into the file on disk and what generation
    /// writes; compared, and the diff the text report shows made.
    static func gencheck(_ bytes: [UInt8]) {
        let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
        let generated = String(decoding: bytes[cut...].dropFirst(), as: UTF8.self)
        withFile(Array(bytes[..<cut]), name: "ProductID.swift") { path in
            let check = GenerationCheck(output: path, generated: generated)
            _ = check.diff
            _ = check.findings
        }
    }

    /// A baseline file, read and applied to findings that share its fingerprints.
    static func baseline(_ bytes: [UInt8]) {
        withFile(bytes, name: "baseline.json") { path in
            guard let baseline = try? Baseline.load(path) else { return }
            let findings = baseline.entries.prefix(50).flatMap { entry in
                Array(repeating: Diagnostic(ruleID: entry.fingerprint.rule, severity: .warning, message: entry.fingerprint.subject,
                                            location: SourceLocation(path: entry.fingerprint.path, line: 1, column: 1), subject: entry.fingerprint.subject),
                      count: min(entry.count, 3))
            }
            _ = baseline.apply(to: findings, root: ".")
        }
    }

    static let context = LintContext(
        productConstants: ["com.fuzz.app.coins": "coins", "com.fuzz.app.pro": "pro"],
        titles: ["100 Coins", "Pro Monthly"], bundlePrefix: "com.fuzz.app")

    /// Writes the input to a file of its own in a fresh folder, for readers that take a path.
    static func withFile(_ bytes: [UInt8], name: String, _ body: (String) -> Void) {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = "\(base)/iap-fuzz-\(getpid())"
        mkdir(folder, 0o700)
        let path = "\(folder)/\(name)"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        body(path)
        unlink(path)
    }
}
