import ArgumentParser
import Comet
import Foundation

/// The `comet` command-line tool.
@main
struct CometCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comet",
        abstract: "Comet, an image pipeline for Swift on Linux.",
        subcommands: [DemoCommand.self, FetchCommand.self, CacheCommand.self, InfoCommand.self]
    )
}
