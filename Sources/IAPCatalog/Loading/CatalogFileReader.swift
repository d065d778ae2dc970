import Diagnostics
import Foundation
import PropertyList
import Support

/// A file a walk found and passed over, with the reason (`iap list --verbose` and
/// `iap validate --verbose` show them).
public struct PassedOverFile: Sendable, Hashable {
    public var path: String
    public var reason: String
    /// A folder the walk did not enter, rather than a file it did not take.
    public var isFolder: Bool

    public init(path: String, reason: String, isFolder: Bool = false) {
        self.path = path
        self.reason = reason
        self.isFolder = isFolder
    }
}

/// What one file turned out to be.
enum FileReading {
    /// A file of the catalog (product list, metadata, `.storekit`, retired IDs), or one that
    /// should have been and is broken.
    case catalog(PlistReading)
    /// A bundle's `Info.plist`.
    case bundle(BundleInfo)
    /// Not a catalog file: a walk passes it over.
    case passedOver(String)
    /// The file could not be opened or read (the OS's reason): not a broken catalog, a run that
    /// cannot see all of it.
    case unreadable(String)
}

/// Reads one file for a catalog. A file named on the command line (`strict`) must be a catalog
/// file, and says why when it is not. A file found by a walk joins a catalog only when its
/// content is one; anything else is passed over with the reason.
struct CatalogFileReader {
    let reader: PlistReader

    /// `RetiredProductIDs.plist` (any case, `-`/`_` allowed): the catalog's own retired-ID list.
    static func isRetiredList(_ name: String) -> Bool {
        name.lowercased().filter { $0.isLetter } == "retiredproductidsplist"
    }

    func read(_ path: String, strict: Bool) -> FileReading {
        let fileName = (path as NSString).lastPathComponent
        if fileName.hasSuffix(".storekit") {
            let data: Data
            switch FileContents.read(path, limit: StoreKitReader.maxBytes) {
            case .success(let bytes): data = bytes
            case .failure(let failure) where failure == FileContents.tooLarge(StoreKitReader.maxBytes):
                let message = "file is larger than \(StoreKitReader.maxBytes) bytes, the most iap reads of a StoreKit configuration; "
                    + "split the catalog into several files"
                return .catalog(PlistReading(content: .unreadable(message), diagnostics: [
                    MalformedCatalogRule.description.finding(message, at: SourceLocation(path: path)),
                ]))
            case .failure(let failure): return .unreadable(failure.phrase)
            }
            // Xcode never writes an empty configuration: a 0-byte one a walk meets is left-over junk
            // (named on the command line, it is still the error it is).
            if !strict, data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                return .passedOver("an empty file: no StoreKit configuration (Xcode never writes one empty; delete it, or name it to check it)")
            }
            return .catalog(StoreKitReader(path: path).read(data))
        }
        let content: PlistContent
        do {
            content = try reader.readContent(path: path)
        } catch {
            if error.kind == .io { return .unreadable(error.osReason) }
            // Xcode runs the C preprocessor on Info.plist files that ask for it (INFOPLIST_PREPROCESS).
            // Not on a file refused for its size or its sharing, nor on binary data: the file is
            // read a second time only when it is text within the limit.
            if BundleInfo.isInfoPlistName(fileName), error.kind != .refused, WalkPolicy.contentReason(ofFileAt: path) == nil,
               case .success(let data) = FileContents.read(path, limit: reader.maxBytes),
               let evaluated = InfoPlistPreprocessor.preprocess([UInt8](data)),
               let again = try? reader.read(bytes: evaluated, name: path), BundleInfo.isBundleInfo(again.root) {
                return .bundle(BundleInfo(path: path, root: again.root, preprocessed: true))
            }
            // A file named like a product list that does not parse is a broken catalog; any other
            // plist that does not parse is none of our business in a walk.
            guard strict || (ProductListShapes.looksLikeCatalogFile(fileName) && !BundleInfo.isInfoPlistName(fileName)) else {
                return .passedOver("not readable as a property list: \(error.message)")
            }
            return .catalog(PlistReading(content: .unreadable(error.message), diagnostics: [
                MalformedCatalogRule.description.finding(malformedMessage(error), at: SourceLocation(path: path, line: error.line, column: error.column)),
            ]))
        }
        var reading: PlistReading
        let rootPosition: PlistPosition
        switch content {
        case .strings(let list):
            // A root array of strings, kept without a tree: a plain list of IDs.
            reading = ProductListShapes(path: path).read(list)
            rootPosition = list.position
        case .tree(let root):
            if MetadataPlist.isMetadata(root) { return .catalog(scanned(MetadataPlist(path: path).read(root), content, path)) }
            if BundleInfo.isBundleInfo(root) { return .bundle(BundleInfo(path: path, root: root)) }
            reading = ProductListShapes(path: path).read(root)
            rootPosition = root.position
        }
        let rootLocation = SourceLocation(path: path, line: Int(rootPosition.line), column: Int(rootPosition.column))
        switch reading.content {
        case .notACatalog(let why):
            guard strict else { return .passedOver("not a product list: \(why)") }
            reading.diagnostics.append(UnrecognizedCatalogRule.description.finding("not a product list: \(why)", at: rootLocation, fix: SuggestedFix("list product IDs as an <array> of <string>, or move this file out of the catalog")))
        case .productList(let shape):
            if !strict && !reading.byContent && !ProductListShapes.looksLikeCatalogFile(fileName) && !Self.isRetiredList(fileName)
                && !ProductListShapes.looksLikeProductIDs(reading.occurrences.map(\.id)) {
                return .passedOver("\(shape.summary), but neither its name nor its strings say product IDs")
            }
            if reading.occurrences.isEmpty {
                reading.diagnostics.append(EmptyProductListRule.description.finding("the product list is empty: the app would request no products", at: rootLocation))
            }
        default:
            break
        }
        return .catalog(scanned(reading, content, path))
    }

    private func scanned(_ reading: consuming PlistReading, _ content: PlistContent, _ path: String) -> PlistReading {
        switch content {
        case .strings(let list): SecretScanner.scan(list, path: path, into: &reading.diagnostics)
        case .tree(let root): SecretScanner.scan(root, path: path, into: &reading.diagnostics)
        }
        return reading
    }

    private func malformedMessage(_ error: PlistError) -> String {
        switch error.kind {
        case .unsupportedFormat, .io: error.message
        default: "cannot read the property list: \(error.message)"
        }
    }
}

