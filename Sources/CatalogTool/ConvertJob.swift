import CodeGeneration
import Diagnostics
import Foundation
import PropertyList
import IAPCatalog
import PriceFormatting
import Support

/// The catalog formats `iap convert` writes.
public enum CatalogFormat: String, Sendable, CaseIterable {
    /// An Xcode StoreKit configuration file (format 4.0).
    case storekit
    /// Our metadata plist.
    case metadata
    /// A plain `<array>` of product IDs (`IAP_ProductIDs.plist`).
    case ids

    /// The format a file name implies: `.storekit`, else a metadata plist.
    public static func implied(by path: String) -> CatalogFormat {
        path.lowercased().hasSuffix(".storekit") ? .storekit : .metadata
    }
}

/// `iap storekit` and `iap convert`: one catalog written in another format, with findings for
/// what the target needs and the catalog lacks, and notes for what the target cannot hold.
public struct ConvertJob: Sendable {
    /// The catalog converted.
    public var catalogs: CatalogSelection
    public var format: CatalogFormat
    /// The storefront a `.storekit` holds prices for; nil: the one the catalog's prices are for
    /// (a `.storekit` file's, or a metadata plist's `storefront`), else the USA.
    public var storefront: String?
    public var locale: String?

    public init(catalogs: CatalogSelection, format: CatalogFormat, storefront: String? = nil, locale: String? = nil) {
        self.catalogs = catalogs
        self.format = format
        self.storefront = storefront
        self.locale = locale
    }

    public struct Result: Sendable {
        /// The file's text; nil when an error finding stops the write.
        public var text: String?
        public var findings: [Diagnostic]
        /// What the target format cannot hold, one line each ("not carried over: …").
        public var losses: [String]
        /// What the user should know about what was written ("note: …").
        public var remarks: [String] = []
        public var productCount: Int
        /// Products an error finding keeps out of the file, counted from `findings` as given here
        /// (before `run` caps what is shown).
        public var blockedProducts: Int

        public init(text: String?, findings: [Diagnostic], losses: [String], remarks: [String] = [], productCount: Int) {
            self.text = text
            self.findings = findings
            self.losses = losses
            self.remarks = remarks
            self.productCount = productCount
            blockedProducts = Set(findings.filter { $0.severity == .error }.compactMap(\.subject)).count
        }
    }

    /// A writer's findings as they are shown: each rule's first 100 in output order and one
    /// summary of the rest, as `validate` shows a catalog rule's (a catalog of 20,000 products
    /// without prices is not 20,000 lines).
    static func shown(_ findings: [Diagnostic]) -> [Diagnostic] {
        let limit = ValidationOptions().findingsPerRule
        let rules = ToolRules.storeKit
        guard let limit, rules.contains(where: { rule in findings.count(where: { $0.ruleID == rule.id }) > limit }) else { return findings }
        let capped = rules.flatMap { rule in CatalogValidator.capped(findings.filter { $0.ruleID == rule.id }, of: rule, to: limit) }
        return (capped + findings.filter { finding in !rules.contains { $0.id == finding.ruleID } }).sortedForOutput()
    }

    /// The writer is made first, so a bad `--storefront` is a usage error before anything is read.
    public func run() throws(ToolFailure) -> Result {
        var writer: StoreKitWriter? = format == .storekit ? try StoreKitWriter(storefront: storefront ?? "USA", locale: locale) : nil
        let catalog = try catalogs.loadOne()
        if format == .storekit, storefront == nil, let origin = MetadataWriter.priceOrigin(catalog) {
            writer = try StoreKitWriter(storefront: origin.storefront, locale: locale ?? origin.locale)
        }
        if let problem = catalog.unreadableFileFindings.first {
            throw ToolFailure("\(problem.location): \(problem.message); fix the file before converting", status: .findings)
        }
        var losses = StoreKitExtras.losses(in: catalog, target: format)
        if !catalog.retiredIDs.isEmpty, format != .ids {
            losses.append("the retired IDs of RetiredProductIDs.plist (\(catalog.retiredIDs.count)): keep that file beside the new one")
        }
        switch format {
        case .storekit:
            let output = writer!.write(catalog)
            // Only a bundle ID the metadata plist gave is the catalog's; Info.plist keeps its own.
            let fromMetadata = catalog.files.contains { $0.path == catalog.bundleID?.location.path && $0.content == .metadata }
            if let bundle = catalog.bundleID, fromMetadata { losses.append("the bundle ID \(bundle.value): a StoreKit configuration does not name its app") }
            if !catalog.requiredLocales.isEmpty {
                losses.append("requiredLocales (\(catalog.requiredLocales.joined(separator: ", "))): a StoreKit configuration has no such list")
            }
            losses += output.notes
            let blocked = output.findings.contains { $0.severity == .error }
            var result = Result(text: blocked ? nil : output.text, findings: output.findings, losses: losses, remarks: output.remarks,
                                productCount: output.productCount)
            result.findings = Self.shown(result.findings)
            return result
        case .metadata:
            losses += MetadataWriter.repeatedLocales(catalog) + MetadataWriter.inferredKinds(catalog)
            return Result(text: MetadataWriter().metadataPlist(catalog), findings: [], losses: losses, productCount: catalog.products.count)
        case .ids:
            return Result(text: MetadataWriter().idList(catalog), findings: [],
                          losses: ["kinds, names, prices, groups and offers: an ID list holds product IDs only"],
                          productCount: catalog.products.count)
        }
    }
}

