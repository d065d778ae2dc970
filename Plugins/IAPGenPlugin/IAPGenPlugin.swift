import Foundation
import PackagePlugin
#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin
#endif

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
        // A stale committed file is updated by the command plugin: its command line, for this package and target.
        let update = CatalogConfig.commandPluginLine(package: context.package.directoryURL, target: target.name)
        return Self.commands(config: config, folder: folder, tool: try context.tool(named: "iap-gen").url,
                             workDirectory: context.pluginWorkDirectoryURL,
                             committed: { FileManager.default.fileExists(atPath: $0.path) }, update: { _ in update })
    }

    /// The build commands for a catalog in `folder`: each file generated into `workDirectory`, or,
    /// where `committed` says the target already holds it, that file checked; a stale one fails
    /// the build with a message naming `update(job)`, the command that fits the set-up.
    static func commands(config: CatalogConfig, folder: URL, tool: URL, workDirectory: URL, committed: (URL) -> Bool,
                         update: ((kind: String, file: URL, arguments: [String])) -> String) -> [Command] {
        let sources = config.catalog.map(\.lastPathComponent).joined(separator: ", ")
        var jobs = [(kind: "gen", file: "\(config.typeName).swift", arguments: config.arguments)]
        if let name = config.storekit { jobs.append((kind: "storekit", file: name, arguments: config.storeKitArguments)) }
        return jobs.map { job in
            let file = folder.appending(path: job.file)
            let run = [job.kind] + config.catalog.map(\.path) + job.arguments
            guard committed(file) else {
                let output = workDirectory.appending(path: job.file)
                return .buildCommand(
                    displayName: job.kind == "gen" ? "Generating \(job.file) from \(sources)" : "Writing \(job.file) from \(sources)",
                    executable: tool,
                    arguments: run + ["--output", output.path],
                    inputFiles: config.catalog,
                    outputFiles: [output])
            }
            // The committed file is checked, not generated: the command's only output is a stamp
            // that records a passing check (a build command must produce what it declares).
            let stamp = workDirectory.appending(path: "\(job.file).checked")
            return .buildCommand(
                displayName: "Checking committed \(job.file) against \(sources)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", #"stamp="$1"; shift; "$@" && : > "$stamp""#, "iap-gen-check", stamp.path,
                            tool.path] + run + ["--output", file.path, "--check",
                                                "--update-command", update((job.kind, file, job.arguments))],
                inputFiles: config.catalog + [file, tool],
                outputFiles: [stamp])
        }
    }
}

#if canImport(XcodeProjectPlugin)
/// The same commands for a target of an Xcode project (`.xcodeproj`): the catalog is the folder of
/// the target's `iap-gen.json` or `IAP_ProductIDs.plist` (the first by path, when several), and a
/// committed file is one the target compiles or bundles. Xcode runs no command plugin on a project
/// target, so a stale committed file names the `iap` command that rewrites it.
/// Built only by Xcode (the macOS job of .github/workflows/ci.yml); unverified on Linux.
extension IAPGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let inputs = target.inputFiles.map(\.url)
        let markers = inputs.filter { ["iap-gen.json", "IAP_ProductIDs.plist"].contains($0.lastPathComponent) }
        guard let marker = markers.min(by: { $0.path < $1.path }),
              let config = try CatalogConfig.find(in: marker.deletingLastPathComponent()) else { return [] }
        let inTarget = Set(inputs.map(\.standardizedFileURL.path))
        return Self.commands(config: config, folder: marker.deletingLastPathComponent(), tool: try context.tool(named: "iap-gen").url,
                             workDirectory: context.pluginWorkDirectoryURL,
                             committed: { inTarget.contains($0.standardizedFileURL.path) },
                             update: { job in
                                 (["iap", job.kind] + config.catalog.map(\.path) + ["-o", job.file.path] + job.arguments)
                                     .map(CatalogConfig.shellWord).joined(separator: " ")
                             })
    }
}
#endif
