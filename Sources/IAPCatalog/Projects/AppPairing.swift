import Foundation

/// Which of the apps beside a catalog it belongs to, when one root holds several apps' own
/// `Info.plist`s: a workspace whose projects are generated (XcodeGen, Tuist) and not committed,
/// with `AppA/Info.plist`, `AppB/Info.plist` and one app's `.storekit`. Only the app a catalog is
/// paired with lends it a bundle ID, or is asked for one (`unresolved-bundle-id`): an app that
/// sells nothing is never reported for another app's catalog.
///
/// A catalog pairs with the apps whose `Info.plist` shares the deepest folder with one of its
/// files (`AppA/Store/Products.storekit` is `AppA`'s); among apps that share as much (a catalog
/// at the workspace's root), with those whose name its files' paths spell (`AppB.storekit`,
/// `Store/AppB/…`): the folder that sets the app apart, its `CFBundleName` or display name, the
/// last word of a written-out bundle ID. When more than one app is left, the pairing is ambiguous
/// and the caller says so at the catalog, not at any app. An `Info.plist` named on the command
/// line is taken as the user says: no pairing then.
struct AppPairing {
    /// The apps the catalog belongs to (all of them, when nothing tells them apart).
    private(set) var paired: [BundleInfo]
    /// The apps that are not the catalog's.
    private(set) var others: [BundleInfo] = []

    /// `catalogFiles`: the catalog's own files (not `Info.plist`s); `apps`: the app `Info.plist`s beside it.
    init(catalogFiles: [String], apps: [(info: BundleInfo, strict: Bool)]) {
        paired = apps.map { $0.info }
        guard apps.count > 1, !catalogFiles.isEmpty, !apps.contains(where: { $0.strict }) else { return }
        let folders = catalogFiles.map { Self.folder($0) }
        let depth = { (info: BundleInfo) in folders.map { Self.sharedDepth($0, Self.folder(info.path)) }.max() ?? 0 }
        let best = paired.map(depth).max() ?? 0
        var kept = paired.filter { depth($0) == best }
        if kept.count > 1 {
            // The longest name an app is known by that the catalog's paths spell.
            let spelled = Self.words(catalogFiles.joined(separator: "/"))
            let lengths = kept.map { info in Self.names(of: info, besides: kept).filter { spelled.range(of: $0) != nil }.map(\.count).max() ?? 0 }
            if let longest = lengths.max(), longest > 0 {
                kept = zip(kept, lengths).filter { $0.1 == longest }.map(\.0)
            }
        }
        let keptPaths = Set(kept.map(\.path))
        others = paired.filter { !keptPaths.contains($0.path) }
        paired = kept
    }

    /// Whether nothing tells the catalog's app apart from another.
    var isAmbiguous: Bool { paired.count > 1 }

    static func folder(_ path: String) -> String { (path as NSString).deletingLastPathComponent }

    /// How many folders two folders share from the top.
    static func sharedDepth(_ a: String, _ b: String) -> Int {
        zip(a.split(separator: "/"), b.split(separator: "/")).prefix { $0.0 == $0.1 }.count
    }

    /// A path's text as one lowercase run of letters and digits, each folder and name apart:
    /// `Freelance Invoice/Store.storekit` is `freelanceinvoice/store/storekit`.
    static func words(_ text: String) -> String {
        var out = ""
        var gap = true
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                out.append(character)
                gap = false
            } else if character == "/" || character == "." || character == "-" || character == "_" {
                if !gap { out.append("/") }
                gap = true
            }
        }
        return "/" + out + "/"
    }

    /// The names an app is known by, in `words` form (three characters or more, so `ios` counts
    /// and `a` does not): the folders of its `Info.plist` that the other apps do not share, its
    /// bundle names, and the last word of its bundle ID when written out.
    static func names(of info: BundleInfo, besides apps: [BundleInfo]) -> [String] {
        let own = folder(info.path).split(separator: "/").map(String.init)
        let shared = apps.filter { $0.path != info.path }.map { sharedDepth(folder($0.path), folder(info.path)) }.max() ?? 0
        var names = Array(own.dropFirst(shared))
        names += info.names
        if let id = info.bundleID?.value, !id.contains("$"), let last = id.split(separator: ".").last { names.append(String(last)) }
        return names.map { words($0).split(separator: "/").joined() }.filter { $0.count >= 3 }
    }
}
