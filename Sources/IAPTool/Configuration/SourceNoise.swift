import Foundation
import IAPCatalog
import Support

/// Folders of sources that are not the app's own code, which `iap init` leaves out of
/// `lint.paths` (or lists under `lint.exclude` when they sit inside a folder it lints): vendored
/// code and frameworks, a Flutter app's desktop runners, an Android project.
///
/// A Flutter app's `linux`, `windows` and `macos` folders are told by the `pubspec.yaml` beside
/// them: a native macOS app's `macos` folder is its code, and stays.
struct SourceNoise {
    /// Folder names (lowercased) that hold someone else's code.
    static let vendoredNames: Set<String> = ["pods", "carthage", "vendor", "vendors", "vendored", "thirdparty", "third_party", "third-party",
                                             "3rdparty", "external", "externals", "submodules", "dependencies", "sourcepackages", "checkouts"]
    /// Bundles of built code: their headers are a library's.
    static let bundleExtensions: Set<String> = ["framework", "xcframework"]
    /// The desktop runners `flutter create` writes beside `pubspec.yaml`.
    static let flutterDesktopFolders: Set<String> = ["linux", "windows", "macos"]
    /// Files that make a folder an Android project (or module).
    static let androidMarkers = ["build.gradle", "build.gradle.kts", "AndroidManifest.xml", "src/main/AndroidManifest.xml"]

    /// The folder the relative paths start from.
    let root: String
    private var reasons: [String: String?] = [:]

    init(root: String) {
        self.root = root
    }

    /// Why the folder at `relative` (from the root) is not the app's code; nil when it may be.
    mutating func reason(_ relative: String) -> String? {
        if let known = reasons[relative] { return known }
        let found = Self.reason(relative, root: root)
        reasons[relative] = found
        return found
    }

    static func reason(_ relative: String, root: String) -> String? {
        let name = (relative as NSString).lastPathComponent
        if vendoredNames.contains(name.lowercased()) { return "vendored code" }
        if bundleExtensions.contains((name as NSString).pathExtension.lowercased()) { return "a framework bundle" }
        let parent = (relative as NSString).deletingLastPathComponent
        if flutterDesktopFolders.contains(name.lowercased()), exists(WalkPolicy.joined(parent.isEmpty ? "." : parent, "pubspec.yaml"), in: root) {
            return "a Flutter app's desktop runner (pubspec.yaml beside it)"
        }
        if androidMarkers.contains(where: { exists(WalkPolicy.joined(relative, $0), in: root) }) { return "an Android project" }
        return nil
    }

    private static func exists(_ relative: String, in root: String) -> Bool {
        FileManager.default.fileExists(atPath: WalkPolicy.joined(root, relative))
    }

    /// The outermost noise folder a source file (relative to the root) sits in, with why; nil
    /// when it is the app's own.
    mutating func folder(of file: String) -> (folder: String, reason: String)? {
        var folder = ""
        for part in file.split(separator: "/").dropLast() {
            folder = folder.isEmpty ? String(part) : folder + "/" + part
            if let why = reason(folder) { return (folder, why) }
        }
        return nil
    }
}
