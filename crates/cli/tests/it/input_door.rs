//! Every command that reads files goes through one input door (`pipeline::input`): the same
//! oversize, binary, deep and alias-bomb inputs are refused by each (validate included, in its
//! own report) with the same message, and the size named is the input's real size.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Stdio};

const LIMIT: usize = 4 * 1024 * 1024;
const TRAINJOB: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: door\nspec:\n  \
                        runtimeRef:\n    name: torch-distributed\n";

/// Each command that reads YAML files, in each output format, with the code it exits with on
/// input it cannot read: migrate and upgrade 1; explain 2, as validate (0 admitted, 1 refused,
/// 2 unreadable).
const COMMANDS: &[(&[&str], i32)] = &[
    (&["migrate"], 1),
    (&["migrate", "--format", "json"], 1),
    (&["upgrade", "--from", "v2.0"], 1),
    (&["upgrade", "--from", "v2.0", "--format", "json"], 1),
    (&["explain"], 2),
    (&["explain", "--format", "yaml"], 2),
    (&["explain", "-o", "text"], 2),
];

fn run(args: &[&str], file: &str, stdin: Option<&[u8]>) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer-explorer"))
        .args(args)
        .arg(file)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        // The CLI stops reading past the limit; a closed pipe is then expected.
        let _ = child.stdin.take().unwrap().write_all(bytes);
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Every command exits with its code with exactly `trainer-explorer: <file>: <message>` on stderr.
fn refused_alike(name: &str, input: &[u8], message: &str) {
    let dir = std::env::temp_dir().join(format!("tv2x-door-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, input).unwrap();
    let file = path.to_str().unwrap();
    for &(args, unreadable) in COMMANDS {
        let (code, stdout, stderr) = run(args, file, None);
        assert_eq!(code, Some(unreadable), "{args:?} {name}: {stderr}");
        assert_eq!(stderr, format!("trainer-explorer: {file}: {message}\n"), "{args:?} {name}");
        assert!(stdout.trim() == "[]" || stdout.is_empty(), "{args:?} {name}: {stdout}");
        let (code, _, stderr) = run(args, "-", Some(input));
        assert_eq!(code, Some(unreadable), "{args:?} {name} on stdin: {stderr}");
        assert_eq!(stderr, format!("trainer-explorer: -: {message}\n"), "{args:?} {name} on stdin");
    }
    // validate reports each file it cannot read as one of its results, `FILE: message` on
    // stdout before the summary, and exits 2.
    for (source, stdin) in [(file, None), ("-", Some(input))] {
        let (code, stdout, _) = run(&["validate"], source, stdin);
        assert_eq!(code, Some(2), "validate {name} from {source}: {stdout}");
        assert_eq!(stdout.lines().next(), Some(format!("{source}: {message}").as_str()), "validate {name}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// A TrainJob whose last line sets the trainer's image, padded by a comment to `size` bytes.
fn padded_trainjob(size: usize) -> String {
    let tail = "  trainer:\n    image: mine:1\n";
    let pad = size - TRAINJOB.len() - tail.len() - 2;
    format!("{TRAINJOB}#{}\n{tail}", "x".repeat(pad))
}

#[test]
fn input_over_the_limit_is_refused_by_every_command_naming_its_real_size() {
    // 37 bytes over: explain used to cut it at the limit and explain the runtime's image.
    let over = padded_trainjob(LIMIT + 37);
    refused_alike(
        "over",
        over.as_bytes(),
        &format!("input is {} bytes; the limit is {LIMIT} bytes (split the file)", LIMIT + 37),
    );
    // 5 MB: the size named is the file's, not what was read of it.
    let big = padded_trainjob(5_000_000);
    refused_alike(
        "big",
        big.as_bytes(),
        &format!("input is 5000000 bytes; the limit is {LIMIT} bytes (split the file)"),
    );
}

#[test]
fn a_character_cut_by_the_limit_is_not_called_binary() {
    // Valid UTF-8 whose byte LIMIT falls inside a two-byte character.
    let text = format!("ab: \"{}\"\n", "é".repeat(LIMIT / 2));
    assert!(!text.is_char_boundary(LIMIT));
    refused_alike(
        "cut",
        text.as_bytes(),
        &format!("input is {} bytes; the limit is {LIMIT} bytes (split the file)", text.len()),
    );
}

#[test]
fn bytes_that_are_not_utf8_are_found_on_the_whole_input() {
    let mut bytes = TRAINJOB.as_bytes().to_vec();
    bytes.extend_from_slice(b"x: \"ok\"\ny: \"\xff\"\n");
    let at = TRAINJOB.len() + 12;
    refused_alike(
        "binary",
        &bytes,
        &format!("binary data at line 9 column 5 (byte {at} is not UTF-8): expected YAML text"),
    );
}

#[test]
fn deep_flow_nesting_is_refused_by_every_command_before_parsing() {
    let depth = 100_000;
    let deep = format!("{TRAINJOB}x: {}{}\n", "[".repeat(depth), "]".repeat(depth));
    refused_alike("deep", deep.as_bytes(), "nesting deeper than 64 levels at line 8 column 68");
}

#[test]
fn a_flat_alias_bomb_is_refused_by_every_command() {
    // One list of 10,000 items repeated by 10,000 aliases: 50 KB standing for 100 million values.
    let list = vec!["1"; 10_000].join(",");
    let aliases = vec!["*a"; 10_000].join(",");
    let bomb = format!("{TRAINJOB}a: &a [{list}]\nb: [{aliases}]\n");
    // Its 50 KB may read as a value per 10 bytes plus 1,024 values, and its size plus 8 Ki characters.
    let values = bomb.len() / 10 + 1024;
    let characters = bomb.len() + 8192;
    refused_alike(
        "bomb",
        bomb.as_bytes(),
        &format!(
            "document 1 (line 1) reads as more than the input limit holds: aliases (*name) count as what they \
             repeat, and an input of {} bytes may read as at most {values} values and {characters} characters (a \
             value per 10 bytes plus 1024, and its size plus 8192 characters): write the repeated parts out, or split \
             it into smaller documents",
            bomb.len()
        ),
    );
}

#[test]
fn a_document_after_an_empty_one_is_read_by_every_command() {
    // An empty document (`---` alone, or comments) is skipped, and what follows it is read, as
    // kubectl reads a stream: before, the door stopped there and every later document was
    // dropped without a word (exit 0).
    let after = TRAINJOB.replace("name: door", "name: after-the-gap");
    for gap in ["---\n", "---\n# nothing here\n"] {
        let text = format!("{TRAINJOB}{gap}---\n{after}");
        let dir = std::env::temp_dir().join(format!("tv2x-door-{}-gap", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("gap.yaml");
        std::fs::write(&path, &text).unwrap();
        let file = path.to_str().unwrap();
        let validate_json: &[(&[&str], i32)] = &[(&["validate", "-o", "json"], 0)];
        for &(args, _) in COMMANDS.iter().chain(validate_json) {
            let (code, stdout, stderr) = run(args, file, None);
            assert!(code.is_some(), "{args:?}: {stderr}");
            for name in ["door", "after-the-gap"] {
                assert!(
                    stdout.contains(name) || stderr.contains(name),
                    "{args:?} {gap:?}: {name} missing\n{stdout}\n{stderr}"
                );
            }
        }
        // validate's text names only what it finds wrong; its summary counts both.
        let (_, stdout, _) = run(&["validate"], file, None);
        assert!(stdout.contains("Summary: 2 resources found in 1 file"), "validate {gap:?}: {stdout}");
        std::fs::remove_dir_all(dir).ok();
    }
}

/// A path that is no regular file (here `/dev/stdin`, a pipe, as `<(…)` gives) is answered as the
/// same text in a file is: the door hands a file's text back unread when only the whole text
/// reads its document (a local tag, a syntax error), and a pipe read again holds nothing more.
#[test]
fn a_pipe_named_as_a_file_is_answered_as_the_file_is() {
    let dir = std::env::temp_dir().join(format!("tv2x-door-{}-pipe", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let local_tag = TRAINJOB.replace("name: door", "name: !mine door");
    for (name, text) in
        [("local-tag", local_tag.as_str()), ("syntax-error", "kind: [TrainJob\n"), ("trainjob", TRAINJOB)]
    {
        let path = dir.join(format!("{name}.yaml"));
        std::fs::write(&path, text).unwrap();
        let file = path.to_str().unwrap();
        let validate: &[(&[&str], i32)] = &[(&["validate"], 0), (&["validate", "-o", "json"], 0)];
        for &(args, _) in COMMANDS.iter().chain(validate) {
            let (code, stdout, stderr) = run(args, file, None);
            let (pipe_code, pipe_stdout, pipe_stderr) = run(args, "/dev/stdin", Some(text.as_bytes()));
            let named = |s: String| s.replace("/dev/stdin", file);
            assert_eq!(
                (pipe_code, named(pipe_stdout), named(pipe_stderr)),
                (code, stdout, stderr),
                "{args:?} {name}: the pipe's answer, then the file's"
            );
        }
    }
    std::fs::remove_dir_all(dir).ok();
}
