//! Running the built `trainer-explorer` binary, for every test file of this crate.
#![allow(dead_code)] // each test file uses some of these

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The CLI run with `args`.
pub(crate) fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trainer-explorer")).args(args).output().unwrap()
}

/// The CLI run with `args` and `stdin` piped in.
pub(crate) fn cli_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer-explorer"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A usage error exits before reading stdin: the closed pipe is then expected.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// What the CLI wrote, as text.
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}
