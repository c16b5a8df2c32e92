import Foundation

/// What `swift run Sample` was asked to do.
public enum SampleArguments: Sendable, Equatable {
    /// `--help`.
    case help
    /// No arguments: the scripted story.
    case demo
    /// `--url URL --key KEY [--token JWT] [--table NAME] [--write]`.
    case remote(Remote)
    /// Arguments that make no sense, with why.
    case invalid(String)

    /// A real project to read from.
    public struct Remote: Sendable, Equatable {
        public var url: URL
        public var key: String
        public var token: String?
        public var table = "tasks"
        public var write = false
    }

    public static let usage = """
        Usage: swift run Sample [--help]
               swift run Sample --url URL --key KEY [--token JWT] [--table NAME] [--write]

        With no arguments the sample tells its story: a tasks app against a PostgREST server it
        starts on 127.0.0.1 (in memory), through URLSession, with its store in a temporary
        folder. It goes offline and back, quits and starts again, meets a failing server, a
        refused write and a second user, and prints every snapshot it receives.

        With --url and --key it reads from a real Supabase or PostgREST project instead:
          --url URL     the project URL (https://abc.supabase.co; the REST root is URL/rest/v1)
          --key KEY     the project's anon (publishable) key
          --token JWT   a signed-in user's access token (its `sub` is the user); without it the
                        reads are anonymous, as row-level security allows
          --table NAME  the table to read (default: tasks), 20 rows
          --write       also insert one row {"title": "Written by the OfflineEngine sample"}
                        (nothing is written without it)
        """

    /// Reads the arguments after the program's name.
    public init(_ arguments: some Sequence<String>) {
        var words = Array(arguments)[...]
        guard !words.isEmpty else {
            self = .demo
            return
        }
        var options: [String: String] = [:]
        var write = false
        while let word = words.popFirst() {
            switch word {
            case "--help", "-h":
                self = .help
                return
            case "--write":
                write = true
            case "--url", "--key", "--token", "--table":
                guard let value = words.popFirst(), !value.hasPrefix("--") else {
                    self = .invalid("\(word) needs a value.")
                    return
                }
                options[word] = value
            default:
                self = .invalid("Unknown argument \(word).")
                return
            }
        }
        guard let text = options["--url"], let url = URL(string: text), url.scheme != nil else {
            self = .invalid("--url URL is needed to read from a project (or no arguments, for the story).")
            return
        }
        guard let key = options["--key"] else {
            self = .invalid("--key KEY is needed with --url.")
            return
        }
        var remote = Remote(url: url, key: key, token: options["--token"], write: write)
        if let table = options["--table"] { remote.table = table }
        self = .remote(remote)
    }
}
