import Streams
import Synchronization

/// Throughput of the Streams operators against plain `AsyncStream` pipelines in the same process.
enum StreamsBenchmark {
    static let elementCount = 1_000_000
    private static let multicastEventCount = 200_000
    static let readerCount = 16

    /// Runs every streams benchmark and prints one JSON object per line.
    static func run() async {
        await mapDistinct()
        await merge2()
        await multicast16()
        await scanRunningSum()
        await share16()
    }

    /// A non-suspending source yielding `index / 2` for `index` in `0..<count`: each value twice.
    struct RepeatingSource: AsyncSequence, Sendable {
        typealias Element = Int
        typealias Failure = Never

        let count: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            let count: Int
            var index = 0

            mutating func next() async -> Int? {
                await next(isolation: nil)
            }

            mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
                guard index < count else {
                    return nil
                }
                defer { index += 1 }
                return index / 2
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(count: count)
        }
    }

    private static func mapDistinct() async {
        let count = elementCount
        let (seconds, received) = await measure {
            var received = 0
            for await value in RepeatingSource(count: count).mapSync({ $0 &* 3 }).distinct() {
                received &+= value & 1 | 1
            }
            return received
        }
        // Baselines over the same source: the same work in a plain loop, and through a bare
        // `AsyncStream` read in the same task (no producer task on either side).
        let (baselineSeconds, baselineReceived) = await measure {
            var received = 0
            var last: Int?
            for await value in RepeatingSource(count: count) {
                let mapped = value &* 3
                if mapped != last {
                    last = mapped
                    received &+= mapped & 1 | 1
                }
            }
            return received
        }
        let (streamSeconds, streamReceived) = await measure {
            let source = Mutex(RepeatingSource(count: count).makeAsyncIterator())
            let stream = AsyncStream<Int> {
                var iterator = source.withLock { $0 }
                let value = await iterator.next()
                source.withLock { $0 = iterator }
                return value
            }
            var received = 0
            var last: Int?
            for await value in stream {
                let mapped = value &* 3
                if mapped != last {
                    last = mapped
                    received &+= mapped & 1 | 1
                }
            }
            return received
        }
        let streamRate = Double(count) / streamSeconds
        let value = Double(count) / seconds
        report(
            "streams.map_distinct",
            processed: count,
            seconds: seconds,
            baselineSeconds: baselineSeconds,
            extra: [
                ("baseline_kind", "\"plain_loop_over_the_same_source\""),
                ("asyncstream_baseline", "\(Int(streamRate))"),
                ("asyncstream_ratio", "\((value / streamRate * 100).rounded() / 100)"),
                ("n", "\(count)"),
                ("received", "\(received)"),
                ("baseline_received", "\(baselineReceived)"),
                (
                    "count_ok",
                    "\(received == count / 2 && baselineReceived == count / 2 && streamReceived == count / 2)"
                ),
            ]
        )
    }

    private static func merge2() async {
        let half = elementCount / 2
        let (seconds, received) = await measure {
            var received = 0
            do {
                for try await _ in merge(RepeatingSource(count: half), RepeatingSource(count: half)) {
                    received += 1
                }
            } catch {
                return -1
            }
            return received
        }
        let (baselineSeconds, baselineReceived) = await measure {
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let producers = (0..<2).map { _ in
                Task {
                    for await value in RepeatingSource(count: half) {
                        continuation.yield(value)
                    }
                }
            }
            let finisher = Task {
                for producer in producers {
                    await producer.value
                }
                continuation.finish()
            }
            var received = 0
            for await _ in stream {
                received += 1
            }
            await finisher.value
            return received
        }
        report(
            "streams.merge2",
            processed: 2 * half,
            seconds: seconds,
            baselineSeconds: baselineSeconds,
            extra: [
                ("baseline_kind", "\"two_producer_tasks_one_asyncstream\""),
                ("n", "\(2 * half)"),
                ("received", "\(received)"),
                ("baseline_received", "\(baselineReceived)"),
                ("count_ok", "\(received == 2 * half && baselineReceived == 2 * half)"),
            ]
        )
    }

    private static func multicast16() async {
        let count = multicastEventCount
        let readers = readerCount
        let (seconds, received) = await measure {
            let broadcast = EventBroadcast<Int, Never>()
            var tasks: [Task<Int, Never>] = []
            for _ in 0..<readers {
                // Subscribe before sending: the iterator registers the reader when created.
                var iterator = broadcast.events().makeAsyncIterator()
                tasks.append(
                    Task {
                        var received = 0
                        while await iterator.next() != nil {
                            received += 1
                        }
                        return received
                    }
                )
            }
            for value in 0..<count {
                broadcast.send(value)
            }
            broadcast.finish()
            var received = 0
            for task in tasks {
                received += await task.value
            }
            return received
        }
        let (baselineSeconds, baselineReceived) = await measure {
            let streams = (0..<readers).map { _ in AsyncStream.makeStream(of: Int.self) }
            let tasks = streams.map { stream, _ in
                Task {
                    var received = 0
                    for await _ in stream {
                        received += 1
                    }
                    return received
                }
            }
            for value in 0..<count {
                for (_, continuation) in streams {
                    continuation.yield(value)
                }
            }
            for (_, continuation) in streams {
                continuation.finish()
            }
            var received = 0
            for task in tasks {
                received += await task.value
            }
            return received
        }
        report(
            "streams.multicast16",
            processed: count * readers,
            seconds: seconds,
            baselineSeconds: baselineSeconds,
            extra: [
                ("baseline_kind", "\"16_asyncstreams_one_producer_loop\""),
                ("holder", "\"EventBroadcast\""),
                ("n", "\(count)"),
                ("readers", "\(readers)"),
                ("received", "\(received)"),
                ("baseline_received", "\(baselineReceived)"),
                ("count_ok", "\(received == count * readers && baselineReceived == count * readers)"),
            ]
        )
    }

    /// Runs `body` in a detached task (off the main actor) and returns its duration and result.
    static func measure(
        _ body: @escaping @Sendable () async -> Int
    ) async -> (seconds: Double, result: Int) {
        await Task.detached {
            let clock = ContinuousClock()
            let start = clock.now
            let result = await body()
            let duration = start.duration(to: clock.now)
            let seconds =
                Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
            return (seconds, result)
        }.value
    }

    static func report(
        _ name: String,
        processed: Int,
        seconds: Double,
        baselineSeconds: Double,
        extra: [(String, String)]
    ) {
        let value = Double(processed) / seconds
        let baseline = Double(processed) / baselineSeconds
        let ratio = (value / baseline * 100).rounded() / 100
        var fields = [
            "\"bench\":\"\(name)\"",
            "\"value\":\(Int(value))",
            "\"unit\":\"elements/s\"",
            "\"baseline\":\(Int(baseline))",
            "\"ratio\":\(ratio)",
        ]
        fields += extra.map { "\"\($0.0)\":\($0.1)" }
        print("{" + fields.joined(separator: ",") + "}")
    }
}
