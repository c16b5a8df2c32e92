import OfflineEngine
import Testing

/// A scenario: the server's starting rows, the user signed in at launch, and the steps, named
/// after the sentence of the reference or the decision of SPEC.md it shows.
struct Scenario: Sendable {
    var name: String
    var tables: [String: [Row]] = ["tasks": []]
    var primaryKeys: [String: [String]] = [:]
    /// Per-table settings: keys and values made on the device (SPEC.md §8).
    var settings: [String: TableSettings] = [:]
    var responseTrust: ResponseTrust = .any
    var user: String? = "u1"
    /// Relaunches need a folder: the scenario runs on the on-disk store only.
    var diskOnly = false
    /// Why the scenario cannot pass yet (a known library bug): it is left out of the run.
    var known: String?
    var steps: [Step]

    init(
        _ name: String, tables: [String: [Row]] = ["tasks": []], primaryKeys: [String: [String]] = [:],
        settings: [String: TableSettings] = [:],
        trust: ResponseTrust = .any, user: String? = "u1", diskOnly: Bool = false, known: String? = nil,
        steps: [Step]
    ) {
        self.known = known
        self.name = name
        self.tables = tables
        self.primaryKeys = primaryKeys
        self.settings = settings
        self.responseTrust = trust
        self.user = user
        self.diskOnly = diskOnly
        self.steps = steps
    }
}

/// Where a scenario's client keeps its data.
enum SpecStore: String, Sendable, CaseIterable {
    case memory
    case disk
}

/// One test case: a scenario on one store.
struct SpecCase: Sendable, CustomTestStringConvertible {
    var scenario: Scenario
    var store: SpecStore

    var testDescription: String { "\(scenario.name) [\(store.rawValue)]" }

    /// Every pair of a scenario and a store it runs on; with `known`, the pairs of the scenarios
    /// left out for a known issue instead (for a disabled test that names them).
    static func cases(_ scenarios: [Scenario], known: Bool = false) -> [SpecCase] {
        scenarios.filter { ($0.known != nil) == known }.flatMap { scenario in
            SpecStore.allCases.filter { !scenario.diskOnly || $0 == .disk }
                .map { SpecCase(scenario: scenario, store: $0) }
        }
    }

    /// Plays the scenario once a slot is free (``ScenarioSlots``), recording a failure that names
    /// the step that failed.
    func play() async {
        await ScenarioSlots.shared.playing { await ScenarioRun(self).play() }
    }
}
