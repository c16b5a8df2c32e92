import Testing

@testable import OfflineEngine

@Suite("A queued write's life", .timeLimit(.minutes(10)))
struct WriteLifeTests {
    @Test("a write is sent only once its append committed, and a send begun counts an attempt")
    func storedThenSent() {
        var life = WriteLife()
        #expect(!life.isReadyToSend)
        #expect(life.handle(.stored) == .none)
        #expect(life.isReadyToSend)
        #expect(life.handle(.sendBegan) == .none)
        #expect(life.phase == .inFlight && life.attempts == 1 && life.wasAttempted)
        #expect(!life.isReadyToSend)
    }

    @Test(
        "a send that ends unsettled is queued again; its in-flight mark is cleared unless it may have been applied"
    )
    func sendEnded() {
        var plain = WriteLife.restored(attempts: 0, interrupted: false)
        _ = plain.handle(.sendBegan)
        #expect(plain.handle(.sendEnded(mayHaveBeenApplied: false)) == .clearInFlightMark)
        #expect(plain.phase == .queued && !plain.mayHaveBeenApplied)

        var lost = WriteLife.restored(attempts: 0, interrupted: false)
        _ = lost.handle(.sendBegan)
        #expect(lost.handle(.sendEnded(mayHaveBeenApplied: true)) == .none)
        #expect(lost.mayHaveBeenApplied)
        // Once it may have been applied, it stays so: a later clean failure keeps the mark.
        _ = lost.handle(.sendBegan)
        #expect(lost.handle(.sendEnded(mayHaveBeenApplied: false)) == .none)
        #expect(lost.mayHaveBeenApplied && lost.attempts == 2)
    }

    @Test("a send abandoned before its request left does not count, and keeps an interrupted mark")
    func sendAbandoned() {
        var life = WriteLife.restored(attempts: 2, interrupted: true)
        _ = life.handle(.sendBegan)
        #expect(life.handle(.sendAbandoned) == .none)
        #expect(life.phase == .queued && life.attempts == 2 && life.mayHaveBeenApplied)
    }

    @Test("accepted, rejected and cleared writes are forgotten; nothing happens to a settled write")
    func endings() {
        for ending in [WriteLife.Event.accepted, .rejected, .cleared] {
            var life = WriteLife.restored(attempts: 0, interrupted: false)
            _ = life.handle(.sendBegan)
            #expect(life.handle(ending) == .forget, "\(ending)")
            for later in [WriteLife.Event.sendBegan, .accepted, .rejected, .cleared, .stored] {
                var settled = life
                #expect(settled.handle(later) == .ignore, "\(ending) then \(later)")
                #expect(settled == life)
            }
        }
    }

    @Test("an append that failed drops the write")
    func storeFailed() {
        var life = WriteLife()
        #expect(life.handle(.storeFailed) == .forget)
        #expect(life.phase == .dropped)
        #expect(life.handle(.stored) == .ignore)
    }

    @Test(
        "an event that cannot happen while a write is under way stops a debug build, naming the phase and the event"
    )
    func impossibleEventsTrap() async {
        await #expect(processExitsWith: .failure, "a send begun before the append committed") {
            var life = WriteLife()
            _ = life.handle(.sendBegan)
        }
        await #expect(processExitsWith: .failure, "an answer to a send never begun") {
            var life = WriteLife()
            _ = life.handle(.accepted)
        }
        await #expect(processExitsWith: .failure, "an append committed twice") {
            var life = WriteLife()
            _ = life.handle(.stored)
            _ = life.handle(.stored)
        }
        await #expect(processExitsWith: .failure, "a send begun twice") {
            var life = WriteLife.restored(attempts: 0, interrupted: false)
            _ = life.handle(.sendBegan)
            _ = life.handle(.sendBegan)
        }
        await #expect(processExitsWith: .failure, "a send ended that never began") {
            var life = WriteLife.restored(attempts: 0, interrupted: false)
            _ = life.handle(.sendEnded(mayHaveBeenApplied: false))
        }
    }
}
