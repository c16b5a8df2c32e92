import Foundation
import OfflineEngine

/// Reading JSON text into `JSONValue`: the byte parser (`JSONParser`) against the Foundation path
/// (`JSONText.parseThroughFoundation`: the tagging pass, `JSONSerialization` and the conversion of
/// its objects), on the same bytes in the same process. Inputs: a 1,000-row PostgREST page of
/// task rows, and one queued write in the form the store persists. Each figure is the median of
/// alternating rounds, so load from other processes disturbs the ratio less.
enum JSONBenchmark {
    private static let rounds = 9
    private static let baselineKind = "JSONSerialization with the tagging pass and conversion"

    static func run() async throws {
        let page = JSONText.data(.array((0..<1_000).map(taskRow)))
        try compare("json.page", bytes: page, parsesPerRound: 20, extra: #""rows":1000,"#)
        let write = JSONText.data(
            StoreBenchmark.persistedShape(StoreBenchmark.realisticWrite(writer: 0, index: 7)))
        try compare("json.write", bytes: write, parsesPerRound: 20_000, extra: #""rows":1,"#)
    }

    /// Prints one line: the parser's median MB/s, the baseline's and their ratio.
    private static func compare(_ name: String, bytes: Data, parsesPerRound: Int, extra: String) throws {
        guard try JSONParser.parse(bytes) == JSONText.parseThroughFoundation(bytes) else {
            throw StoreBenchmark.BenchmarkFailure(what: "\(name): the two paths read different values")
        }
        var parser: [Double] = []
        var baseline: [Double] = []
        for _ in 0..<rounds {
            parser.append(try rate(bytes: bytes, parses: parsesPerRound) { try JSONParser.parse($0) })
            baseline.append(
                try rate(bytes: bytes, parses: parsesPerRound) { try JSONText.parseThroughFoundation($0) })
        }
        let value = parser.percentile(0.5)
        let base = baseline.percentile(0.5)
        // Microseconds per parse: MB/s is bytes per microsecond.
        let micros = (parser: Double(bytes.count) / value, baseline: Double(bytes.count) / base)
        print(
            #"{"bench":"\#(name)",\#(extra)"bytes":\#(bytes.count),"value":\#(format(value)),"unit":"MB/s","#
                + #""baseline":\#(format(base)),"ratio":\#(format(value / base)),"#
                + #""parse_us":\#(format(micros.parser)),"baseline_parse_us":\#(format(micros.baseline)),"#
                + #""rounds":\#(rounds),"baseline_kind":"\#(baselineKind)"}"#)
    }

    /// MB/s of `parses` parses of `bytes`; the values are counted so none can be optimised away.
    private static func rate(bytes: Data, parses: Int, _ parse: (Data) throws -> JSONValue) throws -> Double {
        var members = 0
        let started = ContinuousClock.now
        for _ in 0..<parses {
            switch try parse(bytes) {
            case .array(let rows): members += rows.count
            case .object(let fields): members += fields.count
            default: members += 1
            }
        }
        let elapsed = StoreBenchmark.seconds(ContinuousClock.now - started)
        guard members > 0 else { throw StoreBenchmark.BenchmarkFailure(what: "nothing parsed") }
        return Double(bytes.count * parses) / elapsed / 1e6
    }

    /// A task row as PostgREST sends it: uuid, text, boolean, integer, numeric, timestamptz, a
    /// nullable column and a small jsonb object.
    private static func taskRow(_ index: Int) -> JSONValue {
        let id = String(format: "%08x-4c5e-4a8f-9b1d-%012x", index &* 2_654_435_761 & 0xFFFF_FFFF, index)
        let titles = ["Call the plumber about the kitchen sink", "Réserver le train pour Zürich", "Buy milk"]
        return [
            "id": .string(id),
            "title": .string("\(titles[index % titles.count]) #\(index)"),
            "done": .bool(index % 3 == 0),
            "priority": .number(JSONNumber(index % 5)),
            "amount": .number(JSONNumber(text: "\(index % 200).\(index % 10)0") ?? JSONNumber(0)),
            "created_at": .string("2025-06-01T12:34:\(10 + index % 50).123456+00:00"),
            "assignee": index % 4 == 0 ? .null : "7f3c2a9e-0b1d-4c5e-9a8f-123456789abc",
            "meta": [
                "tags": index % 2 == 0 ? ["home", "urgent"] : ["work"],
                "estimate": ["hours": .number(JSONNumber(index % 8)), "confidence": 0.75],
            ],
        ]
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
