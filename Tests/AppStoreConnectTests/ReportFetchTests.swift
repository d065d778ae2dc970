import Crypto
import Foundation
import XCTest
@testable import AppStoreConnect

final class ReportFetchTests: XCTestCase {
    func testTheReportsOfARangeAndTheirFileNames() throws {
        let daily = try ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-02-27", to: "2026-03-01")
        XCTAssertEqual(daily.periods.map(\.reportDate), ["2026-02-27", "2026-02-28", "2026-03-01"])
        XCTAssertEqual(daily.periods.map(\.fileName), ["S_D_80012345_20260227.txt.gz", "S_D_80012345_20260228.txt.gz", "S_D_80012345_20260301.txt.gz"])
        // 2026-11-01 is a Sunday: the weeks end on it and on the 8th; the 15th is past the range.
        let weekly = try ReportFetch(vendor: "80012345", kind: .sales(.weekly), from: "2026-10-28", to: "2026-11-14")
        XCTAssertEqual(weekly.periods.map(\.fileName), ["S_W_80012345_20261101.txt.gz", "S_W_80012345_20261108.txt.gz"])
        let monthly = try ReportFetch(vendor: "80012345", kind: .sales(.monthly), from: "2025-12", to: "2026-01")
        XCTAssertEqual(monthly.periods, [ReportFetch.Period(reportDate: "2025-12", fileName: "S_M_80012345_202512.txt.gz"),
                                         ReportFetch.Period(reportDate: "2026-01", fileName: "S_M_80012345_202601.txt.gz")])
        let finance = try ReportFetch(vendor: "80012345", kind: .finance, from: "2026-10", to: "2026-10")
        XCTAssertEqual(finance.periods, [ReportFetch.Period(reportDate: "2026-10", fileName: "80012345_1026_ZZ.txt.gz")])
        XCTAssertEqual(finance.query(finance.periods[0]).map { "\($0.0)=\($0.1)" },
                       ["filter[vendorNumber]=80012345", "filter[reportType]=FINANCIAL", "filter[regionCode]=ZZ", "filter[reportDate]=2026-10"])
    }

