//! The input door handed on one document at a time (`pipeline::input::each_document` and
//! `accept`, what the CLI's explain, validate and migrate read through) answers as the door that
//! reads every document at once (`documents`): the same documents, and the same refusal of the
//! whole input, given before any document, even when what is refused comes after thousands of
//! documents, whether the door reads the input through first (in outline) or its text proves
//! that nothing is refused (`pipeline/unrefusable.rs`).
#![cfg(not(target_arch = "wasm32"))]

use explorer_core::pipeline::input::{self, InputError, RawDoc, MAX_DOCUMENTS};

/// Each document as (position, line, its tree or error written out), so two reads compare.
fn written(docs: impl IntoIterator<Item = RawDoc>) -> Vec<(usize, usize, String)> {
    docs.into_iter().map(|d| (d.index, d.line, format!("{:?}", d.value))).collect()
}

fn each(text: &str) -> Result<Vec<(usize, usize, String)>, InputError> {
    input::each_document(text).map(written)
}

fn all(text: &str) -> Result<Vec<(usize, usize, String)>, InputError> {
    input::documents(text).map(written)
}

/// What a caller may read of a document's outline: a mapping's own members, each list or map
/// among them empty; a list, empty; a scalar.
fn outline_of(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    let hollow = |v: &Value| match v {
        Value::Object(_) => Value::Object(serde_json::Map::new()),
        Value::Array(_) => Value::Array(Vec::new()),
        v => v.clone(),
    };
    match value {
        Value::Object(members) => Value::Object(members.iter().map(|(k, v)| (k.clone(), hollow(v))).collect()),
        v => hollow(v),
    }
}

type Outlined = (Vec<(usize, usize, String)>, Vec<(usize, usize, String)>);

/// Each document's outline as `accept` hands it on, then its documents.
fn outlined(text: &str) -> Result<Outlined, InputError> {
    let mut outlines = Vec::new();
    let accepted = input::accept(text, |d| {
        outlines.push((d.index, d.line, format!("{:?}", d.value.as_ref().map(outline_of))));
    })?;
    Ok((outlines, written(accepted.documents(text))))
}

/// Each document `documents` reads, in outline, then in whole.
fn all_outlined(text: &str) -> Result<Outlined, InputError> {
    let docs = input::documents(text)?;
    let outlines = docs.iter().map(|d| (d.index, d.line, format!("{:?}", d.value.as_ref().map(outline_of)))).collect();
    Ok((outlines, written(docs)))
}

const JOB: &str = "kind: TrainJob\nmetadata:\n  name: j\n";

#[test]
fn each_document_refuses_a_late_refusal_before_any_document() {
    // The document past the limit comes after 10,000 that read.
    let too_many = format!("{JOB}---\n").repeat(MAX_DOCUMENTS + 1);
    assert_eq!(each(&too_many), Err(InputError::TooManyDocuments));
    // Aliases repeated past the document's budget, after documents that read.
    let repeats =
        format!("{}---\na: &a [{}]\nb: [{}]\n", format!("{JOB}---\n").repeat(3), "1, ".repeat(50), "*a, ".repeat(5000));
    assert!(each(&repeats).is_err(), "{:?}", each(&repeats).map(|d| d.len()));
    assert_eq!(each(&repeats), all(&repeats));
}