/// What a `.storekit` file holds that the catalog model does not carry: code offers, win-back
/// offers, subscription group localizations, app policies and the offer-signing key. Counted so
/// that a conversion lists them instead of dropping them silently.
enum StoreKitExtras {
    private struct File: Decodable {
        struct Offerless: Decodable { var productID: String; var codeOffers: [Ignored]?; var winbackOffers: [Ignored]?; var promotionalImageID: String? }
        struct Group: Decodable { var name: String; var localizations: [Ignored]?; var subscriptions: [Offerless]? }
        struct Policies: Decodable { var eula: String?; var policies: [Policy]? }
        struct Policy: Decodable { var policyText: String?; var policyURL: String? }
        struct KeyPair: Decodable { var privateKey: String? }
        var subscriptionGroups: [Group]?
        var appPolicies: Policies?
        var subscriptionOffersKeyPair: KeyPair?
    }

    private struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// Why `target` leaves out `what` (offer codes, win-back offers): the format has no place
    /// for them, or (a StoreKit configuration) iap does not write them.
    static func missing(_ what: String, in target: CatalogFormat) -> String {
        switch target {
        case .metadata: "the metadata plist has no \(what)"
        case .ids: "an ID list has no \(what)"
        case .storekit: "iap writes no \(what) into a StoreKit configuration; add them in Xcode's StoreKit editor"
        }
    }

    static func losses(in catalog: Catalog, target: CatalogFormat) -> [String] {
        var losses: [String] = []
        for file in catalog.files {
            guard case .storeKit = file.content, case .success(let data) = FileContents.read(file.path),
                  let decoded = try? JSONDecoder().decode(File.self, from: data) else { continue }
            let name = (file.path as NSString).lastPathComponent
            let subscriptions = (decoded.subscriptionGroups ?? []).flatMap { $0.subscriptions ?? [] }
            let codes = subscriptions.filter { !($0.codeOffers ?? []).isEmpty }
            // A metadata plist and a `.storekit` file hold offer codes (an ill-formed one is invalid-metadata).
            if !codes.isEmpty, target == .ids {
                losses.append("\(name): offer codes of \(codes.map(\.productID).joined(separator: ", ")): \(missing("offer codes", in: target))")
            }
            let winbacks = subscriptions.filter { !($0.winbackOffers ?? []).isEmpty }
            if !winbacks.isEmpty {
                // A metadata plist holds win-back offers, but iap does not read a StoreKit configuration's yet.
                let why = target == .metadata ? "iap does not read a StoreKit configuration's win-back offers yet; declare them in the metadata plist's winBackOffers"
                    : missing("win-back offers", in: target)
                losses.append("\(name): win-back offers of \(winbacks.map(\.productID).joined(separator: ", ")): \(why)")
            }
            let imaged = subscriptions.filter { $0.promotionalImageID != nil }
            if !imaged.isEmpty {
                losses.append("\(name): the promotional images of \(imaged.map(\.productID).joined(separator: ", ")): images live in App Store Connect")
            }
            let named = (decoded.subscriptionGroups ?? []).filter { !($0.localizations ?? []).isEmpty }
            if !named.isEmpty {
                losses.append("\(name): the localized names of subscription group \(named.map { "\(Quote.bounded($0.name))" }.joined(separator: ", "))")
            }
            let policies = decoded.appPolicies
            if !(policies?.eula ?? "").isEmpty || (policies?.policies ?? []).contains(where: { !($0.policyText ?? "").isEmpty || !($0.policyURL ?? "").isEmpty }) {
                losses.append("\(name): the app policies (EULA, privacy policy)")
            }
            if !(decoded.subscriptionOffersKeyPair?.privateKey ?? "").isEmpty {
                losses.append("\(name): the offer-signing key (subscriptionOffersKeyPair), on purpose: keys do not belong in a reviewed file")
            }
        }
        return losses
    }
}

extension ConvertJob.Result {
    /// Writes the text to `output` (atomically, only when changed), or with `check` compares it
    /// with the file there and gives the diff when stale, as `gen --check` does. `command` names
    /// the command in messages (`storekit`, `convert`); `update`, the command line that updates the
    /// file (`GenerationCheck.update`).
    public func deliver(to output: String, check: Bool, command: String, update: String? = nil) -> CommandOutcome {
        var outcome = CommandOutcome()
        outcome.findings = findings
        outcome.retained = [self]
        let reporter = TextReporter(useColor: false)
        outcome.closing += reporter.render(findings)
        for loss in losses { outcome.closing += "iap: not carried over: \(loss)\n" }
        for remark in remarks { outcome.closing += "iap: note: \(remark)\n" }
        outcome.status = ExitStatus.of(findings, strict: false)
        guard let text else {
            outcome.closing += "iap: error: \(output) not written: \(plural(blockedProducts, "product")) lack\(blockedProducts == 1 ? "s" : "") what the file needs (above)\n"
            outcome.status = .findings
            return outcome
        }
        if check {
            let state = GenerationCheck(output: output, generated: text, command: command, update: update)
            outcome.stdout = state.diff ?? ""
            outcome.closing += "iap: \(state.statusLine)\n"
            if state.state != .upToDate {
                outcome.status = .findings
                outcome.findings += state.findings
            }
            return outcome
        }
        do {
            switch try OutputFile.write(text, to: output) {
            case .written: outcome.closing += "iap: wrote \(output) (\(plural(productCount, "product")))\n"
            case .unchanged: outcome.closing += "iap: \(output) unchanged\n"
            }
            outcome.written = [output]
        } catch {
            outcome.closing += "iap: error: \(error.description)\n"
            outcome.status = .cannotRun
        }
        return outcome
    }
}
