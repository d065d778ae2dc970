import CZlib
import Foundation

/// Whether a downloaded report is whole gzip, before it is kept: every member inflated to its end
/// (its CRC-32 and length checked against its trailer by zlib), nothing after the last member, and
/// at most `limit` bytes of text in all. The text is inflated a chunk at a time and dropped, so
/// the check costs a chunk of memory and time linear in the text, whatever the body holds.
enum GzipCheck {
    /// The most text a downloaded report may inflate to: the most `iap report --sales` reads of
    /// one report (SalesReports' `LineReader.maxTextBytes`), so what is kept can be read.
    static let maxTextBytes = 1 << 30

    enum Problem: Error, Equatable, CustomStringConvertible {
        /// It does not start as gzip does (`1f 8b`).
        case notGzip
        /// zlib's reason: a damaged block, a CRC or length that does not match its trailer.
        case damaged(String)
        /// The body ends before the gzip trailer: cut short.
        case cutShort
        /// Bytes after the last member that are not another member.
        case trailingBytes(Int)
        /// More text than `limit`.
        case tooLarge(Int)

        var description: String {
            switch self {
            case .notGzip: "it is not gzip"
            case .damaged(let why): "its gzip data is damaged (\(why))"
            case .cutShort: "it ends before its gzip trailer: cut short"
            case .trailingBytes(let count): "\(count) bytes follow its gzip data"
            case .tooLarge(let limit): "it holds more than \(limit >> 20) MB of text, the most iap reads of one report"
            }
        }
    }

    /// Whether the bytes are all there: false only when they end before a gzip trailer (a transfer
    /// cut short, which the client asks for again); any other problem is the body's own, which
    /// `check` says once the body is taken. A report is a few megabytes at most, inflated twice.
    static func isComplete(_ data: Data) -> Bool {
        do {
            try check(data)
        } catch {
            return error != .cutShort
        }
        return true
    }

    static func check(_ data: Data, limit: Int = maxTextBytes) throws(Problem) {
        guard data.count >= 2, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B else { throw .notGzip }
        let problem: Problem? = data.withUnsafeBytes { raw -> Problem? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return .notGzip }
            var stream = z_stream()
            // 16 + MAX_WBITS: gzip only (no zlib or raw deflate), with its header and trailer checked.
            guard inflateInit2_(&stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                return .damaged("zlib could not start")
            }
            defer { inflateEnd(&stream) }
            var output = [UInt8](repeating: 0, count: 1 << 16)
            var offset = 0
            var text = 0
            // A member at a time: the input left after one ends is another member, or trailing bytes.
            while true {
                stream.next_in = UnsafeMutablePointer(mutating: base + offset)
                // `UInt32`: a body is at most the transport's limit (64 MB), far below 4 GB.
                stream.avail_in = UInt32(clamping: raw.count - offset)
                var status: Int32 = Z_OK
                while status != Z_STREAM_END {
                    let before = stream.total_out
                    status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = UInt32(buffer.count)
                        return inflate(&stream, Z_NO_FLUSH)
                    }
                    text += Int(stream.total_out - before)
                    if text > limit { return .tooLarge(limit) }
                    switch status {
                    case Z_OK, Z_STREAM_END:
                        continue
                    case Z_BUF_ERROR where stream.avail_in == 0:
                        return .cutShort
                    default:
                        return .damaged(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
                    }
                }
                offset = raw.count - Int(stream.avail_in)
                if offset == raw.count { return nil }
                guard raw.count - offset >= 2, base[offset] == 0x1F, base[offset + 1] == 0x8B else {
                    return .trailingBytes(raw.count - offset)
                }
                guard inflateReset(&stream) == Z_OK else { return .damaged("zlib could not go on") }
            }
        }
        if let problem { throw problem }
    }
}
