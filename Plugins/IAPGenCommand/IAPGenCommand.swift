import Foundation
import PackagePlugin

/// `swift package iap-gen [--target NAME] [--check]`: writes `ProductID.swift` (or the type named
/// in `iap-gen.json`) into each target that has a catalog, for teams that commit the generated
/// file, and the `.storekit` file `iap-gen.json` names (`"storekit"`) beside it. With `--check` it
/// writes nothing and fails when a file is stale, for CI.
@main
struct IAPGenCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let only = extractor.extractOption(named: "target")
        let check = extractor.extractFlag(named: "check") > 0
        let iap = try context.tool(named: "iap-gen").url
        var ran = 0
        for target in context.package.targets {
            guard let target = target as? SourceModuleTarget, only.isEmpty || only.contains(target.name),
                  let config = try CatalogConfig.find(in: target.directoryURL) else { continue }
            let output = target.directoryURL.appending(path: "\(config.typeName).swift")
            var runs = [["gen"] + config.catalog.map(\.path) + config.arguments + ["--output", output.path]]
            if let name = config.storekit {
                let storekit = target.directoryURL.appending(path: name)
                runs.append(["storekit"] + config.catalog.map(\.path) + config.storeKitArguments + ["--output", storekit.path])
            }
            for arguments in runs {
                let process = Process()
                process.executableURL = iap
                // From the package's folder, whatever folder `swift package --package-path` ran in:
                // the generated header names the catalogs relative to it, as the build plugin does.
                process.currentDirectoryURL = context.package.directoryURL
                // A stale file names this command plugin's line for the target, without --check.
                let update = CatalogConfig.commandPluginLine(package: context.package.directoryURL, target: target.name)
                process.arguments = arguments + (check ? ["--check", "--update-command", update] : [])
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    Diagnostics.error("iap-gen \(arguments[0]) failed for target \(target.name) (exit \(process.terminationStatus))")
                    throw CommandError.failed
                }
            }
            ran += 1
        }
        if ran == 0 { Diagnostics.warning("no target has an IAP_ProductIDs.plist or an iap-gen.json") }
    }

    enum CommandError: Error { case failed }
}
