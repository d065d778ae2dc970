import Diagnostics
import Foundation
import Support

/// Downloads App Store Connect's Summary Sales or Financial reports for a vendor and a range of
/// dates into a folder, gzip as delivered, under the names App Store Connect gives them
/// (`S_D_80012345_20261102.txt.gz`, `80012345_1026_ZZ.txt.gz`). A report already in the folder
/// is never downloaded again: reports for a past date do not change.
public struct ReportFetch: Sendable {
    public enum Frequency: String, Sendable, CaseIterable {
        case daily, weekly, monthly
    }

    public enum Kind: Sendable, Equatable {
        /// Summary Sales, daily, weekly (weeks ending on Sunday) or monthly.
        case sales(Frequency)
        /// Financial reports, all regions (`ZZ`), per fiscal month.
        case finance
    }

    /// One report to have: the `reportDate` App Store Connect takes and the file it lands in.
    public struct Period: Sendable, Equatable {
        public var reportDate: String
        public var fileName: String
    }

    /// The most reports one run asks for (a year of daily reports, and some).
    public static let maxReports = 400

    public var vendor: String
    public var kind: Kind
    public var periods: [Period]

    /// `from` and `to` are days (`2026-11-02`) for daily and weekly reports, months (`2026-10`)
    /// for monthly and financial ones, both included.
    public init(vendor: String, kind: Kind, from: String, to: String) throws(ReportFetchError) {
        guard !vendor.isEmpty, vendor.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .invalid("the vendor number is digits (Payments and Financial Reports shows it), found \(Self.shown(vendor))")
        }
        self.vendor = vendor
        self.kind = kind
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let monthly = kind == .finance || kind == .sales(.monthly)
        let (start, end) = (try Self.date(from, monthly: monthly, calendar), try Self.date(to, monthly: monthly, calendar))
        guard start <= end else { throw .invalid("--from \(from) is after --to \(to)") }
        var periods: [Period] = []
        var day = start
        switch kind {
        case .sales(.weekly):
            // Weekly reports are named by the Sunday that ends the week.
            while calendar.component(.weekday, from: day) != 1 { day = calendar.date(byAdding: .day, value: 1, to: day)! }
        default:
            break
        }
        while day <= end {
            guard periods.count < Self.maxReports else {
                throw .invalid("the range holds more than \(Self.maxReports) reports; fetch it in parts")
            }
            let c = calendar.dateComponents([.year, .month, .day], from: day)
            let (y, m, d) = (c.year!, c.month!, c.day!)
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            switch kind {
            case .sales(.daily):
                periods.append(Period(reportDate: "\(y)-\(two(m))-\(two(d))", fileName: "S_D_\(vendor)_\(y)\(two(m))\(two(d)).txt.gz"))
                day = calendar.date(byAdding: .day, value: 1, to: day)!
            case .sales(.weekly):
                periods.append(Period(reportDate: "\(y)-\(two(m))-\(two(d))", fileName: "S_W_\(vendor)_\(y)\(two(m))\(two(d)).txt.gz"))
                day = calendar.date(byAdding: .day, value: 7, to: day)!
            case .sales(.monthly):
                periods.append(Period(reportDate: "\(y)-\(two(m))", fileName: "S_M_\(vendor)_\(y)\(two(m)).txt.gz"))
                day = calendar.date(byAdding: .month, value: 1, to: day)!
            case .finance:
                periods.append(Period(reportDate: "\(y)-\(two(m))", fileName: "\(vendor)_\(two(m))\(two(y % 100))_ZZ.txt.gz"))
                day = calendar.date(byAdding: .month, value: 1, to: day)!
            }
        }
        self.periods = periods
    }

    private static func shown(_ text: String) -> String { "'\(text.prefix(40))'" }

    private static func date(_ text: String, monthly: Bool, _ calendar: Calendar) throws(ReportFetchError) -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let wanted = monthly ? "a month, YYYY-MM" : "a day, YYYY-MM-DD"
        guard parts.count == (monthly ? 2 : 3), parts.allSatisfy({ $0 != nil }), let year = parts[0], (2000...2100).contains(year),
              let month = parts[1], (1...12).contains(month) else {
            throw .invalid("expected \(wanted), found \(shown(text))")
        }
        let day = monthly ? 1 : parts[2]!
        var components = DateComponents(year: year, month: month, day: day)
        components.calendar = calendar
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            throw .invalid("expected \(wanted), found \(shown(text))")
        }
        return date
    }

    /// What a fetch did, file by file.
    public struct Outcome: Sendable, Equatable {
        public var downloaded: [String] = []
        public var alreadyThere: [String] = []
        /// Dates App Store Connect has no report for (404: no sales that day, or not published yet).
        public var absent: [String] = []
    }

    /// Fetches into `folder` (created when missing) every report not already there, each written
    /// through Support's `OutputFile.create`: a new regular file, whole, where nothing stood. The
    /// folder (`OutputFolder`) and what stands at every report's name are checked before the first
    /// request: a link, dangling or not, a FIFO or a folder at a name is refused, never written
    /// through or replaced. A body is kept only when it is whole gzip (`GzipCheck`).
    public func run(into folder: String, client: inout ASCClient) throws(ReportFetchError) -> Outcome {
        do {
            try OutputFolder.prepare(folder)
        } catch {
            throw .invalid(error.description)
        }
        var outcome = Outcome()
        var wanted: [(period: Period, path: String)] = []
        for period in periods {
            let path = (folder as NSString).appendingPathComponent(period.fileName)
            switch OutputFile.standing(path) {
            case .nothing: wanted.append((period, path))
            case .regularFile: outcome.alreadyThere.append(path)
            case .refused(let failure): throw .invalid(failure.description)
            }
        }
        for (period, path) in wanted {
            let body: Data
            do {
                // A body cut short before its gzip trailer is asked for again by the client.
                body = try client.get(operation, query: query(period), body: .gzip(complete: { GzipCheck.isComplete($0) }))
            } catch {
                switch error {
                case .api(_, 404, _, _, _):
                    outcome.absent.append(period.reportDate)
                    continue
                case .api(_, 400, let errors, _, _):
                    throw .invalid(refusal(errors, period: period))
                case .invalidResponse:
                    throw .invalid("\(error.description) (the report of \(period.reportDate)); nothing written for it")
                default:
                    throw .api(error)
                }
            }
            // A report is gzip as delivered; anything else, or part of it, is not kept (it would be
            // read as a report later, or taken as downloaded and never asked for again).
            do {
                try GzipCheck.check(body)
            } catch {
                throw .invalid("App Store Connect's answer for \(period.reportDate) is not a whole gzip report (\(body.count) bytes): "
                               + "\(error); nothing written for it — run again to ask for it again")
            }
            do {
                try OutputFile.create(body, at: path)
            } catch {
                throw .invalid(error.description)
            }
            outcome.downloaded.append(path)
        }
        return outcome
    }

    /// What a 400 refused, in App Store Connect's words (`Quote.escaped`: bounded, control
    /// characters escaped), and how to fix each parameter it names.
    func refusal(_ errors: [APIErrorEntry], period: Period) -> String {
        let said = errors.map { entry -> String in
            let parameter = entry.parameter.map { Self.knownParameters.contains($0) ? $0 : Quote.escaped($0) }
            let text = (entry.detail ?? entry.title).map { Quote.escaped($0) }
            return [parameter, text].compactMap { $0 }.joined(separator: ": ")
        }.filter { !$0.isEmpty }
        var hints: [String] = []
        for parameter in errors.compactMap(\.parameter) {
            let hint = Self.hint(parameter)
            if !hints.contains(hint) { hints.append(hint) }
        }
        if hints.isEmpty { hints = [Self.hint(nil)] }
        return "App Store Connect refused the request for the report of \(period.reportDate) (400"
            + (said.isEmpty ? "" : ", " + said.joined(separator: "; ")) + "): " + hints.joined(separator: "; ")
    }

    /// The query parameters iap sends; a parameter App Store Connect names otherwise is quoted.
    static let knownParameters = ["filter[vendorNumber]", "filter[reportDate]", "filter[frequency]", "filter[reportType]",
                                  "filter[reportSubType]", "filter[version]", "filter[regionCode]"]

    /// How to fix what App Store Connect refused: the option behind the parameter.
    static func hint(_ parameter: String?) -> String {
        let vendor = "check --vendor: the vendor number is digits, shown at the top of Payments and Financial Reports in App Store Connect"
        let dates = "check --from and --to: a day (YYYY-MM-DD) for daily and weekly reports, a month (YYYY-MM) for monthly and "
            + "financial ones, and a date App Store Connect has published reports for"
        switch parameter {
        case "filter[vendorNumber]":
            return vendor
        case "filter[reportDate]":
            return dates
        case "filter[frequency]":
            return "check --frequency: daily, weekly or monthly"
        case "filter[reportType]", "filter[reportSubType]", "filter[version]", "filter[regionCode]":
            return "iap chose that value (Summary Sales reports, version 1_1; Financial reports of all regions, ZZ), no option does: "
                + "App Store Connect may no longer offer it; a newer iap may ask for what it offers now"
        default:
            return vendor + "; " + dates
        }
    }

    var operation: APIPath {
        kind == .finance ? APIPath("/v1/financeReports") : APIPath("/v1/salesReports")
    }

    func query(_ period: Period) -> [(String, String)] {
        switch kind {
        case .finance:
            [("filter[vendorNumber]", vendor), ("filter[reportType]", "FINANCIAL"), ("filter[regionCode]", "ZZ"),
             ("filter[reportDate]", period.reportDate)]
        case .sales(let frequency):
            [("filter[vendorNumber]", vendor), ("filter[reportType]", "SALES"), ("filter[reportSubType]", "SUMMARY"),
             ("filter[frequency]", frequency.rawValue.uppercased()), ("filter[reportDate]", period.reportDate),
             ("filter[version]", "1_1")]
        }
    }
}

public enum ReportFetchError: Error, Sendable, CustomStringConvertible {
    case invalid(String)
    case api(ASCError)

    public var description: String {
        switch self {
        case .invalid(let why): why
        case .api(let error): error.description
        }
    }
}
