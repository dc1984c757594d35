//! Worst-case inputs for the migrator, each just under the 4 MiB input limit: the shapes that
//! find super-linear code (one huge map, many documents, long strings, the deepest nesting
//! allowed, long lists, aliases). Shared by `crates/migrate-wasm/tests/migrate_shapes.rs`, which checks what each
//! converts to, and `examples/migrate_throughput.rs`, which times them for `make bench`.
#![allow(dead_code)]

use std::fmt::Write;

/// How large a generated input gets: the input limit, less room for the last piece added.
pub(crate) const TARGET_BYTES: usize = 4 * 1024 * 1024 - 4096;

pub(crate) struct Shape {
    /// A file name: `many-labels`.
    pub name: &'static str,
    /// What the input is, for the benchmark table.
    pub what: &'static str,
    pub text: String,
    /// How many of the repeated things the input holds (labels, documents, items…).
    pub count: usize,
}

/// A PyTorchJob with one Worker; `meta`, `container` and `pod` are YAML lines inserted (already
/// indented) into the metadata, the container and the pod spec.
pub(crate) fn job(name: &str, meta: &str, container: &str, pod: &str) -> String {
    format!(
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: {name}\n{meta}spec:\n  pytorchReplicaSpecs:\n    \
         Worker:\n      replicas: 2\n      template:\n        spec:\n{pod}          containers:\n            - name: pytorch\n              \
         image: pytorch/pytorch:2.5.1\n{container}"
    )
}

/// Lines from `line(i)` for i = 0, 1, … until `budget` bytes are used up.
fn fill(budget: usize, line: impl Fn(usize) -> String) -> (String, usize) {
    let mut out = String::new();
    let mut n = 0;
    loop {
        let next = line(n);
        if out.len() + next.len() > budget {
            return (out, n);
        }
        out.push_str(&next);
        n += 1;
    }
}

fn room(frame: &str) -> usize {
    TARGET_BYTES - frame.len()
}

/// One job with as many labels as fit: one map of about 250,000 keys.
pub(crate) fn many_labels() -> Shape {
    let (labels, count) = fill(room(&job("many-labels", "  labels:\n", "", "")), |i| format!("    l{i}: v{i}\n"));
    let text = job("many-labels", &format!("  labels:\n{labels}"), "", "");
    Shape { name: "many-labels", what: "one job, one labels map of many keys", text, count }
}

/// One job whose pod template's `nodeSelector` has as many keys as fit (a pod setting that moves
/// to a runtime patch).
pub(crate) fn many_selector_keys() -> Shape {
    let frame = job("many-selector-keys", "", "", "          nodeSelector:\n");
    let (keys, count) = fill(room(&frame), |i| format!("            k{i}: v{i}\n"));
    let text = job("many-selector-keys", "", "", &format!("          nodeSelector:\n{keys}"));
    Shape { name: "many-selector-keys", what: "one job, one nodeSelector of many keys", text, count }
}

/// The most documents allowed, each a small job, padded to fill the input.
pub(crate) fn many_documents() -> Shape {
    let count = 10_000;
    let bare = job("many-documents-0000", "", "              command: [\"\"]\n", "").len() + 5;
    let pad = "x".repeat(TARGET_BYTES / count - bare);
    let mut text = String::new();
    for i in 0..count {
        text.push_str(&job(
            &format!("many-documents-{i:04}"),
            "",
            &format!("              command: [\"{pad}\"]\n"),
            "",
        ));
        text.push_str("---\n");
    }
    Shape { name: "many-documents", what: "10,000 jobs (the most allowed)", text, count }
}

/// Tiny documents far beyond the limit on their number: refused.
pub(crate) fn too_many_documents() -> Shape {
    let (text, count) = fill(TARGET_BYTES, |i| format!("---\nd: {i}\n"));
    Shape { name: "too-many-documents", what: "tiny documents, far more than 10,000 (refused)", text, count }
}

/// One container argument as long as the input allows.
pub(crate) fn long_string() -> Shape {
    let frame = job("long-string", "", "              args: [\"\"]\n", "");
    let count = room(&frame);
    let text = job("long-string", "", &format!("              args: [\"{}\"]\n", long_text(count)), "");
    Shape { name: "long-string", what: "one job, one 4 MB argument", text, count }
}

/// Printable text with no YAML meaning, `n` bytes long.
pub(crate) fn long_text(n: usize) -> String {
    "abcdefghij0123456789 ".chars().cycle().take(n).collect()
}

/// One annotation holding a block of many lines (a script pasted into a manifest).
pub(crate) fn long_block() -> Shape {
    let frame = job("long-block", "  annotations:\n    script: |\n", "", "");
    let (body, count) = fill(room(&frame), |i| format!("      echo step {i}\n"));
    let text = job("long-block", &format!("  annotations:\n    script: |\n{body}"), "", "");
    Shape { name: "long-block", what: "one job, one annotation of many lines", text, count }
}

