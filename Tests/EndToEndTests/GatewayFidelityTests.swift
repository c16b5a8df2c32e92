import Foundation
import Testing

/// Cases ported from PostgREST's own spec suite, sent to ``PostgresGateway`` on PostgreSQL: the
/// stand-in must answer as PostgREST does, or refuse with a 400 that names what it does not
/// support, never answer differently (a test passing on the stand-in must pass on Supabase).
@Suite("Gateway fidelity: PostgREST's own spec cases", .offCooperativePool, .timeLimit(.minutes(10)))
struct GatewayFidelityTests {
    static let cases: [FidelityCase] =
        QuerySpecCases.cases + QuerySelectOrderCases.cases + RangeSpecCases.cases + AndOrParamsSpecCases.cases
        + EmbedSpecCases.cases + EmbedMoreSpecCases.cases + ErrorSpecCases.cases + InsertSpecCases.cases
        + UpdateSpecCases.cases
        + DeleteSpecCases.cases + UpsertSpecCases.cases + SingularSpecCases.cases + WriteCountCases.cases

    @Test("every ported case is answered as PostgREST answers it, or clearly refused")
    func fidelity() async throws {
        let outcomes = try await FidelityRunner().run(Self.cases)
        var passed = 0
        var wrong: [String] = []
        var refused: [String] = []
        for (item, outcome) in outcomes {
            switch outcome {
            case .passed: passed += 1
            case .refused(let message): refused.append("  \(item.spec) \"\(item.name)\": \(message)")
            case .wrong(let request, let difference):
                wrong.append("  \(item.spec) \"\(item.name)\"\n    \(request)\n    expected \(difference)")
            }
        }
        print(
            "gateway-fidelity: \(outcomes.count) cases, \(passed) passed, \(refused.count) refused, \(wrong.count) wrong"
        )
        if !wrong.isEmpty { print("wrong:\n" + wrong.joined(separator: "\n")) }
        if !refused.isEmpty { print("refused:\n" + refused.joined(separator: "\n")) }
        #expect(outcomes.count >= 120)
        #expect(wrong.isEmpty, "\(wrong.count) cases answered differently from PostgREST")
    }
}
