import Diagnostics
import Foundation
import IAPCatalog
import PropertyList
import Support

/// Lints app sources: `.swift` with swift-syntax, `.m`/`.mm`/`.h` with our tokenizer. Files are
/// linted in parallel; findings come back in stable order (path, line, column).
public struct SourceLinter: Sendable {
    /// The catalog context for files no scoped context covers.
    public var context: LintContext
    /// Catalog contexts by app root: a file gets the context of the deepest root above it
    /// (the catalog of the app it belongs to).
    public var scopedContexts: [(root: String, context: LintContext)] = []
    /// `--exclude` globs (fnmatch), applied to every path, named or found, and to each folder on
    /// its way (`ExcludePattern`: `Pods` leaves out every `Pods` folder); `./__MACOSX/*` and
    /// `__MACOSX/*` are one pattern, as `./App/x.swift` and `App/x.swift` are one path.
    public var excludes: [String]
    public var includeTests: Bool
    /// Larger files are not linted (a finding says so): hand-written sources are far smaller, and
    /// a generated one should be excluded.
    public var maxSourceBytes = SourceLinter.defaultMaxSourceBytes
    public static let defaultMaxSourceBytes = 16 << 20
    /// Swift's limit is lower: swift-syntax's tree takes 50 (real code) to 120 (a token per two
    /// bytes) bytes per byte of source, so a 4 MB file peaks near 500 MB, a 16 MB one near 2 GB.
    /// The largest hand-written Swift file in 37 real app repositories is 0.36 MB.
    public var maxSwiftSourceBytes = SourceLinter.defaultMaxSwiftSourceBytes
    public static let defaultMaxSwiftSourceBytes = 4 << 20
    /// Files linted at once; `nil` is one per processor. Findings are the same for any number.
    public var jobs: Int?

    public init(context: LintContext = LintContext(), excludes: [String] = [], includeTests: Bool = false) {
        self.context = context
        self.excludes = excludes
        self.includeTests = includeTests
    }

