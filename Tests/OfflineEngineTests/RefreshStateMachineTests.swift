import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The pure state machine: only the diagram's edges, and the decisions the reference leaves open.
@Suite("Refresh state machine", .timeLimit(.minutes(10)))
struct RefreshStateMachineTests {
    /// A state by name (a stall's cause left out), as the client's events name it.
    private typealias Kind = SyncEvent.Refresh

    private struct Edge: Hashable {
        var from: Kind
        var to: Kind
    }

    private static let diagram: Set<Edge> = [
        Edge(from: .refreshing, to: .idle), Edge(from: .refreshing, to: .stalled),
        Edge(from: .refreshing, to: .paused), Edge(from: .paused, to: .refreshing),
        Edge(from: .stalled, to: .idle), Edge(from: .stalled, to: .paused),
        Edge(from: .idle, to: .refreshing),
    ]

    @Test("random event walks publish only the diagram's edges, and reach every one of them")
    func onlyDiagramEdges() {
        var seen: Set<Edge> = []
        var strays: [String] = []
        for seed in UInt64(1)...100 {
            var random = SeededRandom(seed: seed)
            var machine = RefreshStateMachine()
            var step = machine.handle(.start(sessionRestoring: Bool.random(using: &random)))
            #expect(step.publish == .refreshing)
            var published = RefreshState.refreshing
            var attempting = false
            var waiting = false
            for _ in 0..<100 {
                switch step.next {
                case .attempt: (attempting, waiting) = (true, false)
                case .wait: (attempting, waiting) = (false, true)
                case .waitForSignal: (attempting, waiting) = (false, false)
                case .carryOn: break
                }
                var events: [RefreshStateMachine.Event] = [
                    .networkCameBack, .sessionSettled, .markedStale, .markedStale, .markedStale, .tryNow,
                ]
                if Int.random(in: 0..<20, using: &random) == 0 { events.append(.sessionRestoring) }
                if waiting { events += Array(repeating: .waitElapsed, count: 4) }
                if attempting {
                    let failure = RefreshFailure(TestFailure(name: "f"))
                    events += Array(repeating: .failed(failure, networkKnownDown: false), count: 6)
                    events += [
                        .failed(failure, networkKnownDown: true), .answered(.applied),
                        .answered(.refused(askAgain: true)), .answered(.refused(askAgain: false)),
                        .answered(.emptyButUntrusted),
                    ]
                }
                let event = events.randomElement(using: &random) ?? .networkCameBack
                if case .answered = event { attempting = false }
                if case .failed = event { attempting = false }
                if case .waitElapsed = event { waiting = false }
                step = machine.handle(event)
                if let new = step.publish {
                    let edge = Edge(from: Kind(published), to: Kind(new))
                    if !Self.diagram.contains(edge) { strays.append("seed \(seed): \(published) -> \(new)") }
                    seen.insert(edge)
                    published = new
                }
                if machine.state != published { strays.append("seed \(seed): state \(machine.state)") }
            }
        }
        #expect(strays.isEmpty)
        #expect(seen == Self.diagram)
    }

