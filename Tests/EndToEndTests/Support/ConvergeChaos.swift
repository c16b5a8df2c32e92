import Foundation
import OfflineEngine
import OfflineEngineTesting

/// The converge soak's chaos: every second or two, one fault among killing a client (SIGKILL)
/// and launching it again, stopping one (SIGSTOP) for 1-5 s, restarting the server (it stops
/// listening for a moment and comes back on the same port with a new connection to
/// PostgreSQL), cutting the next answers mid-body or losing them after the commit, and
/// expiring every token issued so far.
struct ConvergeChaos {
    let processes: [ConvergeProcess]
    let local: LocalHTTPServer
    let gateway: ConvergeGateway

    /// What the chaos did.
    struct Tally: Sendable {
        var kills = 0
        var pauses = 0
        var serverRestarts = 0
        var cuts = 0
        var expiries = 0
    }

    /// Runs faults for `seconds`, then heals: every client resumed, faults off (the server is
    /// listening: a restart ends before the next fault).
    func run(for seconds: Double) async throws -> Tally {
        var tally = Tally()
        var resumes: [(ConvergeProcess, ContinuousClock.Instant)] = []
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(Int.random(in: 700...2_000)))
            let now = ContinuousClock.now
            for (process, at) in resumes where at <= now { process.resume() }
            resumes.removeAll { $0.1 <= now }
            let roll = Int.random(in: 0..<100)
            let running = processes.filter(\.isRunning)
            if roll < 25, let victim = running.randomElement() {
                try await victim.kill()
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...800)))
                try victim.launch()
                tally.kills += 1
            } else if roll < 50, let victim = running.randomElement() {
                victim.pause()
                resumes.append((victim, now + .milliseconds(Int.random(in: 1_000...5_000))))
                tally.pauses += 1
            } else if roll < 65 {
                local.stopAccepting()
                try gateway.restart()
                try await Task.sleep(for: .milliseconds(Int.random(in: 300...2_000)))
                try local.resumeAccepting()
                tally.serverRestarts += 1
            } else if roll < 85 {
                let gateway = gateway
                local.inject(.dropMidBody, times: Int.random(in: 1...3)) { _ in gateway.isFaulty }
                local.inject(.loseAnswer, times: Int.random(in: 1...2)) { _ in gateway.isFaulty }
                tally.cuts += 1
            } else {
                gateway.expireTokens()
                tally.expiries += 1
            }
        }
        for process in processes { process.resume() }
        gateway.heal()
        return tally
    }
}
