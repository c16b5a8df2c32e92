import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the sample writes its lines: standard output, or a test's collector. Headings are bold
/// only on a terminal; piped output has no control codes.
public struct StoryOutput: Sendable {
    private let write: @Sendable (String) -> Void
    private let printed: @Sendable (PrintedBoard) -> Void
    private let styled: Bool

    /// Lines go to `write`; `styled` adds bold headings; `board` is told each task table printed,
    /// with the snapshot it came from.
    public init(
        styled: Bool = false, board: @escaping @Sendable (PrintedBoard) -> Void = { _ in },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.write = write
        self.printed = board
        self.styled = styled
    }

    /// Standard output, styled when it is a terminal.
    public static var standard: StoryOutput {
        StoryOutput(styled: isatty(STDOUT_FILENO) == 1) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    /// A line as it is.
    public func line(_ text: String = "") {
        write(text)
    }

    /// A task table: its lines, printed, and the board told to the collector.
    func board(_ board: PrintedBoard) {
        for line in board.lines { write(line) }
        printed(board)
    }

    /// A phase's heading, on a line of its own after a blank one.
    public func heading(_ text: String) {
        write("")
        write(styled ? "\u{1B}[1m" + text + "\u{1B}[0m" : text)
    }
}
