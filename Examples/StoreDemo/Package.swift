// swift-tools-version:6.1
// An app-like package that uses IAPCatalog's build-tool plugin: ProductID.swift is generated from
// Sources/StoreDemo/IAP_ProductIDs.plist (and Metadata.plist) at build time, so a typo in a
// product ID used in code is a compile error.
import PackageDescription

let package = Package(
    name: "StoreDemo",
    dependencies: [
        .package(name: "IAPCatalog", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "StoreDemo",
            exclude: ["IAP_ProductIDs.plist", "Metadata.plist"],
            plugins: [.plugin(name: "IAPGenPlugin", package: "IAPCatalog")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
