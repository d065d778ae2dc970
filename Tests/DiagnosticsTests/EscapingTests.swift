import Diagnostics
import Support
import XCTest

/// Every escape with exact expected strings: control characters, U+FFFF and other non-ASCII,
/// quotes, line breaks, and the characters each format treats specially.
final class EscapingTests: XCTestCase {
    /// Control characters, quotes, a backslash, a slash, DEL, U+FFFF and an emoji.
    let hostile = "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é\u{FFFF}😀'<&>|`*_,%:"

    func testJSON() {
        XCTAssertEqual(Escape.json(""), "\"\"")
        XCTAssertEqual(Escape.json("plain"), "\"plain\"")
        XCTAssertEqual(Escape.json(hostile),
                       "\"a\\\"b\\\\c/d\\u0000\\u0001\\u0008\\t\\n\\u000c\\r\\u001f\u{7F}é\u{FFFF}😀'<&>|`*_,%:\"")
        var bytes: [UInt8] = Array("x".utf8)
        Escape.json("\u{1B}[0m\u{10}", into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "x\"\\u001b[0m\\u0010\"")
    }

    func testXML() {
        XCTAssertEqual(Escape.xml(hostile), "a&quot;b\\c/d&#9;&#10;&#13;\u{7F}é\u{FFFF}😀&apos;&lt;&amp;&gt;|`*_,%:")
        XCTAssertEqual(Escape.xml("\r\n"), "&#13;&#10;")
    }

    func testPlistXMLTextEscapesOnlyAmpersandAndAngleBrackets() {
        XCTAssertEqual(Escape.plistXMLText("plain \"quoted\" 'x'\n"), "plain \"quoted\" 'x'\n")
        XCTAssertEqual(Escape.plistXMLText(hostile),
                       "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é\u{FFFF}😀'&lt;&amp;&gt;|`*_,%:")
    }

    func testHTMLKeepsLineFeedAndTabDropsOtherControls() {
        XCTAssertEqual(Escape.html(hostile), "a&quot;b\\c/d\u{9}\u{A}\u{7F}é\u{FFFF}😀&#39;&lt;&amp;&gt;|`*_,%:")
        XCTAssertEqual(Escape.html("<script>\"x\" & 'y'</script>"), "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;")
    }

    func testMarkdown() {
        XCTAssertEqual(Escape.markdownCell(hostile),
                       "a\"b\\\\c/d\u{0}\u{1}\u{8}\u{9}<br>\u{C}\u{1F}\u{7F}é\u{FFFF}😀'&lt;&amp;&gt;\\|\\`\\*\\_,%:")
        XCTAssertEqual(Escape.markdownCell("one\r\ntwo"), "one<br>two")
        XCTAssertEqual(Escape.markdownInline("one\r\ntwo|*x*"), "one two\\|\\*x\\*")
        // A line break a combining mark follows stays `<br>` in inline text: Foundation's search
        // sees `>` and the mark as one character (kept as the Markdown report always wrote it).
        XCTAssertEqual(Escape.markdownInline("a\n\u{301}b"), "a<br>\u{301}b")
        XCTAssertEqual(Escape.bytes("a|b\\c`d", Escape.markdownCodeSpanTable), "a\\|b\\c`d")
    }

