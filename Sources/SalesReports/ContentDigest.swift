/// A 128-bit hash of a report's lines, to recognise the same report given twice. It reads eight
/// bytes a step (a fraction of a second on a million rows, where SipHash through `Hasher` cost
/// about a tenth of the whole run), and it is keyed afresh each run from the system's random
/// generator, so no file can be made to match another on purpose: a crafted collision would
/// have to be made without knowing the key.
struct ContentDigest {
    private static let key: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()

    private var a: UInt64
    private var b: UInt64
    private var count: UInt64 = 0

    init() { (a, b) = Self.key }

    /// Adds one line: its bytes, then its length, so that lines cannot run into each other.
    mutating func add(_ line: UnsafeBufferPointer<UInt8>) {
        let n = line.count
        var i = 0
        if let base = line.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= n {
                mix(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(line[i]) << shift
            shift += 8
            i += 1
        }
        mix(tail)
        mix(UInt64(n) | 0xA5 << 56)
        count &+= 1
    }

    /// Adds a text (a Subscription report's day) as one more line.
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add($0) }
    }

    /// Two lanes, each an invertible step per word (multiplication by odd constants, rotation).
    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        a ^= word &* 0x87C3_7B91_1142_53D5
        a = (a << 31 | a >> 33) &* 0x4CF5_AD43_2745_937F
        b &+= word &* 0x9E37_79B9_7F4A_7C15
        b = (b << 27 | b >> 37) &* 0xC2B2_AE3D_27D4_EB4F
    }

    /// The digest: both lanes, each finished with MurmurHash3's 64-bit finaliser.
    func finalize() -> Digest {
        func finish(_ x: UInt64) -> UInt64 {
            var x = x
            x ^= x >> 33
            x = x &* 0xFF51_AFD7_ED55_8CCD
            x ^= x >> 33
            x = x &* 0xC4CE_B9FE_1A85_EC53
            return x ^ x >> 33
        }
        let high = finish(a ^ count)
        return Digest(high: high, low: finish(b ^ high))
    }

    struct Digest: Hashable {
        var high: UInt64
        var low: UInt64
    }
}
