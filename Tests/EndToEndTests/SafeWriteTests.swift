import Crypto
import Foundation
import TestSupport
import XCTest

/// What every writer (`-o`, `--report FORMAT:PATH`, `--write-baseline`, `init`, `iap.yml`'s
/// `reports:` and `generate:`) does with what stands at its output path (docs/robustness.md,
/// "Writes and configuration"): a regular file is replaced atomically and keeps its mode; a link
/// to one is written through; the standard streams, character devices and FIFOs with a reader
/// are written as streams; a FIFO with no reader, a folder, a socket, a dangling or looping link
/// are refused with exit 2, never replaced and never waited on. Every run is under timeout(1).
final class SafeWriteTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-writes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cat"), withIntermediateDirectories: true)
        for name in ["IAP_ProductIDs.plist", "Metadata.plist", "Info.plist", "FakeGame.storekit"] {
            try FileManager.default.copyItem(at: IAPRunner.packageRoot.appendingPathComponent("catalogs/FakeGame/\(name)"),
                                             to: folder.appendingPathComponent("cat/\(name)"))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func iap(_ arguments: [String], environment: [String: String] = [:]) throws -> IAPRunner.Result {
        try IAPRunner.runProgram("/usr/bin/timeout", ["30", IAPRunner.binary.path] + arguments, in: folder, environment: environment)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func info(_ name: String) -> stat {
        var info = stat()
        XCTAssertEqual(lstat(path(name), &info), 0, name)
        return info
    }

    func kind(_ name: String) -> mode_t { info(name).st_mode & S_IFMT }

    func link(_ name: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path(name), withDestinationPath: destination)
    }

    func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    /// No `.NAME.iap-PID.XXXXXX` left in the test's folders.
    func assertNoTemporaryFiles(file: StaticString = #filePath, line: UInt = #line) throws {
        let left = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.contains(".iap-") }
        XCTAssertEqual(left, [], file: file, line: line)
    }

    /// The generated Swift file, written to a plain new file for comparison.
    func generated() throws -> String {
        XCTAssertEqual(try iap(["gen", "cat", "-o", "reference.swift"]).status, 0)
        return try text("reference.swift")
    }

    // MARK: Regular files and links to them

    func testARegularFileIsReplacedAtomicallyAndKeepsItsMode() throws {
        let expected = try generated()
        for mode: mode_t in [0o600, 0o640, 0o755] {
            try "old\n".write(toFile: path("ProductID.swift"), atomically: false, encoding: .utf8)
            chmod(path("ProductID.swift"), mode)
            let before = info("ProductID.swift").st_ino
            let result = try iap(["gen", "cat", "-o", "ProductID.swift"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "iap: wrote ProductID.swift (3 products)\n")
            XCTAssertEqual(try text("ProductID.swift"), expected)
            XCTAssertEqual(info("ProductID.swift").st_mode & 0o7777, mode)
            // Renamed into place, not rewritten in place: a new inode.
            XCTAssertNotEqual(info("ProductID.swift").st_ino, before)
        }
        // Its owner too, where the OS allows it (root).
        if getuid() == 0 {
            try "old\n".write(toFile: path("ProductID.swift"), atomically: false, encoding: .utf8)
            XCTAssertEqual(chown(path("ProductID.swift"), 65534, 65534), 0)
            XCTAssertEqual(try iap(["gen", "cat", "-o", "ProductID.swift"]).status, 0)
            XCTAssertEqual(info("ProductID.swift").st_uid, 65534)
            XCTAssertEqual(info("ProductID.swift").st_gid, 65534)
        }
        // A second hard link keeps the old content: the name is replaced, not the file.
        try "old\n".write(toFile: path("ProductID.swift"), atomically: false, encoding: .utf8)
        XCTAssertEqual(Foundation.link(path("ProductID.swift"), path("Other.swift")), 0)
        XCTAssertEqual(try iap(["gen", "cat", "-o", "ProductID.swift"]).status, 0)
        XCTAssertEqual(try text("ProductID.swift"), expected)
        XCTAssertEqual(try text("Other.swift"), "old\n")
        try assertNoTemporaryFiles()
    }

    /// In a repository, a link is content a pull request can commit: one that leads out of the
    /// repository is refused (`iap.sarif -> ~/.bashrc`); the same file named itself is written.
    func testALinkThatLeadsOutOfTheRepositoryIsRefused() throws {
        try FileManager.default.createDirectory(atPath: path("repo/.git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("repo/cat"), withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: path("cat")) {
            try FileManager.default.copyItem(atPath: path("cat/\(file)"), toPath: path("repo/cat/\(file)"))
        }
        try "keep\n".write(toFile: path("outside.txt"), atomically: false, encoding: .utf8)
        try link("repo/iap.sarif", to: "../outside.txt")
        let repo = folder.appendingPathComponent("repo")
        let refused = try IAPRunner.run(["validate", "cat", "--report", "sarif:iap.sarif"], in: repo)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("iap: error: cannot write 'iap.sarif': it is a link to '../outside.txt', outside the repository at '"),
                      refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a committed link does not choose what iap overwrites: remove the link, or name the file itself"))
        XCTAssertEqual(try text("outside.txt"), "keep\n")
        XCTAssertEqual(kind("repo/iap.sarif"), S_IFLNK)
        let named = try IAPRunner.run(["validate", "cat", "--report", "sarif:../outside.txt"], in: repo)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(try text("outside.txt").contains("2.1.0"))
    }

    func testALinkToARegularFileIsWrittenThroughAndStays() throws {
        let expected = try generated()
        try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: true)
        for name in ["Target.swift", "target.sarif", "target.json", "target.md"] {
            try "old\n".write(toFile: path("real/\(name)"), atomically: false, encoding: .utf8)
            chmod(path("real/\(name)"), 0o600)
        }
        try link("ProductID.swift", to: "real/Target.swift")
        try link("iap.sarif", to: "real/target.sarif")
        try link("baseline.json", to: "real/target.json")
        try link("matrix.md", to: "real/target.md")
        let gen = try iap(["gen", "cat", "-o", "ProductID.swift"])
        XCTAssertEqual(gen.stderr, "iap: wrote ProductID.swift (3 products)\n")
        XCTAssertEqual(gen.status, 0)
        let validate = try iap(["validate", "cat", "--report", "sarif:iap.sarif", "--write-baseline", "baseline.json"])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        let report = try iap(["report", "cat", "-o", "matrix.md"])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertEqual(try text("real/Target.swift"), expected)
        XCTAssertTrue(try text("real/target.sarif").contains("2.1.0"))
        XCTAssertTrue(try text("real/target.json").contains("bundle-prefix-convention"))
        XCTAssertTrue(try text("real/target.md").hasPrefix("# Price matrix"))
        for (name, destination) in [("ProductID.swift", "real/Target.swift"), ("iap.sarif", "real/target.sarif"),
                                    ("baseline.json", "real/target.json"), ("matrix.md", "real/target.md")] {
            XCTAssertEqual(kind(name), S_IFLNK, name)
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path(name)), destination)
            XCTAssertEqual(info(destination).st_mode & 0o7777, 0o600, destination)
        }
        // Unchanged content is not rewritten through the link either.
        let again = try iap(["gen", "cat", "-o", "ProductID.swift"])
        XCTAssertEqual(again.stderr, "iap: ProductID.swift unchanged\n")
        try assertNoTemporaryFiles()
    }

    // MARK: Streams

    func testStandardStreamsAreWrittenAsStreams() throws {
        let plain = try iap(["validate", "cat"])
        let file = try iap(["validate", "cat", "--report", "sarif:findings.sarif"])
        XCTAssertEqual(file.status, 0)
        let sarif = try text("findings.sarif")
        for name in ["-", "/dev/stdout"] {
            let result = try iap(["validate", "cat", "--report", "sarif:\(name)"])
            XCTAssertEqual(result.status, 0, name)
            XCTAssertEqual(result.stdout, plain.stdout + sarif, name)
            XCTAssertEqual(result.stderr, plain.stderr, name)
        }
        let toStderr = try iap(["validate", "cat", "--report", "sarif:/dev/stderr"])
        XCTAssertEqual(toStderr.stdout, plain.stdout)
        XCTAssertEqual(toStderr.stderr, sarif + plain.stderr)
        let matrix = try iap(["report", "cat"])
        let dash = try iap(["report", "cat", "-o", "-"])
        XCTAssertEqual(dash.stdout, matrix.stdout)
        XCTAssertEqual(dash.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("-")))
    }

    func testAFIFOWithAReaderIsStreamedAndOneWithoutIsRefusedAtOnce() throws {
        XCTAssertEqual(mkfifo(path("pipe"), 0o644), 0)
        let refused = "iap: error: cannot write 'pipe': it is a FIFO no process reads from; start its reader first, or name a regular file\n"
        let gen = try iap(["gen", "cat", "-o", "pipe"])
        XCTAssertEqual(gen.status, 2)
        XCTAssertEqual(gen.stderr, refused)
        let validate = try iap(["validate", "cat", "--report", "sarif:pipe"])
        XCTAssertEqual(validate.status, 2)
        XCTAssertTrue(validate.stderr.hasSuffix("3 products in 1 catalog\n" + refused), validate.stderr)
        XCTAssertEqual(kind("pipe"), S_IFIFO)
        // With a reader (this test, holding the FIFO open), the output goes through it whole.
        let expected = try generated()
        let reader = open(path("pipe"), O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let streamed = try iap(["gen", "cat", "-o", "pipe"])
        XCTAssertEqual(streamed.status, 0, streamed.stderr)
        XCTAssertEqual(streamed.stderr, "iap: wrote pipe (3 products)\n")
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(reader, &buffer, buffer.count)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        XCTAssertEqual(String(decoding: received, as: UTF8.self), expected)
        XCTAssertEqual(kind("pipe"), S_IFIFO)
        try assertNoTemporaryFiles()
    }

    /// A character device is written in place. Run as root, a rename would replace /dev/null with
    /// a file, so iap runs as `nobody` here (setpriv), who cannot: the test shows the write is a
    /// stream without risking the machine's /dev/null.
    func testACharacterDeviceIsWrittenInPlace() throws {
        let asOther: [String]
        if getuid() != 0 {
            asOther = []
        } else if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            asOther = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        } else {
            throw XCTSkip("running as root without setpriv(1): writing to /dev/null could replace it if the code were wrong")
        }
        // The build folder may sit in a folder only root can enter.
        let binary = folder.appendingPathComponent("iap")
        try FileManager.default.copyItem(at: IAPRunner.binary, to: binary)
        for name in [folder.path, binary.path] { chmod(name, 0o755) }
        try link("null-link.sarif", to: "/dev/null")
        func run(_ arguments: [String]) throws -> IAPRunner.Result {
            try IAPRunner.runProgram("/usr/bin/timeout", ["30"] + asOther + [binary.path] + arguments, in: folder)
        }
        let null = try run(["gen", "cat", "-o", "/dev/null"])
        XCTAssertEqual(null.stderr, "iap: wrote /dev/null (3 products)\n")
        XCTAssertEqual(null.status, 0)
        let linked = try run(["validate", "cat", "--report", "sarif:null-link.sarif"])
        XCTAssertEqual(linked.status, 0, linked.stderr)
        XCTAssertEqual(kind("null-link.sarif"), S_IFLNK)
        let full = try run(["gen", "cat", "-o", "/dev/full"])
        XCTAssertEqual(full.stderr, "iap: error: cannot write '/dev/full': No space left on device\n")
        XCTAssertEqual(full.status, 2)
        var device = stat()
        for name in ["/dev/null", "/dev/full"] {
            XCTAssertEqual(stat(name, &device), 0)
            XCTAssertEqual(device.st_mode & S_IFMT, S_IFCHR, name)
        }
    }

    // MARK: Refused

    func testWhatIsNotAFileIsRefusedAndLeftAsItIs() throws {
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: true)
        try link("dir-link", to: "dir")
        try link("dangling", to: "nowhere/x.swift")
        try link("loop", to: "loop")
        XCTAssertEqual(UnixSocket.make(at: path("sock")), 0)
        let cases: [(String, String)] = [
            ("dir", "it is a folder; name a file inside it"),
            ("dir/", "it is a folder; name a file inside it"),
            ("dir-link", "it is a link to the folder 'dir'; name a file inside it"),
            ("dangling", "it is a link to 'nowhere/x.swift', which does not exist; create that file first, or remove the link"),
            ("loop", "it is a link that loops, or a chain of too many links; remove the link"),
            ("sock", "it is a socket, not a file; name a regular file"),
            ("new/", "it ends in '/', a folder's name; name a file"),
        ]
        for (name, why) in cases {
            let gen = try iap(["gen", "cat", "-o", name])
            XCTAssertEqual(gen.status, 2, name)
            XCTAssertEqual(gen.stderr, "iap: error: cannot write '\(name)': \(why)\n", name)
            // A findings report's -o: the same refusal after the run's summary, nothing on stdout.
            let validate = try iap(["validate", "cat", "-o", name])
            XCTAssertEqual(validate.status, 2, name)
            XCTAssertEqual(validate.stdout, "", name)
            XCTAssertTrue(validate.stderr.hasSuffix("iap: error: cannot write '\(name)': \(why)\n"), "\(name): \(validate.stderr)")
        }
        XCTAssertEqual(kind("dir"), S_IFDIR)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("dir")), [])
        XCTAssertEqual(kind("dir-link"), S_IFLNK)
        XCTAssertEqual(kind("dangling"), S_IFLNK)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("nowhere")))
        XCTAssertEqual(kind("sock"), S_IFSOCK)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new")))
        try assertNoTemporaryFiles()
    }

    /// Every writer takes the same way: each refuses a FIFO no one reads (it used to be replaced
    /// by a file, or waited on) and writes through a link.
    func testEveryWriterRefusesAFIFOAndWritesThroughALink() throws {
        XCTAssertEqual(mkfifo(path("pipe"), 0o644), 0)
        let refused = "iap: error: cannot write 'pipe': it is a FIFO no process reads from; start its reader first, or name a regular file\n"
        let writers: [[String]] = [
            ["gen", "cat", "-o", "OUT"],
            ["storekit", "cat", "-o", "OUT"],
            ["convert", "cat", "--to", "metadata", "-o", "OUT"],
            ["report", "cat", "-o", "OUT"],
            ["validate", "cat", "--report", "json:OUT"],
            ["validate", "cat", "--write-baseline", "OUT"],
            ["lint", "Sources", "--catalog", "cat", "--report", "text:OUT"],
            ["validate", "cat", "-o", "OUT"],
            ["lint", "Sources", "--catalog", "cat", "--format", "json", "-o", "OUT"],
            ["plist", "lint", "cat/Info.plist", "-o", "OUT"],
            ["check", "--config", "config/iap.yml"],
            ["gen", "--config", "config/iap.yml"],
        ]
        try FileManager.default.createDirectory(atPath: path("Sources"), withIntermediateDirectories: true)
        try "let price = \"$0.99\"\n".write(toFile: path("Sources/Shop.swift"), atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("config/cat"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path("cat/IAP_ProductIDs.plist"), toPath: path("config/cat/IAP_ProductIDs.plist"))
        for (index, writer) in writers.enumerated() {
            let usesConfig = writer.contains("--config")
            try? FileManager.default.removeItem(atPath: path("config/OUT"))
            try """
                bundle-id: com.appcoda.FakeGame
                catalogs: [cat]
                \(writer[0] == "check" ? "reports: [sarif:OUT]" : "generate:\n  - output: OUT")

                """.write(toFile: path("config/iap.yml"), atomically: false, encoding: .utf8)
            if usesConfig { XCTAssertEqual(mkfifo(path("config/OUT"), 0o644), 0) }
            let arguments = writer.map { $0.replacingOccurrences(of: "OUT", with: "pipe") }
            let result = try iap(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            let shown = usesConfig ? refused.replacingOccurrences(of: "'pipe'", with: "'config/OUT'") : refused
            XCTAssertTrue(result.stderr.hasSuffix(shown), "\(arguments): \(result.stderr)")
            XCTAssertEqual(kind(usesConfig ? "config/OUT" : "pipe"), S_IFIFO, "\(arguments)")
            // Through a link to a regular file: the link stays, the file it leads to is written.
            // (iap.yml's own paths may not lead out of its folder, a link included, so its link
            // stays inside: ConfigurationBoundaryTests.)
            let target = usesConfig ? "config/target-\(index)" : "target-\(index)"
            let linkName = usesConfig ? "config/OUT" : "link-\(index)"
            try "old\n".write(toFile: path(target), atomically: false, encoding: .utf8)
            if usesConfig { try FileManager.default.removeItem(atPath: path("config/OUT")) }
            try link(linkName, to: "target-\(index)")
            let linked = try iap(usesConfig ? writer : writer.map { $0.replacingOccurrences(of: "OUT", with: linkName) })
            XCTAssertNotEqual(linked.status, 2, "\(writer): \(linked.stderr)")
            XCTAssertEqual(kind(linkName), S_IFLNK)
            XCTAssertNotEqual(try text(target), "old\n", "\(writer)")
            try FileManager.default.removeItem(atPath: path(linkName))
        }
        try assertNoTemporaryFiles()
    }

    func testInitRefusesAFolderAndWritesThroughALink() throws {
        try FileManager.default.createDirectory(atPath: path("app/iap.yml"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path("cat/IAP_ProductIDs.plist"), toPath: path("app/IAP_ProductIDs.plist"))
        let folderThere = try iap(["init", "app", "--force"])
        XCTAssertEqual(folderThere.status, 2)
        XCTAssertEqual(folderThere.stderr, "iap: error: cannot write 'app/iap.yml': it is a folder; name a file inside it\n")
        try FileManager.default.removeItem(atPath: path("app/iap.yml"))
        try "# old\n".write(toFile: path("shared.yml"), atomically: false, encoding: .utf8)
        try link("app/iap.yml", to: "../shared.yml")
        let linked = try iap(["init", "app", "--force"])
        XCTAssertEqual(linked.status, 0, linked.stderr)
        XCTAssertEqual(kind("app/iap.yml"), S_IFLNK)
        XCTAssertTrue(try text("shared.yml").hasPrefix("# iap.yml: what `iap check` checks"))
    }

    /// A report that cannot be written does not stop the others; the run says which and exits 2,
    /// and a baseline that was not written is not said to be.
    func testAFailedWriteLeavesTheOtherOutputsWritten() throws {
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: true)
        let result = try iap(["validate", "cat", "--report", "sarif:dir", "--report", "junit:junit.xml", "--write-baseline", "dir"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, """
            4 files checked: 0 errors, 0 warnings, 1 info, 3 products in 1 catalog
            iap: error: cannot write 'dir': it is a folder; name a file inside it
            iap: error: cannot write 'dir': it is a folder; name a file inside it

            """)
        XCTAssertTrue(try text("junit.xml").hasPrefix("<?xml"))
    }

    // MARK: Downloads (`iap report --sales FOLDER --fetch`)

    /// A key of the right shapes, and a server no request reaches: the refusals come before any.
    var fetchEnvironment: [String: String] {
        ["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34",
         "IAP_ASC_PRIVATE_KEY": P256.Signing.PrivateKey().pemRepresentation, "IAP_ASC_PRIVATE_KEY_PATH": "", "IAP_ASC_URL": "http://127.0.0.1:9"]
    }

    func fetch(into sales: String) throws -> IAPRunner.Result {
        try iap(["report", "--sales", sales, "--fetch", "sales", "--vendor", "80012345", "--from", "2026-11-01", "--to", "2026-11-02"],
                environment: fetchEnvironment)
    }

    /// A committed link as the sales folder would aim the downloads anywhere: refused, nothing
    /// written through it.
    func testTheFetchRefusesASalesFolderThatIsALink() throws {
        try FileManager.default.createDirectory(atPath: path("repo/.git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("outside"), withIntermediateDirectories: true)
        try link("repo/sales", to: "../outside")
        try link("repo/data", to: "../outside")
        let refused = try fetch(into: "repo/sales")
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr, "iap: error: cannot write 'repo/sales': it is a link to '../outside'; iap downloads into a real folder, "
                       + "never through a link (a committed link would choose where it writes): name the folder the link leads to, or make "
                       + "a folder in its place: rm repo/sales && mkdir repo/sales\n")
        let through = try fetch(into: "repo/data/2026")
        XCTAssertEqual(through.status, 2)
        let root = try XCTUnwrap(realpath(path("repo"), nil))
        defer { free(root) }
        XCTAssertEqual(through.stderr, "iap: error: cannot write 'repo/data': it is a link to '../outside', outside the repository at "
                       + "'\(String(cString: root))'; a committed link does not choose where iap writes: name the folder it leads to\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("outside")), [])
        XCTAssertEqual(kind("repo/sales"), S_IFLNK)
        try assertNoTemporaryFiles()
    }

    /// A link at a report's name, dangling or not, is refused before any request and left as it
    /// is: the download never lands where it leads, nor in its place.
    func testTheFetchRefusesALinkAtAReportsName() throws {
        try FileManager.default.createDirectory(atPath: path("sales"), withIntermediateDirectories: true)
        try link("sales/S_D_80012345_20261102.txt.gz", to: "../victim.txt.gz")
        let dangling = try fetch(into: "sales")
        XCTAssertEqual(dangling.status, 2)
        XCTAssertEqual(dangling.stderr, "iap: error: cannot write 'sales/S_D_80012345_20261102.txt.gz': it is a link to '../victim.txt.gz', "
                       + "which does not exist; iap writes a download as a new file, never through a link or in its place: remove it first: "
                       + "rm sales/S_D_80012345_20261102.txt.gz\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("victim.txt.gz")))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("sales/S_D_80012345_20261102.txt.gz")), "../victim.txt.gz")
        try "untouched\n".write(toFile: path("victim.txt.gz"), atomically: false, encoding: .utf8)
        let leading = try fetch(into: "sales")
        XCTAssertEqual(leading.status, 2)
        XCTAssertEqual(leading.stderr, "iap: error: cannot write 'sales/S_D_80012345_20261102.txt.gz': it is a link to '../victim.txt.gz'; "
                       + "iap writes a download as a new file, never through a link or in its place: remove it first: "
                       + "rm sales/S_D_80012345_20261102.txt.gz\n")
        XCTAssertEqual(try text("victim.txt.gz"), "untouched\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("sales")), ["S_D_80012345_20261102.txt.gz"])
        XCTAssertEqual(kind("sales/S_D_80012345_20261102.txt.gz"), S_IFLNK)
        // A FIFO at a report's name is refused as well, never opened.
        try FileManager.default.removeItem(atPath: path("sales/S_D_80012345_20261102.txt.gz"))
        XCTAssertEqual(mkfifo(path("sales/S_D_80012345_20261101.txt.gz"), 0o644), 0)
        let fifo = try fetch(into: "sales")
        XCTAssertEqual(fifo.status, 2)
        XCTAssertEqual(fifo.stderr, "iap: error: cannot write 'sales/S_D_80012345_20261101.txt.gz': it is a FIFO, not a downloaded file; "
                       + "remove it first: rm sales/S_D_80012345_20261101.txt.gz\n")
        try assertNoTemporaryFiles()
    }
}
