import Diagnostics
import Support

/// CSV as RFC 4180 writes it: fields with a comma, quote, CR or LF quoted, quotes doubled, lines
/// ended by CRLF (`iap price --format csv` keeps the LF it always wrote).
public enum CSVTable {
    public static func render(header: [String], rows: [[String]], lineEnd: String = "\r\n") -> String {
        var out = ""
        out.reserveCapacity(64 * (rows.count + 1))
        for row in [header] + rows {
            out += row.map(Escape.csvField).joined(separator: ",")
            out += lineEnd
        }
        return out
    }

}