    func testCSVField() {
        XCTAssertEqual(Escape.csvField("plain text; é\u{FFFF}"), "plain text; é\u{FFFF}")
        XCTAssertEqual(Escape.csvField(""), "")
        XCTAssertEqual(Escape.csvField("a,b"), "\"a,b\"")
        XCTAssertEqual(Escape.csvField("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(Escape.csvField("line\nbreak"), "\"line\nbreak\"")
        XCTAssertEqual(Escape.csvField("cr\r"), "\"cr\r\"")
        XCTAssertEqual(Escape.csvField("tab\tand\u{0}"), "tab\tand\u{0}")
        // A quote a combining mark follows is one character with it and is not doubled (as the
        // CSV reports always wrote it).
        XCTAssertEqual(Escape.csvField("x\"\u{301}y\""), "\"x\"\u{301}y\"\"\"")
    }

    func testGitHub() {
        XCTAssertEqual(Escape.githubData("100% done\r\nnext"), "100%25 done%0D%0Anext")
        XCTAssertEqual(Escape.githubProperty("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae")
        XCTAssertEqual(Escape.githubData(hostile),
                       "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}%0A\u{C}%0D\u{1F}\u{7F}é\u{FFFF}😀'<&>|`*_,%25:")
    }

    func testOneLine() {
        XCTAssertEqual(Escape.oneLine("no break"), "no break")
        XCTAssertEqual(Escape.oneLine("a\r\nb\rc\nd\te\u{0}"), "a\\r\\nb\\rc\\nd\te\u{0}")
    }

    func testPrintable() {
        XCTAssertEqual(Escape.printable(hostile), "a\"b\\c/d?????????é\u{FFFF}😀'<&>|`*_,%:")
        XCTAssertEqual(Escape.printable("x\u{85}y\u{9F}\u{FFFD}z"[...]), "x?y??z")
        XCTAssertEqual(Escape.printableASCII("bp\u{0}é\u{FFFF}😀~\u{7F}"), "bp????~?")
    }

    func testShellWord() {
        XCTAssertEqual(Escape.shellWord("Config/iap.yml", safe: "/._-+@=:,", quoteEmpty: true), "Config/iap.yml")
        XCTAssertEqual(Escape.shellWord("--bundle-id=a,b:c", safe: "/._-+@=:,", quoteEmpty: true), "--bundle-id=a,b:c")
        XCTAssertEqual(Escape.shellWord("", safe: "/._-+@=:,", quoteEmpty: true), "''")
        XCTAssertEqual(Escape.shellWord("it's here", safe: "/._-+@=:,", quoteEmpty: true), "'it'\\''s here'")
        XCTAssertEqual(Escape.shellWord("", safe: "/._-+@", quoteEmpty: false), "")
        XCTAssertEqual(Escape.shellWord("a=b", safe: "/._-+@", quoteEmpty: false), "'a=b'")
        XCTAssertEqual(Escape.shellWord("Café/Prod.plist", safe: "/._-+@", quoteEmpty: false), "Café/Prod.plist")
    }

    /// The one form every hint's paths and values take: ordinary ones byte for byte, the rest
    /// single-quoted; each form is read back by `/bin/sh` as the text it stands for.
    func testShellArgumentsReadBackAsTheyWere() throws {
        let plain = ["App/Store/Products.storekit", "catalogs/broken/unresolved-bundle/Metadata.plist", "com.acme.app", "iap.yml",
                     "Café/Prod.plist", "a+b@c=d:e,f"]
        for text in plain { XCTAssertEqual(Escape.shellArgument(text, path: true), text) }
        let cases: [(String, String)] = [
            ("Freelance Invoice/ProductIds.plist", "'Freelance Invoice/ProductIds.plist'"),
            ("Tip $Jar/x.plist", "'Tip $Jar/x.plist'"),
            ("Café's App", "'Café'\\''s App'"),
            ("Star*Shop (beta)", "'Star*Shop (beta)'"),
            ("a\"b`c\\d!e;f&g|h<i>j~k#l%m", "'a\"b`c\\d!e;f&g|h<i>j~k#l%m'"),
            ("", "''"),
            ("line\nbreak", "'line\nbreak'"),
        ]
        for (text, expected) in cases { XCTAssertEqual(Escape.shellArgument(text), expected) }
        // A path that begins with a dash is not read as an option; a value is quoted only.
        XCTAssertEqual(Escape.shellArgument("-x.plist", path: true), "./-x.plist")
        XCTAssertEqual(Escape.shellArgument("-x.plist"), "-x.plist")
        XCTAssertEqual(Escape.shellArguments(["A B/x.plist", "C/y.storekit"]), "'A B/x.plist' C/y.storekit")
        // What a shell makes of each form is the text itself.
        let texts = plain + cases.map(\.0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf '%s\\0' " + texts.map { Escape.shellArgument($0) }.joined(separator: " ")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }, texts)
    }
}
