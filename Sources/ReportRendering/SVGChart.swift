import Diagnostics
import Foundation
import PriceFormatting
import Support

/// Charts as inline SVG, drawn by our own code (no script, no font, no request). Geometry is
/// computed in `Decimal` and written to one decimal place, so the same report draws the same bytes.
enum SVGChart {
    static let width = 720

    static func render(_ chart: ReportDocument.Chart) -> String {
        switch chart {
        case .bars(let title, let items): bars(title, items)
        case .columns(let title, let items): columns(title, items)
        case .shares(let title, let groups): shares(title, groups)
        }
    }

    /// Horizontal bars on one scale, labels on the left, values after the bars.
    static func bars(_ title: String, _ items: [(label: String, value: Decimal, text: String)]) -> String {
        let row = 22, top = 28, labelWidth = 230, barRoom = width - labelWidth - 110
        let height = top + row * max(items.count, 1) + 8
        let maximum = items.map(\.value).max() ?? 0
        var out = open("bars", title, height: height)
        out += text(x: 0, y: 16, title, cls: "title")
        for (i, item) in items.enumerated() {
            let y = top + i * row
            let w = scaled(item.value, maximum, barRoom)
            out += "<g><title>\(Escape.html(item.label)): \(Escape.html(item.text))</title>"
            out += text(x: labelWidth - 8, y: y + 15, truncated(item.label, 34), anchor: "end")
            out += "<rect class=\"bar\" x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(w)\" height=\"\(row - 6)\" rx=\"2\"/>"
            out += text(x: labelWidth + w.wholeNumber + 6, y: y + 15, item.text, cls: "muted")
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }

    /// Vertical columns in order (days), with the first, middle and last labels under the axis.
    static func columns(_ title: String, _ items: [(label: String, value: Decimal, text: String)]) -> String {
        let top = 28, plot = 160, left = 40, room = width - left - 10
        let height = top + plot + 30
        let maximum = items.map(\.value).max() ?? 0
        var out = open("columns", title, height: height)
        out += text(x: 0, y: 16, title, cls: "title")
        out += text(x: left - 6, y: top + 10, "\(maximum)", anchor: "end", cls: "muted")
        out += text(x: left - 6, y: top + plot, "0", anchor: "end", cls: "muted")
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top + plot)\" x2=\"\(width - 10)\" y2=\"\(top + plot)\"/>\n"
        let n = max(items.count, 1)
        let step = Decimal(room) / Decimal(n)
        let gap: Decimal = n > 60 ? 0 : 2
        for (i, item) in items.enumerated() {
            let h = scaled(item.value, maximum, plot)
            let x = Decimal(left) + step * Decimal(i)
            out += "<rect class=\"bar\" x=\"\(one(x + gap / 2))\" y=\"\(one(Decimal(top + plot) - h))\" width=\"\(one(max(step - gap, 1)))\" height=\"\(one(h))\">"
            out += "<title>\(Escape.html(item.label)): \(Escape.html(item.text))</title></rect>\n"
        }
        let labelled = Set([0, items.count / 2, items.count - 1]).filter { $0 >= 0 && $0 < items.count }.sorted()
        for i in labelled {
            let x = Decimal(left) + step * Decimal(i) + step / 2
            let anchor = i == 0 ? "start" : i == items.count - 1 ? "end" : "middle"
            out += text(x: (i == 0 ? Decimal(left) : i == items.count - 1 ? Decimal(width - 10) : x).wholeNumber, y: top + plot + 18, items[i].label,
                        anchor: anchor, cls: "muted")
        }
        return out + "</svg>\n"
    }

    /// One full-width bar per group, split into its parts' shares, with a legend: groups in
    /// different currencies are compared by composition, never by length.
    static func shares(_ title: String, _ groups: [(label: String, total: String, parts: [(label: String, value: Decimal)])]) -> String {
        let row = 26, top = 28, labelWidth = 170, barRoom = width - labelWidth - 10
        var names: [String] = []
        for group in groups { for part in group.parts where !names.contains(part.label) { names.append(part.label) } }
        let legendRows = (names.count + 2) / 3
        let height = top + row * max(groups.count, 1) + 10 + legendRows * 18
        var out = open("shares", title, height: height)
        out += text(x: 0, y: 16, title, cls: "title")
        for (i, group) in groups.enumerated() {
            let y = top + i * row
            out += text(x: labelWidth - 8, y: y + 12, group.label, anchor: "end")
            out += text(x: labelWidth - 8, y: y + 24, group.total, anchor: "end", cls: "muted")
            let positive = group.parts.filter { $0.value > 0 }
            let sum = positive.reduce(Decimal(0)) { $0 + $1.value }
            var x = Decimal(labelWidth)
            for part in positive {
                let w = sum > 0 ? Decimal(barRoom) * part.value / sum : 0
                let share = sum > 0 ? part.value * 100 / sum : 0
                let colour = (names.firstIndex(of: part.label) ?? 0) % 8 + 1
                out += "<rect class=\"p\(colour)\" x=\"\(one(x))\" y=\"\(y + 3)\" width=\"\(one(w))\" height=\"\(row - 8)\">"
                out += "<title>\(Escape.html(group.label)) · \(Escape.html(part.label)): \(one(share))%</title></rect>\n"
                x += w
            }
        }
        let legendTop = top + row * max(groups.count, 1) + 10
        for (i, name) in names.enumerated() {
            let x = (i % 3) * (width / 3), y = legendTop + (i / 3) * 18
            out += "<rect class=\"p\(i % 8 + 1)\" x=\"\(x)\" y=\"\(y)\" width=\"12\" height=\"12\"/>"
            out += text(x: x + 18, y: y + 11, truncated(name, 36)) + "\n"
        }
        return out + "</svg>\n"
    }

    private static func open(_ kind: String, _ title: String, height: Int) -> String {
        "<svg class=\"chart\" data-chart=\"\(kind)\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(Escape.html(title))\">\n"
    }

    private static func text(x: Int, y: Int, _ s: String, anchor: String = "start", cls: String? = nil) -> String {
        "<text x=\"\(x)\" y=\"\(y)\"" + (anchor == "start" ? "" : " text-anchor=\"\(anchor)\"") + (cls.map { " class=\"\($0)\"" } ?? "")
            + ">\(Escape.html(s))</text>"
    }

    /// `value / maximum × room`, never negative, to one decimal place.
    private static func scaled(_ value: Decimal, _ maximum: Decimal, _ room: Int) -> Decimal {
        guard maximum > 0, value > 0 else { return 0 }
        return (value * Decimal(room) / maximum).rounded(places: 1)
    }

    /// A number to one decimal place, without a trailing `.0`.
    static func one(_ value: Decimal) -> String { "\(value.rounded(places: 1))" }

    private static func truncated(_ s: String, _ n: Int) -> String { s.count > n ? String(s.prefix(n - 1)) + "…" : s }
}
