// activity-fuzz: runs one fuzz target of ActivityFuzzing — under libFuzzer when built for it, else the mutation fuzzer.
//
//   activity-fuzz <target> [--runs N] [--seed N] [CORPUS_DIR]   (deterministic mutation fuzzer)
//   activity-fuzz <target> [libFuzzer flags] [CORPUS_DIR…]       (built with -DLIBFUZZER, see `make fuzz`)
//   activity-fuzz --list
import ActivityFuzzing
import Foundation

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("activity-fuzz: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--list"] {
    for target in FuzzTarget.all { print(target.name) }
    exit(0)
}
guard let name = arguments.first, let target = FuzzTarget.named(name) else {
    fail("usage: activity-fuzz <\(FuzzTarget.all.map(\.name).joined(separator: "|"))> [options] [corpus]")
}
arguments.removeFirst()

#if LIBFUZZER
/// libFuzzer's entry when the program has its own `main` (compiler-rt's fuzzer_no_main).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target the C callback runs: set once before the driver starts, only read after.
enum Selected {
    nonisolated(unsafe) static var target: FuzzTarget?
}
Selected.target = target
// libFuzzer reads the program name and its own flags: drop the target name.
var cArguments: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
var count = CInt(cArguments.count - 1)
let status = cArguments.withUnsafeMutableBufferPointer { buffer -> CInt in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&count, &argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            _ = try Selected.target!.check(bytes)
        } catch {
            // A crash is how libFuzzer learns of a failure: it saves the input as crash-<sha1>.
            fatalError("\(Selected.target!.name): \(error)")
        }
        return 0
    }
}
exit(status)
#else
var runs = 1_000_000
var seed: UInt64 = 1
var corpusDirectory: String?
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--runs":
        guard let value = arguments.first.flatMap({ Int($0) }), value >= 0 else { fail("--runs needs a count") }
        runs = value
        arguments.removeFirst()
    case "--seed":
        guard let value = arguments.first.flatMap({ UInt64($0) }) else { fail("--seed needs a number") }
        seed = value
        arguments.removeFirst()
    default:
        guard !argument.hasPrefix("-"), corpusDirectory == nil else { fail("unknown option \(argument)") }
        corpusDirectory = argument
    }
}
let seeds = corpusDirectory.map { FuzzCorpus.load(directory: $0).map(\.bytes) } ?? []
let started = Date()
var fuzzer = MutationFuzzer(target: target, seeds: seeds, seed: seed)
let report = fuzzer.run(runs: runs) { report in
    FileHandle.standardError.write(Data("\(target.name): \(report.inputs) inputs, \(report.accepted) accepted\n".utf8))
}
let seconds = Date().timeIntervalSince(started)
if let (input, failure) = report.failure {
    let file = "crash-\(target.name)-seed\(seed)-\(report.inputs)"
    _ = FileManager.default.createFile(atPath: file, contents: Data(input))
    fail("\(target.name): input \(report.inputs) breaks \(failure); saved as \(file)", status: 1)
}
print(
    "\(target.name): \(report.inputs) inputs (\(seeds.count) seeds, seed \(seed)), \(report.accepted) accepted, "
        + String(format: "%.1f s, no failure", seconds))
#endif
