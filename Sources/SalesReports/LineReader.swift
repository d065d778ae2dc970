import CZlib
import Foundation
import PropertyList
import Support

/// Reads a report line by line, in fixed-size chunks, whether it is gzip-compressed (as App Store
/// Connect sends it) or plain text (as a browser saves it after unpacking): zlib's `gzread` passes
/// plain files through unchanged. Memory is the chunk plus the longest line, never the file.
struct LineReader: ~Copyable {
    enum Failure: Error, Equatable {
        case cannotOpen(String)
        /// The compressed stream is damaged or ends early; the message is zlib's.
        case damaged(String)
        /// A line longer than `longestLine`: not a text report.
        case lineTooLong
        /// More than `maxTextBytes` of text (uncompressed): a gzip bomb, or not a report.
        case tooLarge
    }

    /// The longest line read before the file is judged not to be a report.
    static let longestLine = 16 << 20
    /// The most text read from one report, after decompression: 1 GiB, as for a property list.
    /// A 1 MB gzip file can hold 1 GiB of newlines; App Store Connect's reports are megabytes.
    static let maxTextBytes = 1 << 30

    private let file: gzFile
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Text bytes read so far (after decompression), and the most read (`maxTextBytes`).
    private var textBytes = 0
    let textLimit: Int
    /// The number of the line last returned, from 1.
    private(set) var lineNumber = 0
    /// True when the file was gzip-compressed.
    let compressed: Bool

    init(path: String, chunkSize: Int = 1 << 18, textLimit: Int = LineReader.maxTextBytes) throws(Failure) {
        self.textLimit = textLimit
        // Opened as every input is (never a FIFO or device), then handed to zlib.
        let fd: Int32
        switch FileContents.open(path) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw .cannotOpen(failure.reason)
        }
        guard let file = gzdopen(fd, "rb") else {
            close(fd)
            throw .cannotOpen(String(cString: strerror(errno)))
        }
        gzbuffer(file, UInt32(chunkSize))
        self.file = file
        self.buffer = [UInt8](repeating: 0, count: chunkSize)
        self.compressed = gzdirect(file) == 0
    }

    deinit { gzclose(file) }

    /// Calls `body` with the next line's bytes (without its `\n` or `\r\n`) and its number; nil at
    /// the end. Blank lines (spaces and tabs at most) are counted and passed over here, a buffer
    /// at a time, never handed to `body`: a report has no use for them, and a gzip file of a
    /// billion newlines costs the time to inflate it, not a billion calls.
    mutating func next<R>(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> R) throws -> R? {
        while true {
            skipBlankLines()
            if let newline = findNewline() {
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let lineStart = start
                start = newline + 1
                lineNumber += 1
                let number = lineNumber
                return try buffer.withUnsafeBufferPointer { all in
                    try body(UnsafeBufferPointer(rebasing: all[lineStart..<lineEnd]), number)
                }
            }
            if atEOF {
                guard start < end else { return nil }
                var lineEnd = end
                if buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let lineStart = start
                start = end
                lineNumber += 1
                let number = lineNumber
                return try buffer.withUnsafeBufferPointer { all in
                    try body(UnsafeBufferPointer(rebasing: all[lineStart..<lineEnd]), number)
                }
            }
            try fill()
        }
    }

    /// Moves `start` past the whole blank lines at the front of the buffer, counting them.
    private mutating func skipBlankLines() {
        let (skipped, lines) = buffer.withUnsafeBufferPointer { p -> (Int, Int) in
            var i = start
            var lineStart = start
            var lines = 0
            while i < end {
                let b = p[i]
                if b == 0x20 || b == 0x09 { i += 1; continue }
                if b == 0x0A {
                    lines += 1
                    i += 1
                    lineStart = i
                } else if b == 0x0D, i + 1 < end, p[i + 1] == 0x0A {
                    lines += 1
                    i += 2
                    lineStart = i
                } else {
                    break
                }
            }
            return (lineStart, lines)
        }
        start = skipped
        lineNumber += lines
    }

    private func findNewline() -> Int? {
        buffer.withUnsafeBufferPointer { p in
            guard start < end, let base = p.baseAddress else { return nil }
            guard let hit = memchr(base + start, 0x0A, end - start) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Moves the unread tail to the front (growing the buffer for a line longer than it) and reads more.
    private mutating func fill() throws(Failure) {
        if start > 0 {
            let tail = end - start
            if tail > 0 {
                buffer.withUnsafeMutableBufferPointer { p in
                    _ = memmove(p.baseAddress!, p.baseAddress! + start, tail)
                }
            }
            start = 0
            end = tail
        }
        if end == buffer.count {
            // No report has a line this long: a binary or damaged file is not read into memory whole.
            guard buffer.count < Self.longestLine else { throw .lineTooLong }
            buffer += [UInt8](repeating: 0, count: buffer.count)
        }
        let room = buffer.count - end
        let read = buffer.withUnsafeMutableBufferPointer { p in
            gzread(file, p.baseAddress! + end, UInt32(room))
        }
        if read < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            throw .damaged(message)
        }
        if read == 0 {
            // zlib reports a stream that stops mid-way only through gzerror, after the last read.
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? ""
            if code != Z_OK && code != Z_STREAM_END {
                throw .damaged(message.isEmpty ? "compressed data ends early" : message)
            }
            atEOF = true
            return
        }
        end += Int(read)
        textBytes += Int(read)
        guard textBytes <= textLimit else { throw .tooLarge }
    }
}
