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
@main
struct IAPGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL
        guard let config = try CatalogConfig.find(in: folder) else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(config.typeName).swift")
        let tool = try context.tool(named: "iap-gen").url
        let sources = config.catalog.map(\.lastPathComponent).joined(separator: ", ")
        var commands: [Command] = [
            .buildCommand(
                displayName: "Generating \(config.typeName).swift from \(sources)",
                executable: tool,
                arguments: ["gen"] + config.catalog.map(\.path) + config.arguments + ["--output", output.path],
                inputFiles: config.catalog,
                outputFiles: [output]),
        ]
        if let name = config.storekit {
            let storekit = context.pluginWorkDirectoryURL.appending(path: name)
            commands.append(.buildCommand(
                displayName: "Writing \(name) from \(sources)",
                executable: tool,
                arguments: ["storekit"] + config.catalog.map(\.path) + config.storeKitArguments + ["--output", storekit.path],
                inputFiles: config.catalog,
                outputFiles: [storekit]))
        }
        return commands
    }
}

