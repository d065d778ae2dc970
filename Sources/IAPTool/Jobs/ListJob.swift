import Diagnostics
import IAPCatalog
import Support

/// `iap list`: one row per product of the selected catalogs.
public struct ListJob: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, csv
    }

    public var catalogs: CatalogSelection
    public var format: Format
    /// Also say what each file is and the shape it was read as, and what the walk passed over.
    public var verbose: Bool

    public init(catalogs: CatalogSelection, format: Format = .text, verbose: Bool = false) {
        self.catalogs = catalogs
        self.format = format
        self.verbose = verbose
    }

    /// The rows; a catalog with an unreadable file is status 1 with the `iap validate` command
    /// (over the same catalogs) that says what is wrong.
    public func run() -> CommandOutcome {
        var outcome = CommandOutcome()
        do throws(ToolFailure) {
            let catalogs = try self.catalogs.loadRequired(verbose: verbose, into: &outcome).catalogs
            outcome.retained.append(catalogs)
            switch format {
            case .text: outcome.stdout = ListText.render(catalogs, verbose: verbose)
            case .json: outcome.stdout = ListJSON.render(catalogs)
            case .csv: outcome.stdout = ListCSV.render(catalogs)
            }
            if catalogs.contains(where: { !$0.unreadableFileFindings.isEmpty }) {
                // The same catalogs as this run: the paths given, else the same default (CatalogSelection).
                let given = self.catalogs.origin == .given ? self.catalogs.paths : []
                let command = (["iap", "validate"] + given.map { Escape.shellArgument($0, path: true) }).joined(separator: " ")
                // The command ends the line, unquoted: its own quoted paths paste as they are.
                outcome.closing += "iap: some files could not be read as catalogs; for the details run: \(command)\n"
                outcome.status = .findings
            }
        } catch {
            outcome.fail(error)
        }
        return outcome
    }
}
