import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What a test needs from outside the repository — the corpus and schemas in `../shared` beside
/// the clone, a program, Python modules, a shared library — checked before the test uses it. When
/// one is missing the test is skipped, whatever else is installed, and the reason, with how to get
/// the thing, is printed on stdout as well as given to XCTest; a fresh clone passes `swift test`.
public enum Prerequisite {
    /// The package's root folder (this file is `Tests/TestSupport/Prerequisite.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The skip for `reason`, printed first as `<file> <test>: skipped: <reason>`.
    public static func skip(_ reason: String, file: String = #fileID, function: String = #function) -> XCTSkip {
        let name = file.split(separator: "/").last.map { String($0.dropLast(".swift".count)) } ?? file
        print("\(name).\(function): skipped: \(reason)")
        return XCTSkip(reason)
    }

    // MARK: ../shared

    /// `../shared/<path>` beside the package's folder, when it exists.
    public static func sharedPath(_ path: String) -> URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent(path)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// `../shared/<path>`, or a skip that says it is absent.
    public static func shared(_ path: String, file: String = #fileID, function: String = #function) throws -> URL {
        guard let url = sharedPath(path) else {
            throw skip("../shared/\(path) is absent (the corpus and schemas beside the clone; only the project's machines have it)",
                       file: file, function: function)
        }
        return url
    }

    // MARK: Programs

    /// The first of `names` found on PATH (or, for a name with a slash, that file), when executable.
    public static func programPath(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            if name.contains("/") {
                if FileManager.default.isExecutableFile(atPath: name) { return name }
                continue
            }
            for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    /// The first of `names` on PATH, or a skip naming what to install.
    @discardableResult
    public static func program(_ names: [String], install: String, file: String = #fileID, function: String = #function) throws -> String {
        guard let found = programPath(names) else {
            throw skip("\(names.joined(separator: " or ")) is not installed (\(install))", file: file, function: function)
        }
        return found
    }

    // MARK: Python

    /// Which of `modules` the `python3` on PATH cannot import (each tried on its own, so one that is
    /// installed never hides one that is not); all of them when there is no `python3`.
    public static func missingPythonModules(_ modules: [String]) -> [String] {
        guard let python = programPath(["python3"]) else { return modules }
        let script = """
            import sys
            for name in sys.argv[1:]:
                try:
                    __import__(name)
                except Exception:
                    print(name)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + modules
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return modules }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return modules }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `python3` with every one of `modules` importable, or a skip naming the missing ones and how
    /// to install them (`install`, a command).
    public static func python(_ modules: [String], install: String, file: String = #fileID, function: String = #function) throws {
        guard programPath(["python3"]) != nil else {
            throw skip("python3 is not installed (apt-get install python3; then \(install))", file: file, function: function)
        }
        let missing = missingPythonModules(modules)
        guard missing.isEmpty else {
            throw skip("Python's \(missing.joined(separator: ", ")) cannot be imported (\(install))", file: file, function: function)
        }
    }

    /// The Python packages the fake App Store Connect needs (Tests/Fixtures/asc/requirements.txt),
    /// as modules; werkzeug comes with openapi-core.
    public static let fakeASCModules = ["openapi_core", "werkzeug", "cryptography"]

    /// The command that installs them, from the package root.
    public static let fakeASCInstall = "python3 -m pip install -r Tests/Fixtures/asc/requirements.txt; .ci/run installs them"

    /// Apple's OpenAPI document the fake App Store Connect validates against.
    public static let fakeASCSpec = "schemas/app-store-connect-openapi-4.4.1-subset.json"

    /// Everything the fake App Store Connect needs, or nil: its OpenAPI document in `../shared`,
    /// python3 and its modules. Checked by each test that starts it.
    public static func fakeASCMissing() -> String? {
        guard sharedPath(fakeASCSpec) != nil else { return "../shared/\(fakeASCSpec) is absent (the fake App Store Connect validates against it)" }
        guard programPath(["python3"]) != nil else { return "python3 is not installed (apt-get install python3; then \(fakeASCInstall))" }
        let missing = missingPythonModules(fakeASCModules)
        guard missing.isEmpty else { return "Python's \(missing.joined(separator: ", ")) cannot be imported (\(fakeASCInstall))" }
        return nil
    }

    // MARK: Libraries

    /// Whether one of `names` loads with dlopen (libcurl, which iap loads on its first request).
    public static func loads(_ names: [String]) -> Bool {
        #if canImport(Glibc)
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                dlclose(handle)
                return true
            }
        }
        return false
        #else
        return true
        #endif
    }

    /// The names iap's libcurl loader tries (Sources/CCurlShim), on Linux.
    public static let libcurlNames = ["libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", "libcurl.so"]

    /// libcurl, or a skip saying how to install it (Linux; elsewhere the system's URLSession is used).
    public static func libcurl(file: String = #fileID, function: String = #function) throws {
        guard loads(libcurlNames) else {
            throw skip("libcurl (libcurl.so.4) cannot be loaded (apt-get install libcurl4; .ci/run installs it)", file: file, function: function)
        }
    }
}
