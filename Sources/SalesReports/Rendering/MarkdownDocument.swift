import Diagnostics

/// A report document as GitHub-flavoured Markdown: headings, a list of facts, pipe tables with
/// numbers right-aligned. Charts are left to the HTML report.
public enum MarkdownDocument {
    public static func render(_ document: ReportDocument) -> String {
        var out = "# \(inline(document.title))\n\n"
        for (label, value) in document.facts { out += "- **\(inline(label))**: \(inline(value))\n" }
        if !document.facts.isEmpty { out += "\n" }
        for section in document.sections {
            out += "## \(inline(section.title))\n\n"
            if let note = section.note { out += inline(note) + "\n\n" }
            let table = section.table
            guard !table.rows.isEmpty else {
                out += "_None._\n\n"
                continue
            }
            out += "| " + table.header.map(cell).joined(separator: " | ") + " |\n"
            out += "|" + table.header.indices.map { table.numeric.contains($0) ? " ---: |" : " --- |" }.joined() + "\n"
            for row in table.rows {
                out += "| " + row.map { cell($0.text) }.joined(separator: " | ") + " |\n"
            }
            out += "\n"
        }
        return out
    }

    /// A table cell: pipes and Markdown marks escaped, HTML characters as entities, line breaks
    /// as `<br>` — the Markdown reporter's escapes.
    static func cell(_ text: String) -> String { Markup.markdownCell(text) }

    /// Text outside tables: the same escapes, line breaks as spaces.
    static func inline(_ text: String) -> String {
        cell(text).replacingOccurrences(of: "<br>", with: " ")
    }
}
