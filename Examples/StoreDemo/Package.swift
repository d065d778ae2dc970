// swift-tools-version:6.1
// An app-like package that uses IAPCatalog's build-tool plugin: ProductID.swift is generated from
// Sources/StoreDemo/IAP_ProductIDs.plist (and Metadata.plist) at build time, so a typo in a
// product ID used in code is a compile error; iap-gen.json also asks for StoreDemo.storekit, a
// StoreKit configuration written from the same catalog and bundled as a resource. The plugin's
// tool is iap-gen, which builds without swift-syntax.
import PackageDescription

let package = Package(
    name: "StoreDemo",
    dependencies: [
        .package(name: "IAPCatalog", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "StoreDemo",
            exclude: ["IAP_ProductIDs.plist", "Metadata.plist", "iap-gen.json"],
            plugins: [.plugin(name: "IAPGenPlugin", package: "IAPCatalog")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
