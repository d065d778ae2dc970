import Foundation
import PackagePlugin

/// Generates `ProductID.swift` for a target from its in-app purchase catalog, as a build command
/// with declared inputs and output: SwiftPM reruns it only when a catalog file changed, and
/// `iap gen` rewrites the file only when its content changed, so nothing recompiles needlessly.
///
/// The catalog is `IAP_ProductIDs.plist` in the target's folder, with the metadata plists and
/// `.storekit` files beside it; or the files listed in the target's `iap-gen.json`:
/// `{"catalog": ["Store/Products.plist", "Store/Products.storekit"], "typeName": "ProductID",
///   "style": "constants", "access": "internal"}`.
@main
struct IAPGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL
        guard let config = try CatalogConfig.find(in: folder) else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(config.typeName).swift")
        return [
            .buildCommand(
                displayName: "Generating \(config.typeName).swift from \(config.catalog.map(\.lastPathComponent).joined(separator: ", "))",
                executable: try context.tool(named: "iap").url,
                arguments: ["gen"] + config.catalog.map(\.path) + config.arguments + ["--output", output.path],
                inputFiles: config.catalog,
                outputFiles: [output]),
        ]
    }
}