    /// The extensions of the files lint reads.
    public static let extensions: Set<String> = ["swift", "m", "mm", "h"]

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case missing(String)
        /// A file named on the command line that is not a Swift or Objective-C source.
        case notSource(String)
        /// A folder named on the command line that cannot be listed, with the OS's reason.
        case unlisted(String, String)
        public var description: String {
            switch self {
            case .missing(let path): "\(path): no such file or folder"
            case .unlisted(let path, let reason): "\(path): cannot list folder: \(FileContents.Failure(reason: reason).phrase)"
            case .notSource(let path):
                "\(path): not a Swift or Objective-C source: iap lint reads .swift, .m, .mm and .h files, "
                    + "or the folders that hold them"
            }
        }
    }

    /// The files under `paths` that are linted, sorted.
    public func files(in paths: [String]) throws(Failure) -> [String] {
        try walk(paths).files
    }

    /// The files under `paths` that are linted, sorted, and what the walk passed over with why
    /// (`--verbose`): what `WalkPolicy` calls junk, and files named like sources whose first
    /// bytes say they are not text (an AppleDouble copy, binary data). A file named on the
    /// command line is linted whatever it holds, and must be named like a source.
    public func walk(_ paths: [String]) throws(Failure) -> (files: [String], passedOver: [PassedOverFile]) {
        var found: [String] = []
        var passedOver: [PassedOverFile] = []
        for given in paths {
            let path = WalkPolicy.normalized(given)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
            guard isDirectory.boolValue else {
                guard Self.extensions.contains((path as NSString).pathExtension) else { throw .notSource(path) }
                found.append(path)
                continue
            }
            var walk = FolderWalk()
            do {
                try walk.walk(path) { _, entry in
                    switch entry {
                    case .junk(let full, let why, let isFolder):
                        if !excluded(full) { passedOver.append(PassedOverFile(path: full, reason: why, isFolder: isFolder)) }
                    case .linkOut(let full, _, _, _):
                        if !excluded(full) {
                            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? full
                            passedOver.append(PassedOverFile(path: full, reason: "a link to \(target), outside the folders checked: not followed"))
                        }
                    case .missing(let full, _, let isLink):
                        if isLink, !excluded(full) { passedOver.append(PassedOverFile(path: full, reason: "a link to nothing")) }
                    case .unlisted(let full, let reason):
                        if !excluded(full) { passedOver.append(PassedOverFile(path: full, reason: "a folder that cannot be listed (\(reason))", isFolder: true)) }
                    case .special, .folderAgain:
                        // FIFOs, sockets and devices are never opened: reading one waits forever.
                        break
                    case .folder(let full, let name, let status):
                        // A link to a folder inside is not entered: its files are linted where they are.
                        // An excluded folder is not entered: nothing in it would be linted.
                        return !status.isLink && (includeTests || !WalkPolicy.isTestFolder(name)) && !excluded(full)
                    case .file(let full, let name, _):
                        guard Self.extensions.contains((name as NSString).pathExtension), includeTests || !isTestFile(name), !excluded(full) else { break }
                        if let why = WalkPolicy.contentReason(ofFileAt: full) {
                            passedOver.append(PassedOverFile(path: full, reason: why))
                        } else {
                            found.append(full)
                        }
                    }
                    return false
                }
            } catch {
                throw .unlisted(error.path, error.reason)
            }
        }
        let files = Array(Set(found.filter { !excluded($0) })).sorted()
        return (files, Array(Set(passedOver)).sorted { ($0.path, $0.reason) < ($1.path, $1.reason) })
    }

    func isTestFile(_ name: String) -> Bool { Self.isTestFile(name) }

    static func isTestFile(_ name: String) -> Bool { name.hasSuffix("Tests.swift") || name.hasSuffix("Test.swift") || name.hasSuffix("Tests.m") }

    func excluded(_ path: String) -> Bool {
        excludes.contains { ExcludePattern.matches($0, path) }
    }

    /// Every finding in `paths`, in stable order; unreadable files are findings too.
    public func lint(paths: [String]) throws(Failure) -> [Diagnostic] {
        lint(files: try files(in: paths))
    }

    /// Every finding in these files (from `files(in:)`), in stable order.
    public func lint(files: [String]) -> [Diagnostic] {
        run(files: files).diagnostics
    }

    /// What linting some files found: every finding, and among them the files that could not be
    /// read at all (the OS refused, or the path is a FIFO, socket, device or folder), which a run
    /// must not pass as checked.
    public struct Run: Sendable {
        public var diagnostics: [Diagnostic]
        /// The `unreadable-source` finding of each file that could not be read, in file order.
        public var unreadable: [Diagnostic]
        /// The product IDs the code asks for, in file, line and column order.
        public var requested: [RequestedProductID] = []
    }

    /// Lints these files (from `files(in:)`): findings in stable order, and the files not read.
    public func run(files: [String]) -> Run {
        // Each worker takes the next file not yet taken, largest first, so that no large file is
        // left to one thread at the end; each file's result goes in its own slot, in file order.
        let order = Self.largestFirst(files)
        let bySlot = ResultSlots.run(count: files.count, workers: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                     stackSize: SwiftLinter.stackSize) { slot in
            lintFile(files[order[slot]])
        }.values()
        var results = bySlot
        for (slot, index) in order.enumerated() { results[index] = bySlot[slot] }
        dropLoggedOnly(&results, files: files)
        // What a file asks for through another file's declarations.
        let added = CrossFileAsks.resolve(zip(files, results).map { ($0, $1.crossFile) })
        for (index, more) in added.enumerated() where !more.isEmpty {
            var seen = Set(results[index].requested)
            results[index].requested = (results[index].requested + more.filter { seen.insert($0).inserted })
                .sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        }
        return Run(diagnostics: results.flatMap(\.diagnostics).sortedForOutput(), unreadable: results.compactMap(\.unreadable),
                   requested: results.flatMap(\.requested))
    }

    /// Drops the findings on literals whose holder every linted file uses only in logging calls
    /// (`HolderUses`): a second look, by name, at the files that spell one, only when a finding
    /// names a holder. Files are looked at a batch at a time, and a name used once where it is
    /// shown is settled and looked for no more: a common name (`displayName`) costs a batch, not
    /// every file that spells it.
    func dropLoggedOnly(_ results: inout [FileResult], files: [String]) {
        var undecided = HolderUses.candidates(results.flatMap(\.held))
        guard !undecided.isEmpty else { return }
        let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let batch = max(4 * workers, 8)
        var uses: [String: HolderUses.Use] = [:]
        var next = 0
        while next < files.count, !undecided.isEmpty {
            let chunk = Array(files[next..<min(next + batch, files.count)])
            next += chunk.count
            let names = undecided
            let perFile = ResultSlots.run(count: chunk.count, workers: workers, stackSize: SwiftLinter.stackSize) { slot -> [String: HolderUses.Use] in
                let path = chunk[slot]
                let limit = path.hasSuffix(".swift") ? min(maxSourceBytes, maxSwiftSourceBytes) : maxSourceBytes
                guard case .success(let data) = FileContents.read(path, limit: limit) else { return [:] }
                let source = String(decoding: data, as: UTF8.self)
                return Self.isGenerated(path: path, source: source) ? [:] : HolderUses.uses(of: names, path: path, source: source)
            }.values()
            for fileUses in perFile { for (name, use) in fileUses { uses[name, default: HolderUses.Use()].merge(use) } }
            undecided = undecided.filter { uses[$0]?.shown != true }
        }
        for index in results.indices where !results[index].held.isEmpty {
            let dropped = HolderUses.loggedOnly(results[index].held, uses: uses)
            guard !dropped.isEmpty else { continue }
            results[index].diagnostics.removeAll { diagnostic in
                dropped.contains { $0.line == diagnostic.location.line && $0.column == diagnostic.location.column && $0.rule == diagnostic.ruleID }
            }
        }
    }

    /// The files' indices, largest file first (by `stat`; one that cannot be read counts as empty),
    /// equal sizes in file order.
    public static func largestFirst(_ files: [String]) -> [Int] {
        let sizes = files.map { path -> Int in
            var info = stat()
            return stat(path, &info) == 0 ? Int(info.st_size) : 0
        }
        return files.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
    }

    /// One file's findings.
    public func lint(file path: String) -> [Diagnostic] {
        lintFile(path).diagnostics
    }

    /// One file's findings, and its `unreadable-source` finding when it could not be read at all.
    struct FileResult: Sendable {
        var diagnostics: [Diagnostic]
        var unreadable: Diagnostic?
        /// The findings among `diagnostics` on literals a named declaration holds.
        var held: [HeldFinding] = []
        /// The product IDs the file's code asks for.
        var requested: [RequestedProductID] = []
        /// What it asks for through other files' declarations, and what it offers them.
        var crossFile = CrossFileAsks()

        static func notRead(_ finding: Diagnostic) -> FileResult { FileResult(diagnostics: [finding], unreadable: finding) }
    }

    func lintFile(_ path: String) -> FileResult {
        if let kind = FileIdentity.specialKind(path) {
            return .notRead(UnreadableSourceRule.description.finding("\(kind), not a regular file: not read", at: SourceLocation(path: path)))
        }
        var info = stat()
        let limit = path.hasSuffix(".swift") ? min(maxSourceBytes, maxSwiftSourceBytes) : maxSourceBytes
        if stat(path, &info) == 0, Int(info.st_size) > limit {
            // A generated file is passed over whatever its size, as it is when it is read.
            if case .success(let head) = FileContents.head(path, count: LintScope.generatedHeaderBytes),
               Self.isGenerated(path: path, source: String(decoding: head, as: UTF8.self)) {
                return FileResult(diagnostics: [])
            }
            return FileResult(diagnostics: [UnreadableSourceRule.description.finding(
                "\(Self.megabytes(Int(info.st_size))) MB, more than the \(Self.megabytes(limit)) MB iap lints: not read; "
                    + "if it is generated, leave it out with --exclude or lint.exclude in iap.yml",
                at: SourceLocation(path: path))])
        }
        let data: Data
        // The limit again while reading: the file may have grown since `stat`.
        switch FileContents.read(path, limit: limit) {
        case .success(let bytes): data = bytes
        case .failure(let failure):
            return .notRead(UnreadableSourceRule.description.finding("cannot read the file: \(failure.reason)", at: SourceLocation(path: path)))
        }
        // A NUL byte near the start: binary data named like a source file (what git calls binary).
        let nulOffset = data.withUnsafeBytes { raw -> Int? in
            // memchr: Data read byte by byte costs an access check per byte.
            guard let base = raw.baseAddress, let found = memchr(base, 0, min(raw.count, 8000)) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        if let nulOffset {
            let nul = data.startIndex + nulOffset
            let before = data[data.startIndex..<nul]
            let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            let column = nul - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex) + 1
            return FileResult(diagnostics: [UnreadableSourceRule.description.finding("binary data (a NUL byte), not source text: not linted",
                                                                               at: SourceLocation(path: path, line: line, column: column))])
        }
        let source = String(decoding: data, as: UTF8.self)
        let (diagnostics, held, requested, crossFile) = lintHolding(source: source, path: path)
        return FileResult(diagnostics: diagnostics, held: held, requested: requested, crossFile: crossFile)
    }

    /// Findings of one rule reported one by one in one file; the rest are summed up in one finding
    /// (`FindingList`).
    public static let reportedPerRulePerFile = 100

    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// Whether a file is generated, and so not linted (`iap gen`'s output among them).
    public static func isGenerated(path: String, source: String) -> Bool {
        source.hasPrefix("// Generated by `iap gen`") || LintScope.isGenerated(path: path, source: source)
    }

    /// The context for a file: its app's catalog, else the default one.
    func context(for path: String) -> LintContext {
        let matching = scopedContexts.filter { $0.root == "." || path == $0.root || path.hasPrefix($0.root.hasSuffix("/") ? $0.root : $0.root + "/") }
        return matching.max { $0.root.count < $1.root.count }?.context ?? context
    }

    /// Findings for source text; the language comes from the path's extension.
    public func lint(source: String, path: String) -> [Diagnostic] {
        lintHolding(source: source, path: path).diagnostics
    }

    /// Findings for source text, and those of them on literals a named declaration holds.
    func lintHolding(source: String, path: String)
        -> (diagnostics: [Diagnostic], held: [HeldFinding], requested: [RequestedProductID], crossFile: CrossFileAsks) {
        // Generated files (the one `iap gen` writes among them) are nobody's to fix by hand.
        if Self.isGenerated(path: path, source: source) { return ([], [], [], CrossFileAsks()) }
        let context = context(for: path)
        let suppressions: Suppressions
        var findings: FindingList
        if path.hasSuffix(".swift") {
            let (found, comments) = SwiftLinter(path: path, source: source, context: context, includeTests: includeTests).runOnLargeStack()
            suppressions = Suppressions(comments: comments, knownRules: LintRules.ids)
            findings = FindingList(suppressions: suppressions)
            findings += found
        } else {
            let linter = ObjCLinter(source: source, context: context, path: path, includeTests: includeTests)
            suppressions = Suppressions(comments: linter.comments, knownRules: LintRules.ids)
            findings = linter.run(suppressions: suppressions)
        }
        var diagnostics = findings.diagnostics(path: path)
        diagnostics += InvalidSuppressionRule.findings(suppressions, path: path)
        let requested = findings.requested.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
            .map { RequestedProductID(id: $0.id, line: $0.location.line, column: $0.location.column, path: path) }
        return (diagnostics.sortedForOutput(), findings.held, requested, findings.crossFile)
    }
}
