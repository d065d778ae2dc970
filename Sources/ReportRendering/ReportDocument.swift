import Diagnostics
import Foundation
import Support

/// A report as people read it: a title, a few facts, then sections of one table each, some with a
/// chart. The Markdown and HTML renderers draw any document; the price matrix and the sales
/// report are both built as one.
public struct ReportDocument: Sendable {
    public var title: String
    /// Label and value pairs shown under the title ("Period", "Rows read").
    public var facts: [(String, String)]
    public var sections: [Section]
    /// The findings to read before trusting the numbers (errors and warnings: double counting,
    /// unreadable rows, a report given twice), shown by the HTML page at its top, above the
    /// tables; the Findings section, last, lists every finding.
    public var notices: [Notice] = []

    public init(title: String, facts: [(String, String)] = [], sections: [Section] = []) {
        self.title = title
        self.facts = facts
        self.sections = sections
    }

    /// One finding as the top of a page shows it.
    public struct Notice: Sendable {
        public var severity: Severity
        public var location: String
        public var rule: String
        public var message: String
    }

    /// The errors and warnings among `findings`, errors first, in the findings' order.
    public static func notices(_ findings: [Diagnostic]) -> [Notice] {
        let shown = findings.filter { $0.severity == .error } + findings.filter { $0.severity == .warning }
        return shown.map { Notice(severity: $0.severity, location: $0.location.description, rule: $0.ruleID, message: $0.message) }
    }

    public struct Section: Sendable {
        public var title: String
        /// A sentence under the title: what the table counts.
        public var note: String?
        public var table: Table
        public var chart: Chart?

        public init(title: String, note: String? = nil, table: Table, chart: Chart? = nil) {
            self.title = title
            self.note = note
            self.table = table
            self.chart = chart
        }
    }

    /// The findings of a report, as its last section.
    public static func findingsSection(_ findings: [Diagnostic]) -> Section {
        Section(title: "Findings",
                table: Table(header: ["Where", "Severity", "Rule", "Message"],
                             rows: findings.map { [Cell($0.location.description), Cell($0.severity.rawValue), Cell($0.ruleID), Cell($0.message)] }))
    }

    /// The findings of a report in its JSON document.
    public static func findingsJSON(_ findings: [Diagnostic]) -> JSONValue {
        .array(findings.map { d in
            .object([("rule", .string(d.ruleID)), ("severity", .string(d.severity.rawValue)), ("message", .string(d.message)),
                     ("location", .string(d.location.description))])
        })
    }

    public struct Table: Sendable {
        public var header: [String]
        /// Columns holding numbers: right-aligned, sorted as numbers.
        public var numeric: Set<Int>
        public var rows: [[Cell]]

        public init(header: [String], numeric: Set<Int> = [], rows: [[Cell]]) {
            self.header = header
            self.numeric = numeric
            self.rows = rows
        }
    }

    /// A cell's text, and the value it sorts by when that is not its text (`1.234,56 €` sorts as 1234.56).
    public struct Cell: Sendable, ExpressibleByStringLiteral {
        public var text: String
        public var sortKey: String?

        public init(_ text: String, sortKey: String? = nil) {
            self.text = text
            self.sortKey = sortKey
        }

        public init(stringLiteral value: String) { self.init(value) }
    }

    /// Charts, drawn as inline SVG by `SVGChart`.
    public enum Chart: Sendable {
        /// One horizontal bar per item, all on one scale (units per product).
        case bars(title: String, items: [(label: String, value: Decimal, text: String)])
        /// One vertical column per item, in order (units per day).
        case columns(title: String, items: [(label: String, value: Decimal, text: String)])
        /// One 100% bar per group, split into parts (proceeds per currency, split by product):
        /// groups are never drawn on one scale, since their currencies differ.
        case shares(title: String, groups: [(label: String, total: String, parts: [(label: String, value: Decimal)])])
    }
}