/// How deep `deep_nesting` goes: the deepest `input::MAX_DEPTH` allows.
pub(crate) const DEEPEST: usize = 64;

/// A custom object (passed through unchanged) nested as deep as allowed, again and again: block
/// maps `DEEPEST` levels deep, then flow lists as deep, side by side until the input is full.
pub(crate) fn deep_nesting() -> Shape {
    let head = "apiVersion: example.com/v1\nkind: DeepThing\nmetadata:\n  name: deep-nesting\nspec:\n";
    let tree = |i: usize| {
        let mut t = String::new();
        // Keys at indent 0 (`spec`), 2 (the branch), 4, … down to the leaf at 2 × DEEPEST.
        writeln!(t, "  b{i}:").unwrap();
        for level in 3..=DEEPEST {
            writeln!(t, "{}d{level}:", "  ".repeat(level - 1)).unwrap();
        }
        writeln!(t, "{}leaf: {i}", "  ".repeat(DEEPEST)).unwrap();
        writeln!(t, "  f{i}: {}{i}{}", "[".repeat(DEEPEST), "]".repeat(DEEPEST)).unwrap();
        t
    };
    let (body, count) = fill(TARGET_BYTES - head.len(), tree);
    Shape {
        name: "deep-nesting",
        what: "block and flow nesting 64 levels deep, repeated",
        text: format!("{head}{body}"),
        count,
    }
}

/// One level deeper than allowed: refused.
pub(crate) fn too_deep() -> Shape {
    let mut text = String::from("apiVersion: example.com/v1\nkind: DeepThing\nspec:\n");
    for level in 2..=DEEPEST + 2 {
        writeln!(text, "{}d{level}:", "  ".repeat(level - 1)).unwrap();
    }
    Shape { name: "too-deep", what: "block nesting one level deeper than allowed (refused)", text, count: DEEPEST + 2 }
}

/// One container with as many arguments as fit.
pub(crate) fn many_items() -> Shape {
    let frame = job("many-items", "", "              args:\n", "");
    let (items, count) = fill(room(&frame), |i| format!("                - a{i}\n"));
    let text = job("many-items", "", &format!("              args:\n{items}"), "");
    Shape { name: "many-items", what: "one job, one list of many arguments", text, count }
}

/// One container with as many environment variables as fit (a list of maps).
pub(crate) fn many_env() -> Shape {
    let frame = job("many-env", "", "              env:\n", "");
    let (items, count) =
        fill(room(&frame), |i| format!("                - name: E{i}\n                  value: v{i}\n"));
    let text = job("many-env", "", &format!("              env:\n{items}"), "");
    Shape { name: "many-env", what: "one job, one env list of many variables", text, count }
}

/// A Master and a Worker sharing one long argument list through an anchor and an alias, as
/// people write to keep two replicas alike: converts, the list read twice.
pub(crate) fn shared_by_alias() -> Shape {
    let master = |items: &str| {
        format!(
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: shared-by-alias\nspec:\n  pytorchReplicaSpecs:\n    \
             Master:\n      replicas: 1\n      template: &pod\n        spec:\n          containers:\n            - name: pytorch\n              \
             image: pytorch/pytorch:2.5.1\n              args:\n{items}    Worker:\n      replicas: 2\n      template: *pod\n"
        )
    };
    // Read twice, so half the room (and the budget) for the list.
    let (items, count) = fill(room(&master("")) / 2, |i| format!("                - a{i}\n"));
    Shape {
        name: "shared-by-alias",
        what: "Master and Worker share a pod template by alias",
        text: master(&items),
        count,
    }
}

/// The "billion laughs": each level aliases the one before ten times. Refused.
pub(crate) fn alias_bomb() -> Shape {
    let mut text =
        String::from("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: alias-bomb\nl0: &l0 [lol]\n");
    for level in 1..=9 {
        let refs = vec![format!("*l{}", level - 1); 10].join(", ");
        writeln!(text, "l{level}: &l{level} [{refs}]").unwrap();
    }
    text.push_str("spec: *l9\n");
    Shape { name: "alias-bomb", what: "aliases nested 9 levels, 10 each (refused)", text, count: 9 }
}

/// One large anchored list named by an alias again and again: few jumps, huge expansion.
/// Refused.
pub(crate) fn alias_fan_out() -> Shape {
    let head = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alias-fan-out\nbig: &big\n";
    let (items, _) = fill(TARGET_BYTES / 2, |i| format!("  - item{i}\n"));
    let (refs, count) = fill(TARGET_BYTES / 2 - head.len() - 8, |_| "  - *big\n".to_string());
    Shape {
        name: "alias-fan-out",
        what: "a 2 MB anchored list, then aliases of it filling 2 MB (refused)",
        text: format!("{head}{items}copies:\n{refs}"),
        count,
    }
}