    func testBadRangesSayWhatIsExpected() {
        for (vendor, kind, from, to, message) in [
            ("80012345", ReportFetch.Kind.sales(.daily), "2026-02-30", "2026-03-01", "expected a day, YYYY-MM-DD, found '2026-02-30'"),
            ("80012345", .finance, "2026-10-01", "2026-10", "expected a month, YYYY-MM, found '2026-10-01'"),
            ("80012345", .sales(.daily), "2026-11-02", "2026-11-01", "--from 2026-11-02 is after --to 2026-11-01"),
            ("80012345", .sales(.daily), "2025-01-01", "2026-12-31", "the range holds more than 400 reports; fetch it in parts"),
            ("8001/../x", .sales(.daily), "2026-11-01", "2026-11-01", "the vendor number is digits (Payments and Financial Reports shows it), found '8001/../x'"),
        ] {
            XCTAssertThrowsError(try ReportFetch(vendor: vendor, kind: kind, from: from, to: to)) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }

    /// A whole gzip member of `text`: one stored (uncompressed) deflate block, its CRC-32 and length.
    func gzip(_ text: String) -> Data {
        var data = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF, 0x01])
        let bytes = Array(text.utf8)
        data.append(contentsOf: [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8), UInt8(~bytes.count & 0xFF), UInt8((~bytes.count >> 8) & 0xFF)])
        data.append(contentsOf: bytes)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        for value in [~crc, UInt32(bytes.count)] { data.append(contentsOf: (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }) }
        return data
    }

    func client(_ transport: StubTransport) throws -> ASCClient {
        let key = try APIKey(issuerID: "i", keyID: "K", pem: P256.Signing.PrivateKey().pemRepresentation)
        return try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport, sleep: { _ in })
    }

    static let dailyQuery = "/v1/salesReports?filter%5BvendorNumber%5D=80012345&filter%5BreportType%5D=SALES&filter%5BreportSubType%5D=SUMMARY"
        + "&filter%5Bfrequency%5D=DAILY&filter%5BreportDate%5D="

    /// A temporary folder that is a repository (it holds `.git`), removed after the test.
    func repository() throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("iap-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base.appendingPathComponent("repo/.git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: base.appendingPathComponent("outside"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: base) }
        return base
    }

    func testReportsAreDownloadedOnceAndMissingDatesSaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-fetch-\(UUID().uuidString)/reports")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let base = "/v1/salesReports?filter%5BvendorNumber%5D=80012345&filter%5BreportType%5D=SALES&filter%5BreportSubType%5D=SUMMARY&filter%5Bfrequency%5D=DAILY"
        let transport = StubTransport([
            base + "&filter%5BreportDate%5D=2026-11-02&filter%5Bversion%5D=1_1": [.success(HTTPResponse(status: 200, body: gzip("day 2")))],
            base + "&filter%5BreportDate%5D=2026-11-03&filter%5Bversion%5D=1_1": [json(404, #"{"errors":[{"status":"404","code":"NOT_FOUND","title":"The specified resource does not exist","detail":"There were no sales for the date specified."}]}"#)],
            base + "&filter%5BreportDate%5D=2026-11-04&filter%5Bversion%5D=1_1": [.success(HTTPResponse(status: 200, body: gzip("day 4")))],
        ])
        let key = try APIKey(issuerID: "i", keyID: "K", pem: P256.Signing.PrivateKey().pemRepresentation)
        var client = try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport, sleep: { _ in })
        let fetch = try ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-11-02", to: "2026-11-04")
        let first = try fetch.run(into: folder.path, client: &client)
        XCTAssertEqual(first.downloaded.map { ($0 as NSString).lastPathComponent }, ["S_D_80012345_20261102.txt.gz", "S_D_80012345_20261104.txt.gz"])
        XCTAssertEqual(first.absent, ["2026-11-03"])
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("S_D_80012345_20261102.txt.gz")), gzip("day 2"))
        XCTAssertEqual(client.requestCount, 3)
        // Again: the two reports there are not asked for; the missing day is asked again.
        let second = try fetch.run(into: folder.path, client: &client)
        XCTAssertEqual(second.downloaded, [])
        XCTAssertEqual(second.alreadyThere.count, 2)
        XCTAssertEqual(client.requestCount, 4)
    }

    func testAnAnswerThatIsNotGzipIsNotKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = StubTransport([
            "/v1/financeReports?filter%5BvendorNumber%5D=80012345&filter%5BreportType%5D=FINANCIAL&filter%5BregionCode%5D=ZZ&filter%5BreportDate%5D=2026-10":
                [json(200, "<html>maintenance</html>")],
        ])
        let key = try APIKey(issuerID: "i", keyID: "K", pem: P256.Signing.PrivateKey().pemRepresentation)
        var client = try ASCClient(key: key, baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport, sleep: { _ in })
        XCTAssertThrowsError(try ReportFetch(vendor: "80012345", kind: .finance, from: "2026-10", to: "2026-10").run(into: folder.path, client: &client)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer for 2026-10 is not a whole gzip report (24 bytes): it is not gzip; "
                           + "nothing written for it — run again to ask for it again")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testAReportThatIsNotWholeGzipIsNotKept() throws {
        let whole = gzip("Provider\tSKU\nAPPLE\tcoins\n")
        var badCRC = whole
        badCRC[badCRC.count - 8] ^= 0xFF
        for (body, problem) in [
            (badCRC, "its gzip data is damaged (incorrect data check)"),
            (whole + Data("<html>".utf8), "6 bytes follow its gzip data"),
        ] {
            let base = try repository()
            let folder = base.appendingPathComponent("repo/reports")
            var client = try client(StubTransport([Self.dailyQuery + "2026-11-02&filter%5Bversion%5D=1_1": [.success(HTTPResponse(status: 200, body: Data(body)))]]))
            XCTAssertThrowsError(try ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-11-02", to: "2026-11-02").run(into: folder.path, client: &client)) { error in
                XCTAssertEqual("\(error)", "App Store Connect's answer for 2026-11-02 is not a whole gzip report (\(body.count) bytes): \(problem); "
                               + "nothing written for it — run again to ask for it again")
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        }
        XCTAssertFalse(GzipCheck.isComplete(whole.prefix(whole.count - 4)))
        XCTAssertFalse(GzipCheck.isComplete(whole.prefix(12)))
        XCTAssertTrue(GzipCheck.isComplete(badCRC), "damaged, not cut short: not asked for again")
        XCTAssertThrowsError(try GzipCheck.check(whole.prefix(whole.count - 4))) { XCTAssertEqual("\($0)", "it ends before its gzip trailer: cut short") }
        // Two members are one whole report, as gzip reads them.
        XCTAssertNoThrow(try GzipCheck.check(whole + whole))
        XCTAssertThrowsError(try GzipCheck.check(whole, limit: 10)) { XCTAssertEqual("\($0)", "it holds more than 0 MB of text, the most iap reads of one report") }
        XCTAssertThrowsError(try GzipCheck.check(Data())) { XCTAssertEqual($0 as? GzipCheck.Problem, .notGzip) }
    }

    /// A report cut short before its gzip trailer is asked for again (the client's retries); one
    /// that stays cut short is an error naming the date, and nothing is written.
    func testAReportCutShortIsAskedForAgain() throws {
        let whole = gzip("Provider\tSKU\nAPPLE\tcoins\n")
        let cut = Data(whole.prefix(whole.count - 4))
        let key = Self.dailyQuery + "2026-11-02&filter%5Bversion%5D=1_1"
        let base = try repository()
        let folder = base.appendingPathComponent("repo/reports")
        let fetch = try ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-11-02", to: "2026-11-02")
        let again = StubTransport([key: [.success(HTTPResponse(status: 200, body: cut)), .success(HTTPResponse(status: 200, body: whole))]])
        var client = try client(again)
        XCTAssertEqual(try fetch.run(into: folder.path, client: &client).downloaded, [folder.appendingPathComponent("S_D_80012345_20261102.txt.gz").path])
        XCTAssertEqual(again.requested.count, 2)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("S_D_80012345_20261102.txt.gz")), whole)
        let always = StubTransport([key: [.success(HTTPResponse(status: 200, body: cut))]])
        var failing = try self.client(always)
        let other = base.appendingPathComponent("repo/other")
        XCTAssertThrowsError(try fetch.run(into: other.path, client: &failing)) { error in
            XCTAssertEqual("\(error)", "App Store Connect's answer to GET /v1/salesReports cannot be read: the body is cut short (\(cut.count) bytes) "
                           + "4 times (the report of 2026-11-02); nothing written for it")
        }
        XCTAssertEqual(always.requested.count, 4)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other.path), [])
    }

    /// A 400 names the parameter App Store Connect refused and the option that sets it; its words
    /// are quoted bounded, control characters escaped.
    func testA400NamesTheRefusedParameterAndHowToFixIt() throws {
        let long = String(repeating: "x", count: 300)
        let vendor = "check --vendor: the vendor number is digits, shown at the top of Payments and Financial Reports in App Store Connect"
        let dates = "check --from and --to: a day (YYYY-MM-DD) for daily and weekly reports, a month (YYYY-MM) for monthly and financial "
            + "ones, and a date App Store Connect has published reports for"
        let start = "App Store Connect refused the request for the report of 2026-11-02 (400"
        let cases: [(String, String)] = [
            (#"{"errors":[{"status":"400","code":"PARAMETER_ERROR.INVALID","title":"A parameter has an invalid value","detail":"Invalid vendor number.\u001b[31m","source":{"parameter":"filter[vendorNumber]"}}]}"#,
             start + ", filter[vendorNumber]: 'Invalid vendor number.\\u{1B}[31m'): " + vendor),
            (#"{"errors":[{"status":"400","code":"PARAMETER_ERROR.INVALID","title":"t","detail":"\#(long)","source":{"parameter":"filter[reportDate]"}}]}"#,
             start + ", filter[reportDate]: '" + String(repeating: "x", count: 100) + "…' (300 characters; the first 100 shown)): " + dates),
            (#"{"errors":[{"status":"400","code":"PARAMETER_ERROR.INVALID","title":"Bad","source":{"parameter":"filter[version]"}}]}"#,
             start + ", filter[version]: 'Bad'): iap chose that value "
             + "(Summary Sales reports, version 1_1; Financial reports of all regions, ZZ), no option does: App Store Connect may no longer "
             + "offer it; a newer iap may ask for what it offers now"),
            (#"{"errors":[{"status":"400","code":"PARAMETER_ERROR.INVALID","title":"Bad","source":{"parameter":"weird\nname"}}]}"#,
             start + ", 'weird\\u{A}name': 'Bad'): " + vendor + "; " + dates),
            ("not json",
             start + "): " + vendor + "; " + dates),
        ]
        for (body, message) in cases {
            let base = try repository()
            var client = try client(StubTransport([Self.dailyQuery + "2026-11-02&filter%5Bversion%5D=1_1": [json(400, body)]]))
            XCTAssertThrowsError(try ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-11-02", to: "2026-11-02")
                .run(into: base.appendingPathComponent("repo/reports").path, client: &client)) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }

    func testTheErrorsSourceParameterIsRead() {
        let body = #"{"errors":[{"status":"400","code":"C","title":"T","source":{"parameter":"filter[vendorNumber]"}},"#
            + #"{"status":"409","code":"D","title":"U","source":{"pointer":"/data/attributes/name"}},{"status":"400","code":"E","title":"V","source":7}]}"#
        XCTAssertEqual(APIErrorEntry.parse(Data(body.utf8)), [
            APIErrorEntry(status: "400", code: "C", title: "T", parameter: "filter[vendorNumber]"),
            APIErrorEntry(status: "409", code: "D", title: "U"),
            APIErrorEntry(status: "400", code: "E", title: "V"),
        ])
    }

    /// A link at a report's name, dangling or not, is refused before any request, and left as it is.
    func testALinkAtAReportsNameIsRefusedAndLeftAlone() throws {
        for target in ["../../outside/victim", "S_D_80012345_20261101.txt.gz", "../../outside/nothing-here"] {
            let base = try repository()
            let folder = base.appendingPathComponent("repo/reports")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("untouched".utf8).write(to: base.appendingPathComponent("outside/victim"))
            try gzip("day 1").write(to: folder.appendingPathComponent("S_D_80012345_20261101.txt.gz"))
            let link = folder.appendingPathComponent("S_D_80012345_20261102.txt.gz").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let transport = StubTransport([Self.dailyQuery + "2026-11-02&filter%5Bversion%5D=1_1": [.success(HTTPResponse(status: 200, body: gzip("x")))]])
            var client = try client(transport)
            XCTAssertThrowsError(try ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-11-01", to: "2026-11-03").run(into: folder.path, client: &client)) { error in
                let dangling = target.hasSuffix("nothing-here") ? ", which does not exist" : ""
                XCTAssertEqual("\(error)", "cannot write '\(link)': it is a link to '\(target)'\(dangling); iap writes a download as a new file, "
                               + "never through a link or in its place: remove it first: rm \(link)")
            }
            XCTAssertEqual(transport.requested, [])
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target)
            XCTAssertEqual(try String(contentsOf: base.appendingPathComponent("outside/victim"), encoding: .utf8), "untouched")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base.appendingPathComponent("outside").path), ["victim"])
        }
    }

    /// The folder to download into may not be a link, nor be reached through a committed link
    /// that leads out of the repository; nothing is written outside.
    func testAFolderReachedThroughALinkIsRefused() throws {
        let base = try repository()
        let repo = base.appendingPathComponent("repo")
        try FileManager.default.createSymbolicLink(atPath: repo.appendingPathComponent("sales").path, withDestinationPath: "../outside")
        try FileManager.default.createSymbolicLink(atPath: repo.appendingPathComponent("inside").path, withDestinationPath: "reports")
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("reports"), withIntermediateDirectories: true)
        let transport = StubTransport([:])
        var client = try client(transport)
        let fetch = try ReportFetch(vendor: "80012345", kind: .sales(.daily), from: "2026-11-02", to: "2026-11-02")
        for (folder, why) in [
            ("sales", "it is a link to '../outside'; iap downloads into a real folder, never through a link (a committed link would choose "
             + "where it writes): name the folder the link leads to, or make a folder in its place: rm PATH && mkdir PATH"),
            ("inside", "it is a link to 'reports'; iap downloads into a real folder, never through a link (a committed link would choose "
             + "where it writes): name the folder the link leads to, or make a folder in its place: rm PATH && mkdir PATH"),
        ] {
            let path = repo.appendingPathComponent(folder).path
            XCTAssertThrowsError(try fetch.run(into: path, client: &client)) { error in
                XCTAssertEqual("\(error)", "cannot write '\(path)': " + why.replacingOccurrences(of: "PATH", with: path))
            }
        }
        let through = repo.appendingPathComponent("sales/2026").path
        XCTAssertThrowsError(try fetch.run(into: through, client: &client)) { error in
            XCTAssertEqual("\(error)", "cannot write '\(repo.appendingPathComponent("sales").path)': it is a link to '../outside', outside the "
                           + "repository at '\(FilePathsForTests.real(repo.path))'; a committed link does not choose where iap writes: name the folder it leads to")
        }
        XCTAssertEqual(transport.requested, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base.appendingPathComponent("outside").path), [])
    }
}

enum FilePathsForTests {
    static func real(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
