import CodeGeneration
import Diagnostics
import Foundation
import IAPCatalog

/// The outputs `iap.yml`'s `generate:` lists, each made as `iap gen` (Swift) or `iap storekit`
/// (`.storekit`) makes it: one code path for `iap check` (which checks them) and for `iap gen` /
/// `iap storekit` run without `-o` (which write them, or check them with `--check`), so the
/// "run iap gen" a stale file's finding asks for does what `check` compared against.
public struct ConfiguredGeneration: Sendable {
    public var configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// One listed output, made.
    public struct Output: Sendable {
        /// Its place in the list (`generate[1]`), for messages.
        public var index: Int
        public var entry: GenerateEntry
        /// The command that writes it: `gen` or `storekit`.
        public var command: String
        /// The text to write; nil when its catalog stops it (`note` says why).
        public var text: String?
        /// What making it found: a `.storekit` writer's findings, or the catalog's unreadable files.
        public var findings: [Diagnostic]
        /// Why `text` is nil: "iap: generate[0]: … not checked: …".
        public var note: String?
        public var productCount: Int
    }

    /// Whether an output is a StoreKit configuration (written by `iap storekit`), else Swift (`iap gen`).
    public static func isStoreKit(_ entry: GenerateEntry) -> Bool {
        entry.output.lowercased().hasSuffix(".storekit")
    }

    /// Where the file is, for messages: "generate[1] in iap.yml".
    func place(_ index: Int) -> String {
        "generate[\(index)] in \(configuration.path ?? Configuration.fileName)"
    }

    /// Makes the output `entry` (at `index` in the list) from its catalog, else the file's catalogs.
    public func make(_ index: Int, _ entry: GenerateEntry) throws(ToolFailure) -> Output {
        let catalogs = CatalogSelection.generating(entry.catalog.map { [$0] } ?? [], configuration: configuration)
        if Self.isStoreKit(entry) {
            let job = ConvertJob(catalogs: catalogs, format: .storekit, storefront: entry.storefront, locale: entry.locale)
            let written: ConvertJob.Result
            do {
                written = try job.run()
            } catch {
                throw ToolFailure(error.message + " (\(place(index)))", status: error.status)
            }
            let note = written.text == nil
                ? "iap: generate[\(index)]: \(entry.output) not checked: its catalog lacks what the file needs (storekit-missing-field above)" : nil
            return Output(index: index, entry: entry, command: "storekit", text: written.text, findings: written.findings, note: note,
                          productCount: written.productCount)
        }
        let options = GenerationOptions(style: entry.style.flatMap(GenerationOptions.Style.init(rawValue:)) ?? .constants,
                                        typeName: entry.typeName,
                                        access: entry.access.flatMap(GenerationOptions.Access.init(rawValue:)) ?? .internal,
                                        disambiguate: entry.disambiguate)
        let job = GenJob(catalogs: catalogs, output: entry.output, options: options, template: entry.template, root: configuration.root)
        let catalog: Catalog
        do throws(ToolFailure) {
            catalog = try job.loadCatalog()
        } catch where !error.findings.isEmpty {
            // A catalog with unreadable files: their findings, and no file.
            return Output(index: index, entry: entry, command: "gen", text: nil, findings: error.findings,
                          note: "iap: generate[\(index)]: \(entry.output) not checked: its catalog has unreadable files (malformed-catalog above)",
                          productCount: 0)
        } catch {
            throw ToolFailure(error.message + " (\(place(index)); give it a catalog:)", status: error.status)
        }
        return Output(index: index, entry: entry, command: "gen", text: try job.generate(catalog), findings: [], note: nil,
                      productCount: catalog.products.count)
    }

    /// The command line that writes every listed file of `command` (`gen`, `storekit`), named when
    /// one is stale: `iap gen`, with `--config FILE` when the file was named on the command line
    /// (one found by the search is found again from the same folder).
    public func updateCommand(_ command: String) -> String {
        var words = ["iap", command]
        if configuration.source == .commandLine, let path = configuration.path { words += ["--config", path] }
        return GenerationCheck.commandLine(words)
    }

    /// `iap gen` (`storeKit` false) or `iap storekit` (true) with no `-o`: each listed output of
    /// that kind written, or with `check` compared with the file there, as the command does for
    /// one `-o FILE`. With no iap.yml, or none of that kind listed, a usage error that says what to pass.
    public func deliver(storeKit: Bool, check: Bool) throws(ToolFailure) -> CommandOutcome {
        let command = storeKit ? "storekit" : "gen"
        let kind = storeKit ? ".storekit" : "Swift"
        guard let path = configuration.path else {
            throw .usage("no -o FILE given and no iap.yml here or above: pass -o FILE, or list the files to keep up to date "
                         + "under generate: in iap.yml (iap init writes one)")
        }
        let entries = configuration.generate.enumerated().filter { Self.isStoreKit($0.element) == storeKit }
        guard !entries.isEmpty else {
            throw .usage("no -o FILE given and \(path) lists no \(kind) output under generate:; pass -o FILE, or add one there")
        }
        var outcome = CommandOutcome()
        for (index, entry) in entries {
            let made = try make(index, entry)
            let result = ConvertJob.Result(text: made.text, findings: made.findings, losses: [], productCount: made.productCount)
            if made.text == nil, !storeKit {
                // A catalog with an unreadable file: its findings, and why nothing was written.
                outcome.findings += made.findings
                outcome.closing += TextReporter(useColor: false).render(made.findings)
                outcome.closing += "iap: error: \(entry.output) not written: its catalog has unreadable files; fix them before generating\n"
                outcome.status = outcome.status.combined(with: .findings)
                continue
            }
            outcome.append(result.deliver(to: entry.output, check: check, command: command, update: updateCommand(command)))
        }
        return outcome
    }
}