/// Refusals that come only after documents that read, of inputs whose every document passes the
/// scan before the parser: each is refused before any document is handed on, by the text's proof
/// failing and the read in outline that follows.
#[test]
fn each_document_refuses_what_only_a_read_finds_before_any_document() {
    let jobs = format!("{JOB}---\n").repeat(3);
    // Three flow lists of 30,000 numbers, each within the input's budget of values, read
    // together past it (a comment pads the input so that each is within it).
    let list = format!("[{}1]\n", "1,".repeat(29_999));
    let dense =
        format!("{jobs}{}{}", format!("# {}\n", "p".repeat(100)).repeat(4_000), format!("{list}---\n").repeat(3));
    // Lists of two aliases of the list before, 12 deep, padded with comments so that the input's
    // budget holds what they read as: more keys and values than the bound per node counted in
    // the text (3,000 explicit keys were this input once, refused only because the scan counted
    // no node for `? k`).
    let mut doubling = String::from("l0: &l0 [1, 1]\n");
    for n in 1..=12 {
        doubling.push_str(&format!("l{n}: &l{n} [*l{}, *l{}]\n", n - 1, n - 1));
    }
    let repeats = format!("{jobs}{}{doubling}", "# padding\n".repeat(40_000));
    // Escapes that read as more characters than they are written with (`\L` is 3 bytes).
    let escapes = format!("{jobs}a: \"{}\"\n", "\\L".repeat(20_000));
    // Documents that are all empty.
    let empty = "---\n---\n# nothing\n---\n".to_string();
    for (text, refusal) in
        [(&dense, "PastTheBudget"), (&repeats, "TooManyRepeats"), (&escapes, "PastTheBudget"), (&empty, "NoDocuments")]
    {
        let refused = each(text).expect_err(refusal);
        assert!(format!("{refused:?}").starts_with(refusal), "{refused:?}");
        assert_eq!(Err(refused), all(text));
    }
}

#[test]
fn each_document_reads_what_documents_reads() {
    let texts = [
        JOB.to_string(),
        format!("---\n{JOB}---\n---\n{JOB}---\n"),
        format!("{JOB}---\n- a list\n---\nscalar\n"),
        // A syntax error: the documents before it, then the error, then nothing.
        format!("{JOB}---\na: [b\n---\n{JOB}"),
        // A tag: the event reader leaves the rest to yaml_serde.
        format!("{JOB}---\n!custom\nkind: TrainJob\n---\n{JOB}"),
        format!("{JOB}---\nx: &x {{a: 1}}\ny: *x\n---\n{JOB}"),
        // Outlines: a root list's items, nested lists and maps, aliases, a key given twice.
        format!("{JOB}---\n- a\n- [b, [c]]\n- {{d: {{e: f}}}}\n---\n{JOB}"),
        format!(
            "{JOB}---\nkind: &k TrainingRuntime\nother: *k\nkind: TrainJob\nspec: {{a: &n [1, {{b: 2}}]}}\nn: *n\n"
        ),
        String::new(),
        "---\n".into(),
        "# only a comment\n".into(),
        format!("{JOB}---\n").repeat(MAX_DOCUMENTS),
    ];
    for text in &texts {
        assert_eq!(each(text), all(text), "{text:.200?}");
        assert_eq!(outlined(text), all_outlined(text), "{text:.200?}");
    }
}

#[test]
fn an_empty_document_does_not_end_the_stream() {
    // Each door reads the documents after an empty one (`---` alone, or comments), at their
    // place in the stream (the empty one keeps its number), and still refuses what comes after it.
    for gap in ["---\n", "---\n# nothing here\n", "--- # a comment\n"] {
        let text = format!("{JOB}{gap}---\n{JOB}");
        let docs = all(&text).unwrap();
        let places: Vec<(usize, usize)> = docs.iter().map(|d| (d.0, d.1)).collect();
        assert_eq!(places, [(1, 1), (3, 5 + gap.lines().count())], "{text:?}");
        assert_eq!(each(&text), all(&text), "{text:?}");
        assert_eq!(outlined(&text), all_outlined(&text), "{text:?}");
        // A million values from 4 KB of aliases: refused only once the document is read.
        let bomb = format!("{JOB}{gap}---\na: &a [{}]\nb: [{}]\n", ["1"; 1000].join(","), ["*a"; 1000].join(","));
        for read in [all(&bomb), each(&bomb), outlined(&bomb).map(|o| o.1)] {
            assert!(matches!(read, Err(InputError::PastTheBudget { document: 3, .. })), "{gap:?}: {read:.200?}");
        }
    }
}
