import Foundation

/// Where a target's catalog is and how to generate it. Plugins cannot share a library, so
/// Plugins/IAPGenCommand/CatalogConfig.swift is a symbolic link to this file.
struct CatalogConfig: Decodable {
    var catalog: [URL]
    var typeName = "ProductID"
    var style = "constants"
    var access = "internal"
    /// The `.storekit` file to write beside the constants (`"storekit": "Products.storekit"`), and
    /// the storefront whose prices it holds.
    var storekit: String?
    var storefront = "USA"

    var arguments: [String] { ["--type-name", typeName, "--style", style, "--access", access] }
    var storeKitArguments: [String] { ["--storefront", storefront] }

    private struct File: Decodable {
        var catalog: [String]
        var typeName: String?
        var style: String?
        var access: String?
        var storekit: String?
        var storefront: String?
    }

    /// `text` as one word of a POSIX shell: as it is when plain, else in single quotes, so a
    /// command a message names works when pasted.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+@=:,".contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The command `swift package` runs for IAPGenCommand on `target` of the package at `package`:
    /// what a stale committed file asks for, under SwiftPM.
    static func commandPluginLine(package: URL, target: String) -> String {
        "swift package --package-path \(shellWord(package.path)) --allow-writing-to-package-directory iap-gen --target \(shellWord(target))"
    }

    static func find(in folder: URL) throws -> CatalogConfig? {
        let configURL = folder.appending(path: "iap-gen.json")
        if FileManager.default.fileExists(atPath: configURL.path) {
            let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: configURL))
            var config = CatalogConfig(catalog: file.catalog.map { folder.appending(path: $0) })
            if let typeName = file.typeName { config.typeName = typeName }
            if let style = file.style { config.style = style }
            if let access = file.access { config.access = access }
            config.storekit = file.storekit
            if let storefront = file.storefront { config.storefront = storefront }
            return config
        }
        let list = folder.appending(path: "IAP_ProductIDs.plist")
        guard FileManager.default.fileExists(atPath: list.path) else { return nil }
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let extra = siblings.sorted().filter { $0.hasSuffix(".storekit") || $0 == "Metadata.plist" || $0 == "Info.plist" }
        return CatalogConfig(catalog: [list] + extra.map { folder.appending(path: $0) })
    }
}
