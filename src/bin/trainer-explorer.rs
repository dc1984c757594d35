//! `trainer-explorer`: the command-line face of the same core the widget uses.
//! Docs maintainers pre-render static snippets with `export`.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    trainer_v2_explorer::cli::run()
}

// The crate also builds for wasm32 (the widget); there is no CLI there.
#[cfg(target_arch = "wasm32")]
fn main() {}