/// A TrainJob with an extra field `x`: `n` aliases of one anchored list of `n` numbers, so it
/// reads as n × n values from a few kilobytes (what a command keeps in memory grows with the
/// values, not the bytes).
pub(crate) fn aliased_square(name: &'static str, what: &'static str, n: usize) -> Shape {
    let list = vec!["1"; n].join(",");
    let aliases = vec!["*a"; n].join(",");
    let text = format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: {name}\nspec:\n  runtimeRef:\n    \
         name: torch-distributed\na: &a [{list}]\nx: [{aliases}]\n"
    );
    Shape { name, what, text, count: n }
}

/// The most aliased values the input door takes from a file this small: n aliases of a list of n,
/// n the largest whose n × n values fit the budget of its few hundred bytes
/// (`input::read_budget`: a value per 10 bytes plus 1,024; 31, so 1,033 values from 312 bytes).
pub(crate) fn aliases_at_the_limit() -> Shape {
    let fits = |shape: &Shape| {
        let values = shape.count * shape.count + 2 * shape.count + 10;
        values <= explorer_core::pipeline::input::read_budget(shape.text.len()).0
    };
    let square = |n| aliased_square("aliases-at-the-limit", "n aliases of a list of n numbers, the most accepted", n);
    let n = (1..).take_while(|&n| fits(&square(n))).last().unwrap_or(1);
    square(n)
}

/// 2,000 aliases of a list of 2,000: 4 million values from 10 KB (refused; it used to be
/// accepted, at a gigabyte of memory).
pub(crate) fn aliases_past_the_limit() -> Shape {
    aliased_square("aliases-past-the-limit", "2,000 aliases of a list of 2,000 numbers (refused)", 2000)
}

/// A TrainJob with an extra field holding a flow list of `n` numbers: the most values per byte
/// plain YAML has (two bytes each).
fn dense(name: &'static str, what: &'static str, n: usize) -> Shape {
    let text = format!("{}x: [{}]\n", dense_head(name), vec!["1"; n].join(","));
    Shape { name, what, text, count: n }
}

fn dense_head(name: &str) -> String {
    format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: {name}\nspec:\n  runtimeRef:\n    \
         name: torch-distributed\n"
    )
}

/// The values `dense_padded`'s frame reads as beside its list's numbers: the job's map, its
/// apiVersion, kind, metadata, name, spec, runtimeRef and runtime name, the list and the padding.
const DENSE_FRAME_VALUES: usize = 10;

/// An input of `TARGET_BYTES` holding as many values as its budget allows, and `extra` more: a
/// flow list of numbers (two bytes a value), then a string as long as the rest (a string costs
/// a byte of memory a byte, a value about 200).
fn dense_padded(name: &'static str, what: &'static str, extra: usize) -> Shape {
    let n = explorer_core::pipeline::input::read_budget(TARGET_BYTES).0 - DENSE_FRAME_VALUES + extra;
    let head = format!("{}x: [{}]\npad: \"", dense_head(name), vec!["1"; n].join(","));
    let text = format!("{head}{}\"\n", long_text(TARGET_BYTES - head.len() - 2));
    Shape { name, what, text, count: n }
}

/// As many values as an input at the limit may read as, written out: an 840 KB flow list of
/// 420,034 numbers and a 3.3 MB string.
pub(crate) fn dense_at_the_limit() -> Shape {
    dense_padded(
        "dense-at-the-limit",
        "a flow list of 420,034 numbers and a 3.3 MB string, the most values accepted",
        0,
    )
}

/// The same size with one value more: refused.
pub(crate) fn dense_over_the_limit() -> Shape {
    dense_padded("dense-over-the-limit", "one value more than dense-at-the-limit, the same size (refused)", 1)
}

/// A 1 MB flow list of 520,000 numbers: refused (2 bytes a value; it was accepted, at 100-125
/// MiB, when the budget was the input's size plus 64 Ki values).
pub(crate) fn dense_list() -> Shape {
    dense("dense-list", "a 1 MB flow list of 520,000 numbers (refused)", 520_000)
}

/// 4 MiB of a flow list of numbers: two million values (refused: more values than the limit).
pub(crate) fn dense_past_the_limit() -> Shape {
    dense("dense-past-the-limit", "a 4 MiB flow list of 2 million numbers (refused)", (TARGET_BYTES - 200) / 2)
}

pub(crate) fn all() -> Vec<Shape> {
    vec![
        many_labels(),
        many_selector_keys(),
        many_documents(),
        too_many_documents(),
        long_string(),
        long_block(),
        deep_nesting(),
        too_deep(),
        many_items(),
        many_env(),
        shared_by_alias(),
        alias_bomb(),
        alias_fan_out(),
        aliases_at_the_limit(),
        aliases_past_the_limit(),
        dense_at_the_limit(),
        dense_over_the_limit(),
        dense_list(),
        dense_past_the_limit(),
    ]
}
