import Foundation
import TestSupport
import XCTest

/// The HTML reports in a real browser: headless Chromium (Debian's `chromium`, which .ci/run
/// installs) loads each page, runs its script and dumps the DOM; a net log of the same load shows
/// every request. Skipped, with the reason printed, only when no Chromium is installed.
final class ReportBrowserTests: XCTestCase {
    static var chromium: String? {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in ["/usr/bin", "/usr/local/bin", "/snap/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    /// Hosts Chromium itself calls in the background (updates, time, spelling dictionaries), not the page.
    static let browserHosts = ["google.com", "googleapis.com", "gvt1.com", "gstatic.com", "googleusercontent.com"]

    struct Load {
        var dom: String
        /// URLs the load requested besides the page's own file and the browser's background calls.
        var pageRequests: [String]
    }

    func load(_ file: URL, browser: String) throws -> Load {
        let log = file.deletingPathExtension().appendingPathExtension("netlog.json")
        // Under timeout(1): a browser that hangs fails the test instead of the whole run.
        let result = try IAPRunner.runProgram("/usr/bin/timeout", ["120", browser,
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run",
            "--log-net-log=\(log.path)", "--dump-dom", file.absoluteString,
        ], environment: ["HOME": file.deletingLastPathComponent().path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let data = try Data(contentsOf: log)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var urls: Set<String> = []
        for case let event as [String: Any] in object["events"] as? [Any] ?? [] {
            if let url = (event["params"] as? [String: Any])?["url"] as? String { urls.insert(url) }
        }
        let page = urls.filter { url in
            guard url != file.absoluteString, let host = URL(string: url)?.host else { return url != file.absoluteString }
            return !Self.browserHosts.contains { host == $0 || host.hasSuffix("." + $0) }
        }
        return Load(dom: result.stdout, pageRequests: page.sorted())
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    func testHTMLReportsRenderSortAndRequestNothing() throws {
        guard let browser = Self.chromium else {
            throw Prerequisite.skip("no Chromium found (apt-get install chromium; .ci/run installs it)")
        }
        // Ubuntu's /usr/bin/chromium-browser is a stub that asks for the snap: found, yet no browser.
        let version = try IAPRunner.runProgram("/usr/bin/timeout", ["60", browser, "--version"])
        guard version.status == 0, version.stdout.contains("Chrom") else {
            throw Prerequisite.skip("\(browser) does not run (\(browser) --version exited \(version.status): "
                                    + "\(version.stderr.prefix(200))); install Debian's chromium or Google Chrome")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iap-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sales = folder.appendingPathComponent("sales.html"), prices = folder.appendingPathComponent("prices.html")
        _ = try IAPRunner.run(["report", "--sales"] + ReportEndToEndTests.salesFiles
                              + ["--catalog", "\(ReportEndToEndTests.sales)/Catalog", "--format", "html", "-o", sales.path])
        let priced = try IAPRunner.run(["report", "\(ReportEndToEndTests.sales)/Catalog", "--format", "html", "-o", prices.path])
        XCTAssertEqual(priced.status, 0, priced.stderr)

        // Loaded without its Content-Security-Policy, so that a reference to anything outside the
        // file would be fetched and show in the net log.
        func unprotected(_ page: URL, _ extra: String = "") throws -> URL {
            var html = try String(contentsOf: page, encoding: .utf8)
            let csp = try XCTUnwrap(html.range(of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, options: .regularExpression))
            html.removeSubrange(csp)
            html = html.replacingOccurrences(of: "</body>", with: extra + "</body>")
            let out = page.deletingPathExtension().appendingPathExtension(extra.isEmpty ? "open.html" : "control.html")
            try html.write(to: out, atomically: true, encoding: .utf8)
            return out
        }

        let salesLoad = try load(unprotected(sales), browser: browser)
        XCTAssertEqual(salesLoad.pageRequests, [])
        // Products, currencies, storefronts, days, files, findings, and apps apart from in-app purchases.
        XCTAssertEqual(count("<table class=\"sortable\"", in: salesLoad.dom), 8)
        XCTAssertEqual(count("<svg class=\"chart\"", in: salesLoad.dom), 3)
        for chart in ["bars", "columns", "shares"] { XCTAssertTrue(salesLoad.dom.contains("data-chart=\"\(chart)\""), chart) }
        XCTAssertTrue(salesLoad.dom.contains("<td class=\"num\" data-sort=\"135.44\">USD&nbsp;135.44</td>"))
        XCTAssertTrue(salesLoad.dom.contains("<td class=\"num\" data-sort=\"0.87\">KWD&nbsp;0.870</td>"))
        // The sorting script ran: it makes every header focusable.
        XCTAssertEqual(count("<th scope=\"col\" tabindex=\"0\"", in: salesLoad.dom) + count("<th scope=\"col\" class=\"num\" tabindex=\"0\"", in: salesLoad.dom),
                       count("<th scope=\"col\"", in: salesLoad.dom))

        let pricesLoad = try load(unprotected(prices), browser: browser)
        XCTAssertEqual(pricesLoad.pageRequests, [])
        XCTAssertEqual(count("<table class=\"sortable\"", in: pricesLoad.dom), 2)
        XCTAssertTrue(pricesLoad.dom.contains("¥4,000"))

        // The check sees a request when a page makes one.
        let control = try load(unprotected(sales, #"<img src="http://iap-report-test.invalid/x.png">"#), browser: browser)
        XCTAssertEqual(control.pageRequests, ["http://iap-report-test.invalid/x.png"])
    }
}
