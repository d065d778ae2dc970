// swift-tools-version:6.1
import PackageDescription

// libxml2 and zlib come from the system. On Linux, pkg-config finds their headers (apt's
// libxml2-dev and zlib1g-dev). On macOS the SDK has both and a stock Mac has no pkg-config, so it
// is not asked: Sources/CLibXML2/shim.h includes libxml2 through the SDK's own `libxml2` module
// (its headers live under usr/include/libxml2), and zlib.h is in the SDK's usr/include.
// See docs/platforms.md.
#if os(Linux)
let libxml2PkgConfig: String? = "libxml-2.0"
let zlibPkgConfig: String? = "zlib"
#else
let libxml2PkgConfig: String? = nil
let zlibPkgConfig: String? = nil
#endif

let package = Package(
    name: "IAPCatalog",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "iap", targets: ["iap"]),
        .library(name: "IAPCatalog", targets: ["IAPCatalog"]),
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "Diagnostics", targets: ["Diagnostics"]),
        .library(name: "PriceFormatting", targets: ["PriceFormatting"]),
        .library(name: "CodeGeneration", targets: ["CodeGeneration"]),
        .library(name: "IAPTool", targets: ["IAPTool"]),
        .library(name: "CatalogTool", targets: ["CatalogTool"]),
        .library(name: "SalesReports", targets: ["SalesReports"]),
        .library(name: "AppStoreConnect", targets: ["AppStoreConnect"]),
        .plugin(name: "IAPGenPlugin", targets: ["IAPGenPlugin"]),
        .plugin(name: "IAPGenCommand", targets: ["IAPGenCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/stencilproject/Stencil", from: "0.15.1"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: libxml2PkgConfig,
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: zlibPkgConfig,
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The leaves every layer uses, one home each: text escaping (Text/), file I/O — reads,
        // atomic writes, walks (Files/) — and parallel work (Parallel/).
        .target(name: "Support"),
        .target(name: "PropertyList", dependencies: ["CLibXML2", "Diagnostics", "Support"]),
        // Documents as people read them (a title, facts, tables, charts) drawn as Markdown, HTML,
        // SVG and CSV: the price matrix and the sales report are both one.
        .target(name: "ReportRendering", dependencies: ["Diagnostics", "PriceFormatting", "Support"]),
        // App Store Connect sales and finance reports: streamed and totalled exactly.
        .target(name: "SalesReports", dependencies: ["CZlib", "Diagnostics", "PriceFormatting", "PropertyList", "ReportRendering", "Support"]),
        // The catalog joined with outside data, above the readers of each: sales × catalog and the
        // App Store Connect snapshot × catalog (drift).
        .target(name: "CatalogJoins", dependencies: ["AppStoreConnect", "Diagnostics", "IAPCatalog", "PriceFormatting", "SalesReports"]),
        .target(name: "Diagnostics", dependencies: ["Support"]),
        // The App Store Connect API: an ES256 key's tokens, a client (pages, rate limits, retries,
        // timeouts, bounded bodies) and the snapshot of an app's in-app purchases. Only `iap` links
        // it; the build plugins' tool does not.
        // CZlib checks a downloaded report is whole gzip before it is kept (the reader of reports,
        // SalesReports, sits beside this module, not below it).
        .target(name: "AppStoreConnect", dependencies: [
            "CZlib", "Diagnostics", "Support", .product(name: "Crypto", package: "swift-crypto"),
            .target(name: "CCurlShim", condition: .when(platforms: [.linux])),
        ]),
        // libcurl, loaded with dlopen on the first request (the client's transport on Linux).
        .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "IAPCatalog", dependencies: ["PropertyList", "Diagnostics", "PriceFormatting", "Support"]),
        .target(name: "PriceFormatting"),
        // The Swift name of each product's constant: what `iap gen` writes and `iap lint` suggests.
        .target(name: "ProductNaming", dependencies: ["IAPCatalog"]),
        .target(name: "CodeGeneration", dependencies: ["Diagnostics", "IAPCatalog", "ProductNaming", "PropertyList", "Support", .product(name: "Stencil", package: "Stencil")]),
        .target(name: "SourceLint", dependencies: [
            "IAPCatalog", "Diagnostics", "PriceFormatting", "ProductNaming", "PropertyList", "Support",
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
        ]),
        // The lean tool library: catalog loading policy, `gen`, `.storekit` writing and conversion,
        // exit statuses. No swift-syntax, YAML or argument parser: the build plugins' tool uses it.
        .target(name: "CatalogTool", dependencies: ["IAPCatalog", "CodeGeneration", "Diagnostics", "PriceFormatting", "PropertyList", "Support"]),
        // The tool library: every command's job (each returns a CommandOutcome), configuration,
        // baselines and reporting. The `iap` executable only parses arguments, writes and exits.
        .target(name: "IAPTool", dependencies: [
            "AppStoreConnect", "CatalogJoins", "CatalogTool", "IAPCatalog", "Diagnostics", "PriceFormatting", "CodeGeneration", "SourceLint", "PropertyList", "ReportRendering", "SalesReports", "Support",
            .product(name: "Yams", package: "Yams"),
        ]),
        .executableTarget(
            name: "iap",
            dependencies: [
                "IAPTool",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The build plugins' tool: gen and storekit only, on CatalogTool (no swift-syntax).
        .executableTarget(name: "iap-gen", dependencies: ["CatalogTool", "CodeGeneration", "Support"]),
        // Benchmarks: a release executable that prints ratios against peers measured in the same run.
        .executableTarget(
            name: "iap-bench",
            dependencies: ["IAPCatalog", "PropertyList", "PriceFormatting", "SourceLint", "Diagnostics", "Support",
                           .product(name: "SwiftParser", package: "swift-syntax")],
            path: "Benchmarks/iap-bench"
        ),
        .executableTarget(name: "bare-libxml2-count", dependencies: ["CLibXML2"], path: "Benchmarks/bare-libxml2-count"),
        .executableTarget(name: "hello-foundation", path: "Benchmarks/hello-foundation"),
        .plugin(name: "IAPGenPlugin", capability: .buildTool(), dependencies: ["iap-gen"]),
        .plugin(
            name: "IAPGenCommand",
            capability: .command(
                intent: .custom(verb: "iap-gen", description: "Generate Swift product-ID constants from each target's catalog"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated ProductID.swift into targets")]),
            dependencies: ["iap-gen"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "AppStoreConnectTests", dependencies: ["AppStoreConnect", "CatalogJoins", "Diagnostics", "IAPCatalog", "TestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "PropertyListTests", dependencies: ["PropertyList", "Support", "TestSupport"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "Support", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "PriceFormattingTests", dependencies: ["PriceFormatting", "TestSupport"]),
        .testTarget(name: "SourceLintTests", dependencies: ["SourceLint", "Diagnostics", "IAPCatalog", "PriceFormatting", "TestSupport"]),
        .testTarget(name: "CodeGenerationTests", dependencies: ["CodeGeneration", "Diagnostics", "IAPCatalog", "ProductNaming", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "IAPCatalogTests", dependencies: ["IAPCatalog", "PropertyList", "Diagnostics", "Support", "TestSupport"]),
        .testTarget(name: "SalesReportsTests", dependencies: ["CatalogJoins", "SalesReports", "ReportRendering", "Diagnostics", "Support", "TestSupport"]),
        .testTarget(name: "IAPToolTests", dependencies: ["IAPTool", "AppStoreConnect", "CatalogJoins", "IAPCatalog", "SourceLint", "SalesReports", "Diagnostics", "PriceFormatting", "TestSupport",
                                                 .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "EndToEndTests", dependencies: ["iap", "iap-gen", "AppStoreConnect", "Diagnostics", "IAPCatalog", "IAPTool", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                                                   .product(name: "Yams", package: "Yams")], exclude: ["Golden"]),
        // Replays every input the fuzzers found (Tests/Fixtures/FuzzFindings) through the entries
        // `scripts/fuzz.sh` fuzzes; Main.swift is the libFuzzer entry point, built by that script.
        .testTarget(name: "FuzzReplayTests",
                    dependencies: ["AppStoreConnect", "CatalogJoins", "CatalogTool", "IAPCatalog", "IAPTool", "PriceFormatting", "PropertyList", "SalesReports", "SourceLint", "Diagnostics",
                                   .product(name: "Crypto", package: "swift-crypto")],
                    path: "Fuzz", exclude: ["Main.swift"]),
    ],
    swiftLanguageModes: [.v6]
)
