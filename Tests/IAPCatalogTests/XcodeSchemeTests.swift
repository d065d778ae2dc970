import Foundation
import XCTest
@testable import IAPCatalog

/// Shared Xcode schemes: which `.storekit` file a Run action uses, which target it launches, where
/// the file's relative path starts, and what a scheme that is not Xcode's XML gives (nothing).
final class XcodeSchemeTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-scheme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A scheme as Xcode writes one: the build action builds a framework too, the tests are another
    /// target, and the Run action launches the app and names its StoreKit configuration.
    static let scheme = """
    <?xml version="1.0" encoding="UTF-8"?>
    <Scheme
       LastUpgradeVersion = "1600"
       version = "1.7">
       <BuildAction
          parallelizeBuildables = "YES">
          <BuildActionEntries>
             <BuildActionEntry
                buildForRunning = "YES">
                <BuildableReference
                   BuildableIdentifier = "primary"
                   BlueprintIdentifier = "F00000000000000000000001"
                   BuildableName = "Kit.framework"
                   BlueprintName = "Kit"
                   ReferencedContainer = "container:Cards.xcodeproj">
                </BuildableReference>
             </BuildActionEntry>
          </BuildActionEntries>
       </BuildAction>
       <TestAction
          buildConfiguration = "Debug">
          <Testables>
             <TestableReference
                skipped = "NO">
                <BuildableReference
                   BuildableIdentifier = "primary"
                   BlueprintIdentifier = "F00000000000000000000002"
                   BuildableName = "CardsTests.xctest"
                   BlueprintName = "CardsTests"
                   ReferencedContainer = "container:Cards.xcodeproj">
                </BuildableReference>
             </TestableReference>
          </Testables>
       </TestAction>
       <!-- a comment with <tags> and "quotes" -->
       <LaunchAction
          buildConfiguration = "Debug"
          launchStyle = "0">
          <MacroExpansion>
             <BuildableReference
                BuildableIdentifier = "primary"
                BlueprintIdentifier = "F00000000000000000000004"
                BuildableName = "Other.app"
                BlueprintName = "Other"
                ReferencedContainer = "container:Cards.xcodeproj">
             </BuildableReference>
          </MacroExpansion>
          <BuildableProductRunnable
             runnableDebuggingMode = "0">
             <BuildableReference
                BuildableIdentifier = "primary"
                BlueprintIdentifier = "F00000000000000000000003"
                BuildableName = "Cards Pro.app"
                BlueprintName = "Cards Pro"
                ReferencedContainer = "container:Old Name.xcodeproj">
             </BuildableReference>
          </BuildableProductRunnable>
          <StoreKitConfigurationFileReference
             identifier = "../../Store &amp; Co/Pro&#x2B;.storekit">
          </StoreKitConfigurationFileReference>
       </LaunchAction>
       <ProfileAction
          buildConfiguration = "Release">
       </ProfileAction>
    </Scheme>

    """

    func testASchemeSaysItsRunActionsStoreKitFileAndTheTargetItLaunches() throws {
        let scheme = try XcodeScheme.parse(Array(Self.scheme.utf8)).get()
        XCTAssertEqual(scheme.storeKitConfiguration, "../../Store & Co/Pro+.storekit")
        // The runnable, not the macro expansion, the build action's framework or the tests.
        XCTAssertEqual(scheme.launched, XcodeScheme.Target(blueprintIdentifier: "F00000000000000000000003", blueprintName: "Cards Pro",
                                                           container: "container:Old Name.xcodeproj"))
        // Read from a file, the same.
        let path = try write("Cards.xcodeproj/xcshareddata/xcschemes/Cards Pro.xcscheme", Self.scheme)
        XCTAssertEqual(try XcodeScheme.read(path).get(), scheme)
    }

    func testMissingPartsSayNothingAndOnlyTheRunActionCounts() throws {
        func parsed(_ launchAction: String, elsewhere: String = "") throws -> XcodeScheme {
            try XcodeScheme.parse(Array("<Scheme>\(elsewhere)<LaunchAction>\(launchAction)</LaunchAction></Scheme>".utf8)).get()
        }
        // No StoreKit configuration, or one without a path.
        XCTAssertNil(try parsed("").storeKitConfiguration)
        XCTAssertNil(try parsed("<StoreKitConfigurationFileReference/>").storeKitConfiguration)
        XCTAssertNil(try parsed("<StoreKitConfigurationFileReference identifier = ''></StoreKitConfigurationFileReference>").storeKitConfiguration)
        // One in the test action is not the app's.
        let inTests = try parsed("", elsewhere: "<TestAction><StoreKitConfigurationFileReference identifier='../../Tests.storekit'/></TestAction>")
        XCTAssertNil(inTests.storeKitConfiguration)
        // No runnable: the macro expansion's target; a reference without an ID keeps its name.
        let macro = try parsed("<MacroExpansion><BuildableReference BlueprintName='Cards'/></MacroExpansion>")
        XCTAssertEqual(macro.launched, XcodeScheme.Target(blueprintName: "Cards"))
        // A watch app runs remotely.
        let remote = try parsed("<RemoteRunnable><BuildableReference BlueprintIdentifier='W1'/></RemoteRunnable>")
        XCTAssertEqual(remote.launched?.blueprintIdentifier, "W1")
        XCTAssertNil(try parsed("<PathRunnable FilePath='/bin/true'/>").launched)
    }

    func testAMalformedSchemeIsReportedNeverTrusted() throws {
        let broken = [
            "", "not xml at all", "<Scheme", "<Scheme>", "<Scheme><LaunchAction></Scheme>", "</Scheme>", "<Scheme/><Scheme/>",
            "<Plist/>", "<Scheme a = b/>", "<Scheme a = \"b/>", "<Scheme a/>", "<Scheme <x>/>", "<Scheme/ >", "< Scheme/>",
            "<!-- never closed <Scheme/>", "<![CDATA[ <Scheme/>", "<?xml version=\"1.0\"", "\u{0}\u{1}<\u{FF}",
            "<Scheme>" + String(repeating: "<a>", count: 100_000) + "</Scheme>",
        ]
        for text in broken {
            guard case .failure(.malformed) = XcodeScheme.parse(Array(text.utf8)) else {
                XCTFail("parsed: \(text.prefix(40))")
                continue
            }
        }
        // Cut anywhere before its last tag closes, a real scheme is malformed, never half-read.
        let bytes = Array(Self.scheme.utf8)
        let end = bytes.count - "</Scheme>\n".utf8.count
        for cut in stride(from: 0, to: end + "</Scheme".utf8.count, by: 7) {
            guard case .failure(.malformed) = XcodeScheme.parse(Array(bytes[..<cut])) else { return XCTFail("parsed a scheme cut at \(cut)") }
        }
        // An unknown entity is kept as written; markup elsewhere is passed over.
        let odd = try XcodeScheme.parse(Array("""
        <?xml version="1.0"?><!DOCTYPE Scheme><Scheme><LaunchAction><![CDATA[<x>]]>text > more
        <StoreKitConfigurationFileReference identifier="a&nbsp;b&amp;c&#0;.storekit" identifier="second"/></LaunchAction></Scheme>
        """.utf8)).get()
        XCTAssertEqual(odd.storeKitConfiguration, "a&nbsp;b&c\u{0}.storekit")
    }

    func testASchemeIsReadWithASizeLimitAndOnlyFromARegularFile() throws {
        let large = try write("Large.xcscheme", "<Scheme>" + String(repeating: " ", count: XcodeScheme.maxBytes) + "</Scheme>")
        XCTAssertEqual(XcodeScheme.read(large), .failure(.unreadable("larger than \(XcodeScheme.maxBytes) bytes")))
        let folderNamedLikeOne = folder.appendingPathComponent("Folder.xcscheme").path
        try FileManager.default.createDirectory(atPath: folderNamedLikeOne, withIntermediateDirectories: true)
        XCTAssertEqual(XcodeScheme.read(folderNamedLikeOne), .failure(.unreadable("a folder, not a file")))
        guard case .failure(.unreadable) = XcodeScheme.read(folder.appendingPathComponent("Missing.xcscheme").path) else { return XCTFail() }
        XCTAssertTrue(XcodeScheme.Failure.malformed("x").reason.hasPrefix("a shared scheme that does not parse (x)"))
    }

    /// Xcode writes the path relative to the workspace the scheme was saved from: the project's
    /// own `project.xcworkspace` (`../../` reaches the project's folder), or an `.xcworkspace` it
    /// was opened through (`../` reaches that workspace's folder) — as in the real projects read
    /// for issue 21 (WristSteps, SafeBite, LiquidSky: `../../Configuration.storekit`; Flutter's
    /// `ios/Runner.xcworkspace`: `../Runner/Configuration.storekit`).
    func testTheStoreKitPathIsRelativeToTheWorkspaceTheSchemeWasSavedFrom() {
        let scheme = "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme"
        XCTAssertEqual(XcodeScheme.storeKitCandidates("../../Configuration.storekit", scheme: scheme, workspaces: []).first, "Configuration.storekit")
        XCTAssertEqual(XcodeScheme.storeKitCandidates("../../App/Store/Products.storekit", scheme: "repo/" + scheme, workspaces: []).first,
                       "repo/App/Store/Products.storekit")
        // Saved from a workspace beside the project (committed or not).
        let flutter = XcodeScheme.storeKitCandidates("../Runner/Configuration.storekit", scheme: "ios/Runner.xcodeproj/xcshareddata/xcschemes/Runner.xcscheme",
                                                     workspaces: ["ios/Runner.xcworkspace"])
        XCTAssertEqual(flutter, ["ios/Runner.xcodeproj/Runner/Configuration.storekit", "ios/Runner/Configuration.storekit"])
        // Saved from a workspace at the repository's root, nearer ones tried first.
        let nested = XcodeScheme.storeKitCandidates("../Tests/Host/Host/Host.storekit", scheme: "Tests/Host/Host.xcodeproj/xcshareddata/xcschemes/Host.xcscheme",
                                                    workspaces: ["Tests/Host/Host.xcworkspace", "Root.xcworkspace", "Other/Other.xcworkspace"])
        XCTAssertEqual(nested, ["Tests/Host/Host.xcodeproj/Tests/Host/Host/Host.storekit", "Tests/Host/Tests/Host/Host/Host.storekit",
                                "Tests/Host/Host/Host.storekit"])
        // The walk's other path forms, and paths that climb out of it.
        XCTAssertEqual(XcodeScheme.storeKitCandidates("../../A.storekit", scheme: "../repo/" + scheme, workspaces: []).first, "../repo/A.storekit")
        XCTAssertEqual(XcodeScheme.storeKitCandidates("../../A.storekit", scheme: "/abs/" + scheme, workspaces: []).first, "/abs/A.storekit")
        XCTAssertEqual(XcodeScheme.storeKitCandidates("../../../../A.storekit", scheme: scheme, workspaces: []).first, "../../A.storekit")
        XCTAssertEqual(XcodeScheme.storeKitCandidates("/Users/me/A.storekit", scheme: scheme, workspaces: []), ["/Users/me/A.storekit"])
        XCTAssertEqual(XcodeScheme.storeKitCandidates("../../A.storekit", scheme: "Loose.xcscheme", workspaces: []), [])
        XCTAssertEqual(XcodeScheme.normalized("/../a/./b//../c"), "/a/c")
        XCTAssertEqual(XcodeScheme.normalized("a/.."), ".")
        XCTAssertEqual([".", "a", "a/b", "/a", "/", "a/b/"].map(XcodeScheme.parent), [".", ".", "a", "/", "/", "a"])
    }

    /// Two targets of different bundle IDs that run with one file are one app; a scheme of a
    /// target that is no application (a watch app), or of a file not here, says nothing.
    func testTargetsThatShareAFileAreOneApp() throws {
        _ = try write("Cards.xcodeproj/project.pbxproj", """
        // !$*UTF8*$!
        {
        \tobjects = {
        \t\tT1 = {isa = PBXNativeTarget; buildConfigurationList = L1; name = Free; productType = "com.apple.product-type.application"; };
        \t\tT2 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = Pro; productType = "com.apple.product-type.application"; };
        \t\tT3 = {isa = PBXNativeTarget; buildConfigurationList = L3; name = ProMac; productType = "com.apple.product-type.application"; };
        \t\tT4 = {isa = PBXNativeTarget; buildConfigurationList = L4; name = Watch; productType = "com.apple.product-type.application"; };
        \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
        \t\tL2 = {isa = XCConfigurationList; buildConfigurations = (C2, ); };
        \t\tL3 = {isa = XCConfigurationList; buildConfigurations = (C3, ); };
        \t\tL4 = {isa = XCConfigurationList; buildConfigurations = (C4, ); };
        \t\tC1 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.acme.free; }; name = Release; };
        \t\tC2 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.acme.pro; }; name = Release; };
        \t\tC3 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.acme.pro.mac; }; name = Release; };
        \t\tC4 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.acme.watch; SDKROOT = watchos; }; name = Release; };
        \t};
        }
        """)
        func scheme(_ name: String, target: String, file: String) throws -> String {
            try write("Cards.xcodeproj/xcshareddata/xcschemes/\(name).xcscheme", """
            <Scheme><LaunchAction><BuildableProductRunnable><BuildableReference BlueprintIdentifier = "\(target)"/></BuildableProductRunnable>
            <StoreKitConfigurationFileReference identifier = "../../\(file)"/></LaunchAction></Scheme>
            """)
        }
        let root = folder.path
        let schemes = [try scheme("Free", target: "T1", file: "Free.storekit"), try scheme("Pro", target: "T2", file: "Pro.storekit"),
                       try scheme("ProMac", target: "T3", file: "Pro.storekit"), try scheme("ProMacLocal", target: "T3", file: "Local.storekit"),
                       try scheme("Watch", target: "T4", file: "Watch.storekit"), try scheme("Gone", target: "T1", file: "Gone.storekit"),
                       try write("Cards.xcodeproj/xcshareddata/xcschemes/Broken.xcscheme", "<Scheme><LaunchAction>")]
        let files = ["Free.storekit", "Pro.storekit", "Local.storekit", "Watch.storekit"].map { root + "/" + $0 }
        let apps = SchemeApps(storeKitFiles: files, schemes: schemes, workspaces: [], projects: [root + "/Cards.xcodeproj/project.pbxproj"], configurations: [])
        XCTAssertEqual(apps.appOf, [files[0]: "com.acme.free", files[1]: "com.acme.pro", files[2]: "com.acme.pro"])
        XCTAssertEqual(apps.bundleIDs, ["com.acme.free": ["com.acme.free"], "com.acme.pro": ["com.acme.pro", "com.acme.pro.mac"]])
        XCTAssertEqual(apps.passedOver.map(\.path), [schemes.last!])
        XCTAssertTrue(apps.passedOver[0].reason.hasPrefix("a shared scheme that does not parse (<LaunchAction> is not closed)"), apps.passedOver[0].reason)
    }
}
