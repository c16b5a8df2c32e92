import Foundation
import OfflineEngineTesting
import Synchronization

@testable import OfflineEngine

/// Holds the first GET with the rows the server held when it arrived, until the test opens the
/// gate: an answer that left before whatever the test does meanwhile.
func holdFirstRead(_ fixture: ClientFixture, gate: Gate) {
    let held = Mutex(false)
    let server = fixture.server
    fixture.probe.answer { request in
        guard request.method == .get,
            held.withLock({ was in
                defer { was = true }
                return !was
            })
        else {
            return nil
        }
        let rows = await server.rows(of: "tasks")
        await gate.wait()
        return jsonResponse(rows)
    }
}
