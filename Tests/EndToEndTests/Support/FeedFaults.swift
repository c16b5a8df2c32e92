import OfflineEngine
import OfflineEngineTesting
import Synchronization

/// The faults a change feed meets between the server and the app, injected into a feed read
/// from PostgreSQL, chosen by a seeded random source so that a run's choices come back with its
/// seed: a change dropped, sent twice, sent after the one that followed it, sent late (after a
/// few later ones), lost in a disconnect (the feed says `disconnected`, the changes made until
/// it is `subscribed` again never come), or cut short as Realtime cuts an oversized record
/// (only its key, and an `errors` entry).
///
/// A pure state machine: each read of the slot goes in as a batch, the events to deliver come
/// out. An empty batch (the server had nothing new) ends a disconnect and delivers what was
/// held, as a reconnecting, catching-up feed would.
struct FeedFaults: Sendable {
    /// One kind of fault.
    enum Fault: CaseIterable, Sendable {
        case dropped, duplicated, reordered, late, gap, cutShort
    }

    /// The error Realtime puts on a record it cut short.
    static let payloadTooLarge = "Error 413: Payload Too Large"

    private var random: SeededRandom
    /// The share of changes, in percent, that meet a fault.
    let rate: Int
    /// Whether faults are injected; off, changes pass as they come.
    var isOn = true
    /// The changes the feed read from the server.
    private(set) var changes = 0
    /// How many faults were injected, by kind.
    private(set) var counts: [Fault: Int] = [:]
    /// Changes held back to arrive late: how many later changes they wait for.
    private var late: [(wait: Int, change: RowChange)] = []
    /// A change held back to arrive after the next one.
    private var swapped: RowChange?
    /// How many more changes a disconnect loses; `nil` while connected.
    private var gap: Int?

    init(seed: UInt64, rate: Int) {
        random = SeededRandom(seed: seed)
        self.rate = rate
    }

    /// How many faults were injected.
    var total: Int { counts.values.reduce(0, +) }

    /// The events to deliver for one read of the slot.
    mutating func receive(_ batch: [RowChange]) -> [ChangeFeedEvent] {
        guard !batch.isEmpty else { return quiet() }
        return batch.flatMap { receive($0) }
    }

    /// The server had nothing new: a disconnect ends, and what was held arrives.
    mutating func quiet() -> [ChangeFeedEvent] {
        var events: [ChangeFeedEvent] = []
        if gap != nil {
            gap = nil
            events.append(.subscribed)
        }
        events += swapped.map { [.change($0)] } ?? []
        swapped = nil
        events += late.map { .change($0.change) }
        late = []
        return events
    }

    private mutating func receive(_ change: RowChange) -> [ChangeFeedEvent] {
        changes += 1
        if let left = gap {
            // Lost while disconnected; the last one lost ends the disconnect.
            gap = left > 1 ? left - 1 : nil
            return gap == nil ? [.subscribed] : []
        }
        let held = swapped
        swapped = nil
        var events = deliver(change)
        events += held.map { [.change($0)] } ?? []
        late = late.map { ($0.wait - 1, $0.change) }
        events += late.filter { $0.wait <= 0 }.map { .change($0.change) }
        late.removeAll { $0.wait <= 0 }
        return events
    }

    /// One change, with the fault the random source picks for it (or none).
    private mutating func deliver(_ change: RowChange) -> [ChangeFeedEvent] {
        guard isOn, random.chance(rate) else { return [.change(change)] }
        var fault = random.pick(Fault.allCases)
        // A delete carries only its key already; sent twice instead.
        if fault == .cutShort, change.kind == .delete { fault = .duplicated }
        counts[fault, default: 0] += 1
        switch fault {
        case .dropped:
            return []
        case .duplicated:
            return [.change(change), .change(change)]
        case .reordered:
            swapped = change
            return []
        case .late:
            late.append((random.int(in: 2...6), change))
            return []
        case .gap:
            let lost = random.int(in: 0...3)
            gap = lost > 0 ? lost : nil
            return lost > 0 ? [.disconnected] : [.disconnected, .subscribed]
        case .cutShort:
            var cut = change
            cut.record = Row(change.record.values.filter { $0.key == "id" })
            cut.errors = [Self.payloadTooLarge]
            return [.change(cut)]
        }
    }
}

/// A feed from the server with ``FeedFaults`` in its way: the events an app's bridge would send
/// over a bad connection, and what was done to them.
final class FaultyFeed: Sendable {
    private let faults: Mutex<FeedFaults>

    init(seed: UInt64, rate: Int) {
        faults = Mutex(FeedFaults(seed: seed, rate: rate))
    }

    /// The events to hand to ``OfflineClient/follow(changes:tables:schema:)``: `subscribed`
    /// first (the slot exists), then each batch of `batches` through the faults.
    func events(from batches: AsyncStream<[RowChange]>) -> AsyncStream<ChangeFeedEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeFeedEvent.self)
        continuation.yield(.subscribed)
        let forwarding = Task {
            for await batch in batches {
                let events = faults.withLock { $0.receive(batch) }
                for event in events { continuation.yield(event) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return stream
    }

    /// No more faults: later changes pass as they come.
    func heal() { faults.withLock { $0.isOn = false } }

    /// The changes read from the server and the faults injected into them.
    var tally: (changes: Int, faults: Int) { faults.withLock { ($0.changes, $0.total) } }
}
