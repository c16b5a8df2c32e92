extension Replayer {
    /// Sends the batches of a run with the requests of different tables overlapping
    /// (``ReplayBatching/tablesInFlight``): each table's batches go one after another in queue
    /// order, and up to the cap of tables send at once, the tables taken in the order of their
    /// first write. A table that stops keeps its later batches queued; one that stops the pass
    /// (a transient failure, no token) lets the others finish the request they have in flight
    /// and start no other.
    func sendOverlapping(_ batches: [ReplayBatch], sending: ReplaySending) async -> ReplayPassEnd? {
        let order = ReplayOrder(batches: batches.count)
        var tables: [TableID: Int] = [:]
        var lanes: [[Int]] = []
        for (index, batch) in batches.enumerated() {
            let table = TableID(batch.writes[0].mutation)
            if let lane = tables[table] {
                lanes[lane].append(index)
            } else {
                tables[table] = lanes.count
                lanes.append([index])
            }
        }
        let lane = ReplaySending(run: sending.run, accepted: sending.accepted, order: order)
        await withTaskGroup(of: Void.self) { group in
            var started = 0
            for indices in lanes.prefix(batching.tablesInFlight) {
                group.addTask { await send(indices, of: batches, sending: lane, order: order) }
                started += 1
            }
            while await group.next() != nil, started < lanes.count {
                let indices = lanes[started]
                group.addTask { await send(indices, of: batches, sending: lane, order: order) }
                started += 1
            }
        }
        return order.end
    }

    /// Sends one table's batches of a run in order, until one stops it or another table stops
    /// the pass; the batches not sent stay queued.
    private func send(
        _ indices: [Int], of batches: [ReplayBatch], sending: ReplaySending, order: ReplayOrder
    ) async {
        for (position, index) in indices.enumerated() {
            if order.isStopped {
                await ReplayEvents.abandonSends(indices[position...].flatMap { batches[$0].ids }, in: state)
                return
            }
            var batch = sending
            batch.index = index
            switch await send(batches[index], sending: batch) {
            case .settled:
                order.settle(index)
            case .stop(let reason):
                if let reason { order.stop(for: reason) }
                await ReplayEvents.abandonSends(
                    indices[(position + 1)...].flatMap { batches[$0].ids }, in: state)
                return
            }
        }
    }
}
