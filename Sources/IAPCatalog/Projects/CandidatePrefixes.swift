/// How far the product IDs reach into each bundle-ID candidate, for `BundleIDResolver.Score`: how
/// many IDs start with a candidate and a dot, and the longest start any ID shares with it.
///
/// The candidates' characters form a trie, and each product ID walks it once, only as far as it
/// matches some candidate: the work is the candidates' lengths plus, for each ID, at most the
/// longest candidate's, where comparing every candidate with every ID cost their product (5,000
/// XcodeGen targets against 10,000 IDs took 30 s). Characters are compared as `String.hasPrefix`
/// and `==` compare them (grapheme clusters, canonically equivalent), so the counts are the ones
/// that comparing each pair gives. A node costs about 30 bytes: 100,000 Tuist targets make 200,000.
struct CandidatePrefixes {
    /// Each node's children, by the node and a character's number (`number(of:adding:)`), packed.
    private var children: [UInt64: UInt32] = [:]
    /// Per node: how many product IDs passed through it, its parent and its depth (node 0 is the root).
    private var visits: [Int] = [0]
    private var parent: [UInt32] = [0]
    private var depth: [UInt32] = [0]
    /// A number for each character of the candidates: a one-byte character is its byte, the
    /// others are numbered from 128 as they come. ASCII is in the table too, so a character
    /// canonically equal to one (U+037E is ";") finds its number.
    private var numbers: [Character: UInt32]
    /// Per candidate: its last node, and the last node of the candidate followed by a dot.
    private var own: [UInt32] = []
    private var dotted: [UInt32] = []
    /// The steps the product IDs took through the trie: the work `count` did.
    private(set) var steps = 0

    /// The trie of `candidates`, compared as given (the resolver lowercases them).
    init(candidates: some Sequence<String>) {
        numbers = Dictionary(uniqueKeysWithValues: (0..<128).map { (Character(Unicode.Scalar(UInt8($0))), UInt32($0)) })
        for candidate in candidates {
            let characters = Array(candidate), withDot = Array(candidate + ".")
            let last = insert(withDot)
            dotted.append(last)
            // A dot can join the last character's cluster (after U+0600, say): then the candidate
            // has a path of its own.
            own.append(withDot.dropLast().elementsEqual(characters) ? parent[Int(last)] : insert(characters))
        }
    }

    /// The number of a character; nil for one no candidate holds, unless `adding`.
    private mutating func number(of character: Character, adding: Bool) -> UInt32? {
        if character.utf8.count == 1 { return UInt32(character.utf8.first!) }
        if let number = numbers[character] { return number }
        guard adding, numbers.count < UInt32.max else { return nil }
        let number = UInt32(numbers.count)
        numbers[character] = number
        return number
    }

    private static func edge(_ node: UInt32, _ number: UInt32) -> UInt64 {
        UInt64(node) << 32 | UInt64(number)
    }

    /// Adds the path of `characters`; its last node (the root for none).
    private mutating func insert(_ characters: [Character]) -> UInt32 {
        var node: UInt32 = 0
        for character in characters {
            // Past 4 billion nodes (a hundred gigabytes of candidates) the rest is not added.
            guard let number = number(of: character, adding: true), visits.count < UInt32.max else { break }
            let edge = Self.edge(node, number)
            if let next = children[edge] {
                node = next
            } else {
                let next = UInt32(visits.count)
                children[edge] = next
                visits.append(0)
                parent.append(node)
                depth.append(depth[Int(node)] + 1)
                node = next
            }
        }
        return node
    }

    /// Walks one product ID (compared as given) into the trie, as far as it matches.
    mutating func count(_ id: String) {
        var node: UInt32 = 0
        for character in id {
            guard let number = number(of: character, adding: false), let next = children[Self.edge(node, number)] else { return }
            visits[Int(next)] += 1
            node = next
            steps += 1
        }
    }

    /// How many of the IDs counted start with candidate `index` and a dot.
    func matches(_ index: Int) -> Int {
        visits[Int(dotted[index])]
    }

    /// The most characters any ID counted shares with the start of candidate `index`: the depth
    /// of the deepest node of its path an ID reached (an ID that reached a node passed every node
    /// above it, so that is the first one reached going up).
    func commonPrefix(_ index: Int) -> Int {
        var node = own[index]
        while node != 0, visits[Int(node)] == 0 { node = parent[Int(node)] }
        return Int(depth[Int(node)])
    }

    /// The characters of candidate `index`.
    func length(_ index: Int) -> Int {
        Int(depth[Int(own[index])])
    }
}
