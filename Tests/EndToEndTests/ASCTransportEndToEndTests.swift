import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

extension ASCEndToEndTests {
    #if os(Linux)
    /// A loopback listener that counts the connections made to it (a proxy that must not be used).
    final class Listener: @unchecked Sendable {
        let port: Int
        private let socket: Int32
        private let lock = NSLock()
        private var accepted = 0

        init() throws {
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            guard bound == 0, listen(fd, 8) == 0 else { throw XCTSkip("cannot listen on loopback") }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            port = Int(UInt16(bigEndian: address.sin_port))
            socket = fd
            Thread { [self] in
                while true {
                    let client = accept(socket, nil, nil)
                    if client < 0 { return }
                    lock.withLock { accepted += 1 }
                    close(client)
                }
            }.start()
        }

        var connections: Int { lock.withLock { accepted } }

        func stop() {
            shutdown(socket, Int32(SHUT_RDWR))
            close(socket)
        }
    }
    #endif

    /// A token sent in the clear (http:// to a test server on this machine) never goes through a
    /// proxy, whatever the environment's proxy variables say.
    func testAPlainHTTPTokenIsNeverSentThroughAProxy() throws {
        #if os(Linux)
        let proxy = try Listener()
        defer { proxy.stop() }
        let (url, log) = try startServer(pageSize: 200)
        var env = environment
        env["IAP_ASC_URL"] = url
        let address = "http://127.0.0.1:\(proxy.port)"
        for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { env[name] = address }
        env["no_proxy"] = ""
        env["NO_PROXY"] = ""
        let snapshot = folder.appendingPathComponent("proxied.json").path
        let result = try IAPRunner.run(["asc", "pull", "--app", "com.razeware.RazeFaces", "--snapshot", snapshot], environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try requests(log).count, 4)
        XCTAssertEqual(proxy.connections, 0)
        #else
        throw XCTSkip("the libcurl transport is Linux's")
        #endif
    }
}

extension ASCEndToEndTests {
    /// The fake's own checks (Tests/Fixtures/asc/check_fake_asc.py): what the tests here rely on the
    /// fake to do — paging, includes, prices, the hour's limit, every scenario — is itself checked,
    /// against Apple's document, on every run.
    func testTheFakeServerPassesItsOwnChecks() throws {
        if let missing = Prerequisite.fakeASCMissing() { throw Prerequisite.skip(missing) }
        let script = IAPRunner.packageRoot.appendingPathComponent("Tests/Fixtures/asc/check_fake_asc.py").path
        let result = try IAPRunner.runProgram("/usr/bin/env", ["python3", script])
        if result.status == 3 { throw Prerequisite.skip("the fake App Store Connect cannot run: \(result.stdout)") }
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("all ") && result.stdout.hasSuffix(" checks passed\n"), result.stdout)
    }
}
