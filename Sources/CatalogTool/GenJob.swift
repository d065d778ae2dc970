import CodeGeneration
import Diagnostics
import Foundation
import PropertyList
import IAPCatalog
import Support

/// `gen`: the text generation writes for one catalog.
public struct GenJob: Sendable {
    /// The catalog generated from.
    public var catalogs: CatalogSelection
    public var output: String
    public var options: GenerationOptions
    public var template: String?
    /// The folder the generated header names sources relative to: the folder of `iap.yml`, else
    /// the working folder, so the file is the same whichever folder `iap` runs in.
    public var root: String

    public init(catalogs: CatalogSelection, output: String, options: GenerationOptions = GenerationOptions(), template: String? = nil,
                root: String = ".") {
        self.catalogs = catalogs
        self.output = output
        self.options = options
        self.template = template
        self.root = root
    }

    /// The one catalog of the selection; a catalog with an unreadable file is a failure (status 1)
    /// that carries the findings of its unreadable files, since generating from half a catalog
    /// would drop products silently.
    public func loadCatalog() throws(ToolFailure) -> Catalog {
        let catalog = try catalogs.loadOne()
        let unreadable = catalog.unreadableFileFindings
        if let problem = unreadable.first {
            throw ToolFailure("\(problem.location): \(problem.message); fix the file before generating", status: .findings, findings: unreadable)
        }
        return catalog
    }

    /// The generated text.
    public func generate(_ catalog: Catalog) throws(ToolFailure) -> String {
        var paths = RelativePaths(root: root)
        let sources = catalog.files.map { file in
            let relative = paths.relative(file.path)
            return relative.hasPrefix("/") ? Self.relative(relative) : relative
        }
        do {
            if let template {
                switch FileContents.open(template) {
                case .success(let fd): close(fd)
                case .failure(let failure) where FileContents.isMissing(failure):
                    throw ToolFailure.cannotRun("template '\(template)' not found")
                case .failure(let failure):
                    throw ToolFailure.cannotRun("template '\(template)': cannot read: \(failure.phrase)")
                }
                return try TemplateRenderer(options: options).render(templateAt: template, catalog: catalog, sources: sources)
            }
            return try CodeGenerator(options: options).generate(catalog, sources: sources)
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure("\(error)", status: .findings)
        }
    }

    /// The catalog's constants written to `output` (atomically, only when changed), or with
    /// `check` compared with the file there, as `iap-gen` does: what `ConvertJob.Result.deliver` says.
    /// `update` is the command line a stale file's message names (`GenerationCheck.update`).
    public func deliver(check: Bool, update: String? = nil) throws(ToolFailure) -> CommandOutcome {
        let catalog = try loadCatalog()
        let text = try generate(catalog)
        return ConvertJob.Result(text: text, findings: [], losses: [], productCount: catalog.products.count)
            .deliver(to: output, check: check, command: "gen", update: update)
    }

    /// Paths in the header relative to the working directory, so the file is the same on every machine.
    public static func relative(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let cwd = FileManager.default.currentDirectoryPath
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : (path as NSString).lastPathComponent
    }
}
