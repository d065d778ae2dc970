import Diagnostics
import Foundation
import Support

/// A report document as one self-contained HTML file: its styles and its few lines of script are
/// inline, its charts are inline SVG, and a Content-Security-Policy forbids every request, so the
/// page reads the same offline, from an e-mail attachment or a CI artifact. Tables sort by a click
/// on their header; colours follow the reader's light or dark mode; printing drops the chrome.
public enum HTMLDocument {
    public static func render(_ document: ReportDocument, generator: String) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="generator" content="\(Escape.html(generator))">
        <title>\(Escape.html(document.title))</title>
        <style>
        \(style)
        </style>
        \(document.notices.isEmpty ? "" : "<style>\n\(noticeStyle)\n</style>\n")</head>
        <body>
        <header>
        <h1>\(Escape.html(document.title))</h1>

        """
        if !document.facts.isEmpty {
            out += "<dl class=\"facts\">\n"
            for (label, value) in document.facts { out += "<div><dt>\(Escape.html(label))</dt><dd>\(Escape.html(value))</dd></div>\n" }
            out += "</dl>\n"
        }
        out += notices(document)
        out += "</header>\n<main>\n"
        for (n, section) in document.sections.enumerated() {
            out += "<section id=\"section-\(n + 1)\">\n<h2>\(Escape.html(section.title))</h2>\n"
            if let note = section.note { out += "<p class=\"note\">\(Escape.html(note))</p>\n" }
            if let chart = section.chart { out += "<figure>\n" + SVGChart.render(chart) + "</figure>\n" }
            out += table(section.table, caption: section.title)
            out += "</section>\n"
        }
        out += "</main>\n<footer>Made by \(Escape.html(generator)). Click a column's header to sort by it.</footer>\n"
        out += "<script>\n\(script)\n</script>\n</body>\n</html>\n"
        return out
    }

    /// The errors and warnings at the top of the page, before any table, with a link to the
    /// Findings section that lists them all: a reader sees that a total counts something twice,
    /// or leaves rows out, before reading it.
    static func notices(_ document: ReportDocument) -> String {
        guard !document.notices.isEmpty else { return "" }
        let errors = document.notices.filter { $0.severity == .error }.count
        let warnings = document.notices.count - errors
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let counts = [errors > 0 ? count(errors, "error") : nil, warnings > 0 ? count(warnings, "warning") : nil].compactMap { $0 }
        var out = "<aside class=\"notices\" role=\"note\" aria-label=\"Findings to read first\">\n"
        out += "<p><strong>\(counts.joined(separator: ", "))</strong> to read before the totals"
        if let findings = document.sections.firstIndex(where: { $0.title == "Findings" }) {
            out += " (<a href=\"#section-\(findings + 1)\">every finding</a>)"
        }
        out += ":</p>\n<ul>\n"
        for notice in document.notices.prefix(shownNotices) {
            out += "<li class=\"\(notice.severity.rawValue)\"><span class=\"severity\">\(notice.severity.rawValue)</span> "
                + "\(Escape.html(notice.message)) <span class=\"where\">\(Escape.html(notice.location)) [\(Escape.html(notice.rule))]</span></li>\n"
        }
        if document.notices.count > shownNotices {
            out += "<li class=\"more\">and \(document.notices.count - shownNotices) more in Findings</li>\n"
        }
        out += "</ul>\n</aside>\n"
        return out
    }

    /// Notices listed at the top; the rest are counted there and listed in Findings.
    static let shownNotices = 10

    static func table(_ table: ReportDocument.Table, caption: String) -> String {
        guard !table.rows.isEmpty else { return "<p class=\"empty\">None.</p>\n" }
        var out = "<div class=\"scroll\"><table class=\"sortable\">\n<caption>\(Escape.html(caption))</caption>\n<thead><tr>"
        for (i, name) in table.header.enumerated() {
            out += table.numeric.contains(i) ? "<th scope=\"col\" class=\"num\">" : "<th scope=\"col\">"
            out += Escape.html(name) + "</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in table.rows {
            out += "<tr>"
            for (i, cell) in row.enumerated() {
                out += "<td"
                if table.numeric.contains(i) { out += " class=\"num\"" }
                if let key = cell.sortKey { out += " data-sort=\"\(Escape.html(key))\"" }
                out += ">" + Escape.html(cell.text) + "</td>"
            }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table></div>\n"
        return out
    }

    static let style = """
    :root { --fg: #1d1d1f; --bg: #ffffff; --muted: #5f6368; --line: #d2d2d7; --stripe: #f5f5f7; --accent: #0b63c5;
      --c1: #0b63c5; --c2: #d9480f; --c3: #2b8a3e; --c4: #ae3ec9; --c5: #e8b100; --c6: #1098ad; --c7: #c2255c; --c8: #868e96; }
    @media (prefers-color-scheme: dark) {
      :root { --fg: #f2f2f7; --bg: #1c1c1e; --muted: #a1a1a6; --line: #3a3a3c; --stripe: #2c2c2e; --accent: #4dabf7;
        --c1: #4dabf7; --c2: #ff8787; --c3: #69db7c; --c4: #da77f2; --c5: #ffd43b; --c6: #66d9e8; --c7: #f783ac; --c8: #adb5bd; }
    }
    * { box-sizing: border-box; }
    body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg);
      margin: 0 auto; max-width: 75rem; padding: 1.5rem 1rem 3rem; }
    h1 { font-size: 1.6rem; margin: 0 0 .75rem; }
    h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
    .facts { display: flex; flex-wrap: wrap; gap: .5rem 2rem; margin: 0; }
    .facts div { min-width: 10rem; }
    .facts dt { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
    .facts dd { margin: 0; font-weight: 600; }
    .note, footer, .empty { color: var(--muted); }
    footer { margin-top: 2rem; font-size: .85rem; }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
    caption { text-align: left; color: var(--muted); font-size: .8rem; padding-bottom: .25rem; }
    th, td { padding: .3rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
    th { cursor: pointer; user-select: none; white-space: nowrap; background: var(--bg); }
    th:hover { color: var(--accent); }
    th[aria-sort="ascending"]::after { content: " \\25B2"; font-size: .7em; }
    th[aria-sort="descending"]::after { content: " \\25BC"; font-size: .7em; }
    .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    tbody tr:nth-child(even) { background: var(--stripe); }
    figure { margin: .5rem 0 1rem; }
    svg.chart { width: 100%; max-width: 60rem; height: auto; display: block; }
    svg.chart text { fill: var(--fg); font: 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    svg.chart .title { font-weight: 600; }
    svg.chart .muted { fill: var(--muted); }
    svg.chart .bar { fill: var(--accent); }
    svg.chart .refund { fill: var(--c2); }
    svg.chart .axis { stroke: var(--line); }
    .p1 { fill: var(--c1); } .p2 { fill: var(--c2); } .p3 { fill: var(--c3); } .p4 { fill: var(--c4); }
    .p5 { fill: var(--c5); } .p6 { fill: var(--c6); } .p7 { fill: var(--c7); } .p8 { fill: var(--c8); }
    @media print {
      :root { --fg: #000; --bg: #fff; --muted: #444; --line: #bbb; --stripe: #f3f3f3; }
      body { max-width: none; padding: 0; font-size: 11px; }
      th { cursor: auto; }
      th::after { content: none !important; }
      section { break-inside: avoid-page; }
      footer { display: none; }
      .scroll { overflow: visible; }
    }
    """

    /// The notices' styles, written only on a page that has notices.
    static let noticeStyle = """
    .notices { margin: 1rem 0 0; padding: .5rem .9rem; border: 1px solid var(--c2); border-left-width: 4px; border-radius: 4px; }
    .notices p { margin: 0 0 .25rem; }
    .notices ul { margin: 0; padding-left: 1.1rem; }
    .notices li { margin: .15rem 0; }
    .notices .severity { font-weight: 600; text-transform: uppercase; font-size: .75rem; letter-spacing: .04em; }
    .notices .error .severity { color: var(--c7); }
    .notices .warning .severity { color: var(--c2); }
    .notices .where, .notices .more { color: var(--muted); font-size: .85rem; }
    """

    /// Sorting by a click on a header: numbers as numbers (a cell's data-sort when it has one),
    /// text in the reader's collation; a second click reverses.
    static let script = """
    (function () {
      "use strict";
      function key(cell, numeric) {
        var raw = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent;
        if (!numeric) { return raw; }
        var n = parseFloat(raw);
        return isNaN(n) ? -Infinity : n;
      }
      document.querySelectorAll("table.sortable").forEach(function (table) {
        var heads = table.querySelectorAll("thead th");
        heads.forEach(function (th, column) {
          th.tabIndex = 0;
          function sort() {
            var ascending = th.getAttribute("aria-sort") !== "ascending";
            heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
            th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
            var numeric = th.classList.contains("num");
            var body = table.tBodies[0];
            var rows = Array.prototype.slice.call(body.rows).map(function (row, i) { return [row, i]; });
            rows.sort(function (a, b) {
              var x = key(a[0].cells[column], numeric), y = key(b[0].cells[column], numeric);
              var order = numeric ? (x < y ? -1 : x > y ? 1 : 0) : String(x).localeCompare(String(y));
              return (ascending ? order : -order) || a[1] - b[1];
            });
            rows.forEach(function (pair) { body.appendChild(pair[0]); });
          }
          th.addEventListener("click", sort);
          th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
        });
      });
    })();
    """
}
