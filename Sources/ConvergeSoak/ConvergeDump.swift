import Foundation
import OfflineEngine

/// What a converge client shows once healed: the rows of each of its lists, the writes it
/// holds rejected, and how long it took from the heal to showing the server's answers.
public struct ConvergeDump: Sendable {
    /// One list as the device shows it.
    public struct List: Sendable {
        public var user: String
        public var name: String
        public var rows: [Row]

        public init(user: String, name: String, rows: [Row]) {
            self.user = user
            self.name = name
            self.rows = rows
        }
    }

    public var device: String
    public var lists: [List]
    /// The rejected writes, described (operation, rows, code).
    public var rejected: [String]
    /// Seconds from the heal to every list showing a fresh answer with nothing pending.
    public var healSeconds: Double
    /// Of those, the seconds the queues took to drain.
    public var drainSeconds: Double
    /// The longest time in the heal without progress (a write settled, a list answered).
    public var stallSeconds = 0.0

    public init(device: String, lists: [List], rejected: [String], healSeconds: Double, drainSeconds: Double)
    {
        self.device = device
        self.lists = lists
        self.rejected = rejected
        self.healSeconds = healSeconds
        self.drainSeconds = drainSeconds
    }

    /// The dump as JSON text.
    public var json: String {
        JSONText.string(
            .object([
                "device": .string(device), "healSeconds": .number(JSONNumber(healSeconds)),
                "drainSeconds": .number(JSONNumber(drainSeconds)),
                "stallSeconds": .number(JSONNumber(stallSeconds)),
                "rejected": .array(rejected.map { .string($0) }),
                "lists": .array(
                    lists.map {
                        .object([
                            "user": .string($0.user), "name": .string($0.name),
                            "rows": .array($0.rows.map(\.json)),
                        ])
                    }),
            ]))
    }

    /// The dump `json` holds, or `nil` when it holds none.
    public init?(json: String) {
        guard case .object(let dump)? = try? JSONText.parse(json), case .string(let device)? = dump["device"],
            case .array(let lists)? = dump["lists"], case .array(let rejected)? = dump["rejected"],
            case .number(let seconds)? = dump["healSeconds"], case .number(let drain)? = dump["drainSeconds"],
            case .number(let stall)? = dump["stallSeconds"]
        else { return nil }
        stallSeconds = Double(stall.text) ?? .infinity
        self.device = device
        healSeconds = Double(seconds.text) ?? .infinity
        drainSeconds = Double(drain.text) ?? .infinity
        self.rejected = rejected.compactMap { if case .string(let text) = $0 { text } else { nil } }
        self.lists = lists.compactMap { list in
            guard case .object(let list) = list, case .string(let user)? = list["user"],
                case .string(let name)? = list["name"], case .array(let rows)? = list["rows"]
            else { return nil }
            return List(user: user, name: name, rows: rows.compactMap(Row.init(json:)))
        }
    }
}
