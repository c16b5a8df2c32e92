import Foundation
import SampleStory

// `swift run Sample`: the scripted story against a local server; `--url` and `--key` run the
// same reads against a real project (see `--help`).
let arguments = SampleArguments(CommandLine.arguments.dropFirst())
do {
    switch arguments {
    case .help:
        print(SampleArguments.usage)
    case .demo:
        try await DemoStory.run()
    case .remote(let remote):
        try await RemoteRun.run(remote)
    case .invalid(let reason):
        FileHandle.standardError.write(Data((reason + "\n\n" + SampleArguments.usage + "\n").utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("The sample stopped: \(error)\n".utf8))
    exit(1)
}
