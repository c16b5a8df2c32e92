import Streams

/// Throughput of `scan` and `share` against baselines run in the same process.
extension StreamsBenchmark {
    /// A running sum through `scan` against the same sum in a plain loop over the same source.
    static func scanRunningSum() async {
        let count = elementCount
        let (seconds, total) = await measure {
            var last = 0
            let sums = RepeatingSource(count: count).scan(0) { sum, value in
                sum &+= value
                return sum
            }
            for await sum in sums {
                last = sum
            }
            return last
        }
        let (baselineSeconds, baselineTotal) = await measure {
            var sum = 0
            for await value in RepeatingSource(count: count) {
                sum &+= value
            }
            return sum
        }
        report(
            "streams.scan",
            processed: count,
            seconds: seconds,
            baselineSeconds: baselineSeconds,
            extra: [
                ("baseline_kind", "\"plain_loop_same_source\""),
                ("n", "\(count)"),
                ("total", "\(total)"),
                ("count_ok", "\(total == baselineTotal)"),
            ]
        )
    }

    /// One upstream shared by 16 keep-newest readers, against a producer task yielding into 16
    /// `AsyncStream`s buffering the newest element; both count as done when every reader has the
    /// final value and has ended.
    static func share16() async {
        let count = elementCount
        let readers = readerCount
        let final = (count - 1) / 2
        let (seconds, finished) = await measure {
            let shared = RepeatingSource(count: count).share()
            var tasks: [Task<Int?, Never>] = []
            for _ in 0..<readers {
                // Register every reader before any asks, so they all read the same run.
                var iterator = shared.makeAsyncIterator()
                tasks.append(
                    Task {
                        var last: Int?
                        while let value = await iterator.next() {
                            last = value
                        }
                        return last
                    }
                )
            }
            var finished = 0
            for task in tasks where await task.value == final {
                finished += 1
            }
            return finished
        }
        let (baselineSeconds, baselineFinished) = await measure {
            let streams = (0..<readers).map { _ in
                AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
            }
            let tasks = streams.map { stream, _ in
                Task {
                    var last: Int?
                    for await value in stream {
                        last = value
                    }
                    return last
                }
            }
            let producer = Task {
                for await value in RepeatingSource(count: count) {
                    for (_, continuation) in streams {
                        continuation.yield(value)
                    }
                }
                for (_, continuation) in streams {
                    continuation.finish()
                }
            }
            await producer.value
            var finished = 0
            for task in tasks where await task.value == final {
                finished += 1
            }
            return finished
        }
        report(
            "streams.share16",
            processed: count,
            seconds: seconds,
            baselineSeconds: baselineSeconds,
            extra: [
                ("baseline_kind", "\"producer_task_16_asyncstreams_newest1\""),
                ("n", "\(count)"),
                ("readers", "\(readers)"),
                ("readers_with_final", "\(finished)"),
                ("baseline_readers_with_final", "\(baselineFinished)"),
                ("count_ok", "\(finished == readers && baselineFinished == readers)"),
            ]
        )
    }
}
