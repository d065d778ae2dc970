import Diagnostics
import Support

/// A report document as GitHub-flavoured Markdown: headings, a list of facts, pipe tables with
/// numbers right-aligned. Charts are left to the HTML report.
public enum MarkdownDocument {
    public static func render(_ document: ReportDocument) -> String {
        var out = "# \(Escape.markdownInline(document.title))\n\n"
        for (label, value) in document.facts { out += "- **\(Escape.markdownInline(label))**: \(Escape.markdownInline(value))\n" }
        if !document.facts.isEmpty { out += "\n" }
        for section in document.sections {
            out += "## \(Escape.markdownInline(section.title))\n\n"
            if let note = section.note { out += Escape.markdownInline(note) + "\n\n" }
            let table = section.table
            guard !table.rows.isEmpty else {
                out += "_None._\n\n"
                continue
            }
            out += "| " + table.header.map(Escape.markdownCell).joined(separator: " | ") + " |\n"
            out += "|" + table.header.indices.map { table.numeric.contains($0) ? " ---: |" : " --- |" }.joined() + "\n"
            for row in table.rows {
                out += "| " + row.map { Escape.markdownCell($0.text) }.joined(separator: " | ") + " |\n"
            }
            out += "\n"
        }
        return out
    }
}
