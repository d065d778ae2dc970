import Foundation

/// libFuzzer's entry point (`scripts/fuzz.sh` builds this file with FuzzEntries.swift and the
/// project's modules). `IAP_FUZZ_TARGET` names the entry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    entry(bytes)
    return 0
}

private let entry: @Sendable ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["IAP_FUZZ_TARGET"] ?? ""
    guard let found = FuzzEntries.all[name] else {
        FileHandle.standardError.write(Data("IAP_FUZZ_TARGET must be one of: \(FuzzEntries.all.keys.sorted().joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return found
}()
