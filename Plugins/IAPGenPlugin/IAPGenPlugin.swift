import Foundation
import PackagePlugin

/// Generates `ProductID.swift` for a target from its in-app purchase catalog, as a build command
/// with declared inputs and output: SwiftPM reruns it only when a catalog file changed, and
/// `iap gen` rewrites the file only when its content changed, so nothing recompiles needlessly.
///
/// The catalog is `IAP_ProductIDs.plist` in the target's folder, with the metadata plists and
/// `.storekit` files beside it; or the files listed in the target's `iap-gen.json`:
/// `{"catalog": ["Store/Products.plist", "Store/Metadata.plist"], "typeName": "ProductID",
///   "style": "constants", "access": "internal", "storekit": "Products.storekit", "storefront": "USA"}`.
/// With `storekit`, a second command writes that StoreKit configuration from the same catalog
/// beside the generated Swift file, where the target's build bundles it as a resource.
///
/// The tool is `iap-gen`, not `iap`: it builds without swift-syntax, so adopting the plugin costs
/// an app a few seconds of build, not minutes.
///
/// A target may also hold the files `swift package iap-gen` (IAPGenCommand) committed there. The
/// plugin then does not generate a second `ProductID.swift` (two files of one name in one target are
/// SwiftPM's "multiple producers" error) nor a second `.storekit` resource: it checks the committed
/// files instead (`iap-gen … --check`), so a build fails, naming the stale file, when a catalog
/// changed and the committed file was not regenerated.
@main
struct IAPGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL
        guard let config = try CatalogConfig.find(in: folder) else { return [] }
        let tool = try context.tool(named: "iap-gen").url
        let sources = config.catalog.map(\.lastPathComponent).joined(separator: ", ")
        var jobs = [(kind: "gen", file: "\(config.typeName).swift", arguments: config.arguments)]
        if let name = config.storekit { jobs.append((kind: "storekit", file: name, arguments: config.storeKitArguments)) }
        return jobs.map { job in
            let committed = folder.appending(path: job.file)
            let run = [job.kind] + config.catalog.map(\.path) + job.arguments
            guard FileManager.default.fileExists(atPath: committed.path) else {
                let output = context.pluginWorkDirectoryURL.appending(path: job.file)
                return .buildCommand(
                    displayName: job.kind == "gen" ? "Generating \(job.file) from \(sources)" : "Writing \(job.file) from \(sources)",
                    executable: tool,
                    arguments: run + ["--output", output.path],
                    inputFiles: config.catalog,
                    outputFiles: [output])
            }
            // The committed file is checked, not generated: the command's only output is a stamp
            // that records a passing check (a build command must produce what it declares).
            let stamp = context.pluginWorkDirectoryURL.appending(path: "\(job.file).checked")
            return .buildCommand(
                displayName: "Checking committed \(job.file) against \(sources)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", #"stamp="$1"; shift; "$@" && : > "$stamp""#, "iap-gen-check", stamp.path,
                            tool.path] + run + ["--output", committed.path, "--check"],
                inputFiles: config.catalog + [committed, tool],
                outputFiles: [stamp])
        }
    }
}
