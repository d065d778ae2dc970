import AppStoreConnect
import Crypto
import Foundation
@testable import IAPTool
import XCTest

/// Answers every request with the response its path (with its query) is given, else 404, and
/// records what was asked for.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let answers: [String: HTTPResponse]
    private var asked: [String] = []

    init(_ answers: [String: HTTPResponse] = [:]) { self.answers = answers }

    var requested: [String] { lock.lock(); defer { lock.unlock() }; return asked }

    func get(_ url: URL, headers: [String: String]) throws(TransportError) -> HTTPResponse {
        let key = url.path + (url.query.map { "?" + $0 } ?? "")
        lock.lock()
        asked.append(key)
        lock.unlock()
        return answers[key] ?? HTTPResponse(status: 404, body: Data(#"{"errors":[{"status":"404","code":"NOT_FOUND","title":"The specified resource does not exist","detail":"There were no sales for the date specified."}]}"#.utf8))
    }
}

/// `iap report --sales FOLDER --fetch …` as a nightly job meets it, with App Store Connect answered
/// in memory: days without sales, a folder left empty, what a request refused says.
final class ReportFetchJobTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-fetch-job-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    let environment = ["IAP_ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "IAP_ASC_KEY_ID": "2X9R4HXF34",
                       "IAP_ASC_PRIVATE_KEY": P256.Signing.PrivateKey().pemRepresentation]

    func run(_ transport: ScriptedTransport, format: ReportJob.Format = .csv, from: String = "2026-11-01", to: String = "2026-11-03",
             output: String? = nil) -> CommandOutcome {
        let fetch = ASCJob.Fetch(finance: false, frequency: "daily", vendor: "80012345", from: from, to: to, timeout: 5,
                                 environment: environment, transport: transport)
        let sales = folder.appendingPathComponent("sales").path
        return ReportJob.run(catalogs: CatalogSelection([], configuration: Configuration()), sales: [sales], storefronts: nil, format: format,
                             locale: "en_US", output: output, configuration: Configuration(), fetch: fetch)
    }

    /// Every day asked has no report: said, the totals empty in the format asked, exit 0 — the
    /// nightly job succeeds, and its output says there were no sales.
    func testDaysWithoutSalesLeaveEmptyTotalsAndExitZero() throws {
        let transport = ScriptedTransport()
        let outcome = run(transport)
        let sales = folder.appendingPathComponent("sales").path
        XCTAssertEqual(outcome.status, .clean, outcome.stderr)
        XCTAssertEqual(outcome.stderr, """
            iap: fetched 0 reports into \(sales)
            iap: App Store Connect has no report for 2026-11-01, 2026-11-02, 2026-11-03 (no sales, or not published yet)
            iap: no sales to total: \(sales) holds no report yet (App Store Connect has none for the dates asked); the totals are empty

            """)
        XCTAssertEqual(outcome.stdout, try ReportJob.sales(files: [sales], catalogs: [], format: .csv, locale: "en_US", emptyFolder: true).content)
        XCTAssertEqual(transport.requested.count, 3)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sales), [])
        // Without --fetch, an empty folder is still a mistake.
        XCTAssertThrowsError(try ReportJob.sales(files: [sales], catalogs: [], format: .csv, locale: "en_US")) { error in
            XCTAssertEqual((error as? ToolFailure)?.message, "\(sales): no report files in this folder (.txt, .txt.gz or .tsv, as App Store Connect downloads them)")
        }
        // A month of empty days is one line.
        let month = run(ScriptedTransport(), from: "2026-11-01", to: "2026-11-30")
        XCTAssertEqual(month.status, .clean)
        XCTAssertTrue(month.stderr.contains("iap: App Store Connect has no report for 30 dates between 2026-11-01 and 2026-11-30 (no sales, or not published yet)\n"),
                      month.stderr)
    }

    /// What a 400 says reaches the user with its hint; nothing is written.
    func testARefusedVendorNumberSaysWhatToFix() {
        let query = "/v1/salesReports?filter%5BvendorNumber%5D=80012345&filter%5BreportType%5D=SALES&filter%5BreportSubType%5D=SUMMARY"
            + "&filter%5Bfrequency%5D=DAILY&filter%5BreportDate%5D=2026-11-01&filter%5Bversion%5D=1_1"
        let body = #"{"errors":[{"status":"400","code":"PARAMETER_ERROR.INVALID","title":"A parameter has an invalid value","detail":"Invalid vendor number.","source":{"parameter":"filter[vendorNumber]"}}]}"#
        let outcome = run(ScriptedTransport([query: HTTPResponse(status: 400, body: Data(body.utf8))]), to: "2026-11-01")
        XCTAssertEqual(outcome.status, .cannotRun)
        XCTAssertEqual(outcome.stderr, "iap: error: App Store Connect refused the request for the report of 2026-11-01 (400, filter[vendorNumber]: "
                       + "'Invalid vendor number.'): check --vendor: the vendor number is digits, shown at the top of Payments and Financial "
                       + "Reports in App Store Connect\n")
        XCTAssertEqual(outcome.stdout, "")
    }
}
