//! `trainer-explorer`: the command-line face of the same core the widget uses.
//! Docs maintainers pre-render static snippets with `export`.

fn main() -> std::process::ExitCode {
    explorer_cli::cli::run()
}
