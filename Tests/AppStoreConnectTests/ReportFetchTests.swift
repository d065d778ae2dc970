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

    func gzip(_ text: String) -> Data {
        // A gzip member with a stored (uncompressed) deflate block: enough for the magic check.
        var data = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF, 0x01])
        let bytes = Array(text.utf8)
        data.append(contentsOf: [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8), UInt8(~bytes.count & 0xFF), UInt8((~bytes.count >> 8) & 0xFF)])
        data.append(contentsOf: bytes)
        data.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0])
        return data
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
            XCTAssertEqual("\(error)", "App Store Connect's answer for 2026-10 is not a gzip report (24 bytes); nothing written")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}