    @Test("a failure in Stalled keeps the cause and publishes nothing")
    func stalledKeepsCause() {
        var machine = RefreshStateMachine()
        _ = machine.handle(.start(sessionRestoring: false))
        let failures = (1...5).map { RefreshFailure(TestFailure(name: "\($0)")) }
        var steps: [RefreshStateMachine.Step] = []
        for failure in failures {
            steps.append(machine.handle(.failed(failure, networkKnownDown: false)))
            _ = machine.handle(.waitElapsed)
        }
        #expect(steps.map(\.publish) == [nil, nil, nil, .stalled(failures[3]), nil])
        #expect(machine.state == .stalled(failures[3]))
        #expect(
            steps.map(\.next) == [
                .wait(.milliseconds(300)), .wait(.milliseconds(900)), .wait(.milliseconds(2400)),
                .wait(.seconds(5)),
                .wait(.seconds(15)),
            ])
    }

    @Test("Paused ignores the session settling and stale marks: only the network ends it")
    func pausedWaitsForNetworkOnly() {
        var machine = RefreshStateMachine()
        _ = machine.handle(.start(sessionRestoring: false))
        let paused = machine.handle(.failed(RefreshFailure(TestFailure(name: "x")), networkKnownDown: true))
        #expect(paused == .init(publish: .paused, next: .waitForSignal))
        #expect(machine.handle(.sessionSettled) == .init(next: .carryOn))
        #expect(machine.handle(.markedStale) == .init(next: .carryOn))
        #expect(machine.handle(.waitElapsed) == .init(next: .carryOn))
        #expect(machine.handle(.networkCameBack) == .init(publish: .refreshing, next: .attempt))
    }

    @Test("a stale mark during a retry wait changes nothing; in Idle it starts a refresh")
    func staleMarks() {
        var machine = RefreshStateMachine()
        _ = machine.handle(.start(sessionRestoring: false))
        _ = machine.handle(.failed(RefreshFailure(TestFailure(name: "x")), networkKnownDown: false))
        #expect(machine.handle(.markedStale) == .init(next: .carryOn))
        #expect(machine.handle(.waitElapsed) == .init(next: .attempt))
        #expect(machine.handle(.answered(.applied)) == .init(publish: .idle, next: .waitForSignal))
        #expect(machine.handle(.networkCameBack) == .init(next: .carryOn))
        #expect(machine.handle(.sessionSettled) == .init(next: .carryOn))
        #expect(machine.handle(.markedStale) == .init(publish: .refreshing, next: .attempt))
    }

    @Test("a stale mark in Idle while the session restores reads Refreshing and waits for the session")
    func staleMarkWhileRestoring() {
        var machine = RefreshStateMachine()
        #expect(
            machine.handle(.start(sessionRestoring: true))
                == .init(publish: .refreshing, next: .waitForSignal))
        #expect(machine.handle(.networkCameBack) == .init(next: .carryOn))
        #expect(machine.handle(.sessionSettled) == .init(next: .attempt))
        _ = machine.handle(.answered(.applied))
        _ = machine.handle(.sessionRestoring)
        #expect(machine.handle(.markedStale) == .init(publish: .refreshing, next: .waitForSignal))
        #expect(machine.handle(.sessionSettled) == .init(next: .attempt))
    }

    @Test("after a Paused spell the network coming back starts a new row of failures")
    func pauseStartsNewRow() {
        let failure = RefreshFailure(TestFailure(name: "x"))
        var machine = RefreshStateMachine.started(failingInARow: 3, with: failure)
        _ = machine.handle(.failed(failure, networkKnownDown: true))
        _ = machine.handle(.networkCameBack)
        let step = machine.handle(.failed(failure, networkKnownDown: false))
        #expect(step == .init(next: .wait(.milliseconds(300))))
        #expect(machine.state == .refreshing)
    }

    @Test(
        "Paused -> Refreshing: the network comes back while an attempt fails offline; seen first, it is not lost to Paused"
    )
    func networkBackBeforeOfflineFailure() {
        let failure = RefreshFailure(TestFailure(name: "x"))
        var machine = RefreshStateMachine()
        _ = machine.handle(.start(sessionRestoring: false))
        // The attempt saw the network down; its failure reaches the machine after the comeback.
        #expect(machine.handle(.networkCameBack) == .init(next: .carryOn))
        #expect(machine.handle(.failed(failure, networkKnownDown: true)) == .init(next: .attempt))
        #expect(machine.state == .refreshing)
        // Its failure was the network's: the row of failures starts afresh.
        #expect(
            machine.handle(.failed(failure, networkKnownDown: false))
                == .init(next: .wait(.milliseconds(300))))
    }

    @Test("syncNow during an attempt: when that attempt fails, the next one starts at once")
    func tryNowDuringAttempt() {
        let failure = RefreshFailure(TestFailure(name: "x"))
        var machine = RefreshStateMachine.started(failingInARow: 3, with: failure)
        // The app asks while the fourth attempt is in flight; it fails, and stalls.
        #expect(machine.handle(.tryNow) == .init(next: .carryOn))
        #expect(
            machine.handle(.failed(failure, networkKnownDown: false))
                == .init(publish: .stalled(failure), next: .attempt))
        // Only once: the failure after that waits on the schedule again.
        #expect(machine.handle(.failed(failure, networkKnownDown: false)) == .init(next: .wait(.seconds(15))))
    }
}
