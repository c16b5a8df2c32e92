import Foundation
import Testing

@testable import OfflineEngine

/// Seeded fuzzing of what the engine reads from outside: JSON texts, PostgREST's query and
/// filter grammar, PostgREST's error bodies, and the store's stored form of a queued write.
/// Each target mutates valid inputs (`ByteMutator`) and checks that reading never traps or
/// hangs, and that what it accepts survives a round trip. `FUZZ_INPUTS=1000000 swift test
/// --filter ParserFuzzTests` runs longer; a failure names the input (replayable by its seed).
@Suite("Fuzzing the parsers", .timeLimit(.minutes(10)))
struct ParserFuzzTests {
    enum Target: String, CaseIterable, Sendable {
        case json, queries, errors, stored
    }

    @Test("mutated inputs never trap, hang or break a round trip", arguments: Target.allCases)
    func fuzz(_ target: Target) {
        let count = FuzzTally.inputs(standard: 6_000)
        var tally = FuzzTally(target: target.rawValue)
        var mutator = ByteMutator(seed: 0xF022 &+ UInt64(Target.allCases.firstIndex(of: target)!))
        let seeds = Self.seeds(target)
        for index in 0..<count {
            let input = mutator.mutate(seeds[index % seeds.count], donor: mutator.pick(seeds))
            tally.run(input, Self.check(target))
        }
        print(
            "fuzz \(target.rawValue): \(tally.inputs) inputs, 0 crashes, \(tally.hangs.count) hangs, \(tally.broken.count) broken"
        )
        #expect(tally.hangs.isEmpty, "hangs: \(tally.hangs.prefix(3))")
        #expect(tally.broken.isEmpty, "broken: \(tally.broken.prefix(3))")
    }

    /// The valid inputs a target's mutations start from.
    static func seeds(_ target: Target) -> [[UInt8]] {
        switch target {
        case .json:
            var generator = RandomJSONText(seed: 0x5EED)
            return (0..<64).map { _ in Array(generator.text().utf8) }
        case .queries: return FuzzSeeds.queries.map { Array($0.utf8) }
        case .errors: return FuzzSeeds.errorBodies.map { Array($0.utf8) }
        case .stored: return FuzzSeeds.storedWrites().map { Array($0) }
        }
    }

    /// The property a target checks of one input: nil when it holds.
    static func check(_ target: Target) -> ([UInt8]) -> String? {
        switch target {
        case .json: return jsonRoundTrip
        case .queries: return queryRoundTrip
        case .errors: return errorWording
        case .stored: return storedRoundTrip
        }
    }

    /// JSON the parser accepts is written and read back as the same value.
    static func jsonRoundTrip(_ input: [UInt8]) -> String? {
        guard let value = try? JSONText.parse(Data(input)) else { return nil }
        return (try? JSONText.parse(JSONText.data(value))) == value ? nil : "JSON round trip"
    }

    /// A query read from a stored list key keeps that key through its own reading, and a logic
    /// tree or `in` list the grammar reads is rendered into text it reads the same.
    static func queryRoundTrip(_ input: [UInt8]) -> String? {
        let text = String(decoding: input, as: UTF8.self)
        if let query = QueryDescription(canonicalKey: "public/tasks?" + text),
            !query.canonicalKey.contains("#")
        {
            let key = query.canonicalKey
            guard QueryDescription(canonicalKey: key)?.canonicalKey == key else {
                return "query key round trip"
            }
        }
        for item in text.split(separator: "&") {
            let value = String(item.split(separator: "=", maxSplits: 1).last ?? "")
            if let parts = FilterGrammar.logicParts(value),
                let rendered = try? FilterRendering.logicList(parts),
                FilterGrammar.logicParts(rendered) != parts
            {
                return "logic tree round trip"
            }
            if let elements = FilterGrammar.list(value),
                FilterGrammar.list(FilterRendering.list(elements)) != elements
            {
                return "in-list round trip"
            }
        }
        return nil
    }

    /// An error body, however mangled, never puts the server's message, details or hint (which
    /// quote row data: the seeds plant `SECRET` there) into the words shown to a user.
    static func errorWording(_ input: [UInt8]) -> String? {
        for status in [400, 401, 403, 404, 409, 500, 503] {
            let response = HTTPResponse(
                status: status, headers: ["Content-Type": "application/json"], body: Data(input))
            guard let error = PostgrestError(response: response) else { continue }
            let shown = error.description + (error.errorDescription ?? "")
            if shown.contains("SECRET") { return "row data in the words shown to a user" }
        }
        return nil
    }

    /// A stored write the store can read is written and read back as the same write; reading
    /// its body lazily never traps.
    static func storedRoundTrip(_ input: [UInt8]) -> String? {
        let data = Data(input)
        _ = StoredBody.decode(data, id: FuzzSeeds.writeID)
        guard let write = try? Mutation(persistedData: data) else { return nil }
        return (try? Mutation(persistedData: write.persistedData())) == write
            ? nil : "stored write round trip"
    }
}
