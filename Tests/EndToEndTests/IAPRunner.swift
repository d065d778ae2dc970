import Foundation
import TestSupport
import XCTest

/// Runs the built `iap` binary the way a user does and captures what it prints.
struct IAPRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = Prerequisite.packageRoot

    static var binary: URL {
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() } ?? Bundle.main.bundleURL
        return products.appendingPathComponent("iap")
    }

    static func run(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:]) throws -> Result {
        try runProgram(binary.path, arguments, in: directory, environment: environment)
    }

    static func runProgram(_ program: String, _ arguments: [String], in directory: URL = packageRoot,
                           environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end at once before waiting: a child that fills one pipe while
        // the other is read would block forever.
        let errReader = PipeReader(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errReader.finish()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// How many findings of each severity a text-format run printed (one line each; notes apart),
    /// so that a test states what another format or the summary must agree with, not a number
    /// every new rule's `catalogs/broken/` case would change.
    struct Counts: Equatable {
        var errors = 0, warnings = 0, infos = 0
        var findings: Int { errors + warnings + infos }
        /// As the summary line and the Markdown heading say them.
        var summary: String { "\(errors) errors, \(warnings) warnings, \(infos) infos" }
    }

    static func counts(ofText stdout: String) -> Counts {
        var counts = Counts()
        for line in stdout.split(separator: "\n") {
            if line.contains(": error: ") { counts.errors += 1 } else if line.contains(": warning: ") { counts.warnings += 1 } else if line.contains(": info: ") { counts.infos += 1 }
        }
        return counts
    }

    /// Compares with `Golden/<name>` (`Golden.check`).
    static func assertGolden(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try Golden.check(text, "Tests/EndToEndTests/Golden/\(name)", file: file, line: line)
    }

    static var corpus: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The whole content, once the writer has closed the pipe.
    func finish() -> Data {
        done.wait()
        return data
    }
}
