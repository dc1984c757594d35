//! Properties of the one input door (`pipeline::input`) for the five classes of issue 36, for any
//! input of each class, not just the examples: deep nesting, aliases past the value budget, size
//! and UTF-8 judged on the whole input, and control characters shown, not obeyed. migrate,
//! upgrade and explain give the same answer for each, since they read through the same door.
#![cfg(not(target_arch = "wasm32"))]

use explorer_core::pipeline::input::{self, MAX_DEPTH, MAX_INPUT_BYTES};
use explorer_core::terminal;
use explorer_data::releases::{NEWEST, RELEASES};
use proptest::prelude::*;

const TRAINJOB: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: p\nspec:\n  \
                        runtimeRef:\n    name: torch-distributed\n";

/// What each command says of `text` when the input as a whole is refused (None when it is read).
fn refusals(text: &str) -> [Option<String>; 3] {
    [
        explorer_core::migrate::migrate_to(text, NEWEST).err().map(|e| e.to_string()),
        explorer_core::upgrade::upgrade(text, RELEASES[0], NEWEST).err().map(|e| e.to_string()),
        explorer_core::explain::read::trees(text).err().map(|e| e.to_string()),
    ]
}

fn same_refusal(text: &str) -> Option<String> {
    let [migrate, upgrade, explain] = refusals(text);
    assert_eq!(migrate, upgrade, "migrate and upgrade differ");
    assert_eq!(migrate, explain, "migrate and explain differ");
    migrate
}

/// Any character: mostly ordinary, often a control or bidirectional one.
fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => proptest::char::range(' ', '~'),
        1 => proptest::char::range('\u{0}', '\u{1f}'),
        1 => Just('\u{7f}'),
        1 => proptest::char::range('\u{80}', '\u{9f}'),
        1 => proptest::char::range('\u{202a}', '\u{202e}'),
        1 => proptest::char::range('\u{2066}', '\u{2069}'),
        1 => any::<char>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Flow or block nesting past the limit is refused by every command with the same message
    /// naming the line; up to the limit, nesting is never the reason.
    #[test]
    fn nesting_is_judged_alike_by_every_command(depth in 1usize..400, flow in any::<bool>()) {
        let nested = if flow {
            format!("x: {}{}\n", "[".repeat(depth), "]".repeat(depth))
        } else {
            format!("x:\n{}", (1..=depth).map(|d| format!("{}k{d}:\n", "  ".repeat(d))).collect::<String>())
        };
        let refusal = same_refusal(&format!("{TRAINJOB}{nested}"));
        let too_deep = refusal.as_deref().is_some_and(|e| e.starts_with(&format!("nesting deeper than {MAX_DEPTH} levels at line ")));
        prop_assert_eq!(too_deep, depth > MAX_DEPTH, "{:?}", refusal);
    }

    /// Past the limit, bytes are refused by their whole size, whatever the last character is,
    /// never called binary; under it, a byte that is not UTF-8 is found where it is.
    #[test]
    fn size_and_utf8_are_judged_on_the_whole_input(over in 1usize..8, wide in "[é中😀a]", bad_at in 0usize..200) {
        // One byte short of the limit, then characters: a wide one straddles the limit.
        let mut big = "x".repeat(MAX_INPUT_BYTES - 1).into_bytes();
        big.extend(format!("{}é", wide.repeat(over)).bytes());
        prop_assert_eq!(input::text_of(&big).unwrap_err(), input::too_large(big.len() as u64));
        let mut bytes = format!("{TRAINJOB}{}", "k: v\n".repeat(40)).into_bytes();
        let at = TRAINJOB.len() + bad_at;
        bytes[at] = 0xff;
        let error = input::text_of(&bytes).unwrap_err();
        prop_assert!(matches!(error, input::InputError::NotUtf8 { byte, .. } if byte == at), "{:?}", error);
        prop_assert!(error.to_string().contains(&format!("(byte {at} is not UTF-8)")), "{}", error);
    }

    /// Any name, written with YAML's escapes: what migrate, upgrade and explain would print
    /// holds no hidden character once escaped for the terminal, and JSON holds none at all yet
    /// reads back as the name.
    #[test]
    fn control_characters_are_never_printed_raw(name in proptest::collection::vec(any_char(), 1..24)) {
        let name: String = name.into_iter().collect();
        let quoted = serde_json::to_string(&name).unwrap();
        let v1 = format!(
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: {quoted}\nspec:\n  pytorchReplicaSpecs:\n    \
             Worker:\n      template: {{spec: {{containers: [{{name: pytorch, image: 'a:1', args: [{quoted}]}}]}}}}\n"
        );
        if let Ok(m) = explorer_core::migrate::migrate_to(&v1, NEWEST) {
            prop_assert!(!m.output_yaml().chars().any(terminal::is_hidden));
            let report = m.report_text() + &m.failures().join("\n");
            prop_assert!(!terminal::escape(&report).chars().any(terminal::is_hidden));
        }
        let json = terminal::json_pretty(&serde_json::json!({ "name": name })).unwrap();
        prop_assert!(!json.chars().any(terminal::is_hidden));
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back["name"].as_str(), Some(name.as_str()));
        let shown = terminal::escape(&name);
        prop_assert!(!shown.chars().any(terminal::is_hidden));
        prop_assert_eq!(shown == name, !name.chars().any(terminal::is_hidden));
    }
}

proptest! {
    // Each case reads at most the budget of a file under 2 KB (about 1,200 values) three times.
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// n aliases of a list of m values: read when the values fit the budget of a file that size
    /// (`input::read_budget`), refused by every command with the same message when they do not.
    #[test]
    fn aliases_are_counted_as_what_they_repeat(n in 1usize..80, m in 1usize..80) {
        let text = format!(
            "{TRAINJOB}a: &a [{}]\nx: [{}]\n",
            vec!["1"; m].join(","),
            vec!["*a"; n].join(",")
        );
        let refusal = same_refusal(&text);
        let values = n * m + m + n + 20;
        let (allowed, _) = input::read_budget(text.len());
        if values < allowed - 100 {
            prop_assert!(refusal.is_none(), "{} values: {:?}", values, refusal);
        } else if n * m > allowed {
            prop_assert!(refusal.as_deref().is_some_and(|e| e.contains("reads as more than the input limit holds")), "{:?}", refusal);
        }
    }
}
