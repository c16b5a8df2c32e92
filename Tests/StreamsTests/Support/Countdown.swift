/// Lets tasks wait until a number of participants have arrived; arrivals past the count are
/// fine. It is a `LiveCounter` started at the count, each arrival one iterator going away.
final class Countdown: Sendable {
    private let remaining = LiveCounter()

    init(_ count: Int) {
        for _ in 0..<count {
            remaining.increment()
        }
    }

    func arrive() {
        remaining.decrement()
    }

    func wait() async {
        await remaining.waitUntilZero()
    }
}
