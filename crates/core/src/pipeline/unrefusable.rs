//! Whether a text's own bytes prove that reading it meets none of the refusals the input door
//! can only find by reading (`input::accept`): the budget of values and characters, the bound on
//! a document's reads, the number of documents, an input of empty documents alone. Then its
//! documents can be handed on as they are read, with no first read to find a refusal before the
//! first of them (issue 36: that read is the parser's, as dear as the read itself).
//!
//! The proof counts indicators rather than parsing. A value other than a document's root is
//! introduced by an indicator of its own: a block entry's `-`, a mapping value's `:` (or, with no
//! `:`, its explicit key's `?`), a flow entry's `[`, `{` or `,`; a key is introduced by the `:`
//! after it, the `?` before it, or a flow entry's indicator. So a document reads as at most one
//! value more than the indicators in its text, and as at most twice as many keys and values as
//! that. A `-`, `:` or `?` followed by another printable ASCII character is no indicator to the
//! parser (libyaml's scanner, `fetch_next_token`: `--epochs`, `name: a-b`, `image: repo:tag`),
//! except a `:` or `?` inside a flow collection, which is one whatever follows it; so those are
//! counted only where one could be: before a blank, the line's end or a character outside ASCII,
//! and anywhere once a `[` or `{` has been written (a flow collection can only have started
//! there). Counting every such byte refused the proof to ordinary manifests (a job's hyphenated
//! names and `repo:tag` images hold more of them than the budget's one value per 10 bytes),
//! which were then parsed twice. It holds only where each read is of the text once and no longer
//! than it is written: no alias (`*`), tag (`!`) or escape (`\`), and where the documents are the
//! parts between the lines that start with `---` or `...`: no line break but `\n` (libyaml also
//! breaks lines at `\r`, U+2028 and U+2029) and no byte order mark.

use super::input::{MAX_DOCUMENTS, READS_PER_NODE};

/// Whether reading `text`, whose documents' texts count `nodes` nodes each (`written::scan`, a
/// lower bound, per document the parser yields), within `values` values and its size in
/// characters, is sure to meet no refusal.
pub(super) fn unrefusable(text: &str, nodes: &[usize], values: usize) -> bool {
    let Some(Indicators { parts, written_parts, indicators, most_in_a_part }) = indicators(text) else {
        return false;
    };
    // Each document: its root, and a value per indicator at most; keys and values, twice that.
    let most_reads = 2 * (most_in_a_part + 1);
    let fewest_nodes = nodes.iter().copied().min().unwrap_or(0);
    written_parts <= MAX_DOCUMENTS
        && parts.saturating_add(indicators) <= values
        && most_reads <= fewest_nodes.saturating_mul(READS_PER_NODE)
        // A document the scan counts a node in beyond its root is no empty one: not all are.
        && nodes.iter().any(|&n| n >= 2)
}

/// What the proof counts in a text's parts, the texts between its document markers: each
/// document the parser yields lies in one, and one of nothing but blank lines and comments is
/// empty (not counted) or none.
#[derive(Debug, PartialEq, Eq)]
struct Indicators {
    parts: usize,
    /// The parts with a line that is neither blank nor a comment.
    written_parts: usize,
    /// The bytes that may be indicators, in the whole text and in the part with most of them.
    indicators: usize,
    most_in_a_part: usize,
}

/// What a byte is to the proof (`CLASS`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Text, a blank, or a byte of a character outside ASCII: nothing to count.
    Other,
    /// `*`, `!`, `\`, `\r`, and E2 and EF, which start U+2028, U+2029 and U+FEFF (as some other
    /// characters do: those are left to the reader too): the proof does not hold.
    Unproven,
    LineBreak,
    /// `[` or `{`: an indicator, and a flow collection may start here.
    FlowStart,
    /// `,`: an indicator.
    Comma,
    /// `-`: an indicator before a blank.
    Dash,
    /// `:` or `?`: an indicator before a blank, or anywhere once a flow collection may have started.
    ColonOrQuestion,
}

/// Each byte's [`Class`], so that the scan looks at each byte once, through one table.
const CLASS: [Class; 256] = {
    let mut class = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        class[b] = match b as u8 {
            b'*' | b'!' | b'\\' | b'\r' | 0xe2 | 0xef => Class::Unproven,
            b'\n' => Class::LineBreak,
            b'[' | b'{' => Class::FlowStart,
            b',' => Class::Comma,
            b'-' => Class::Dash,
            b':' | b'?' => Class::ColonOrQuestion,
            _ => Class::Other,
        };
        b += 1;
    }
    class
};

/// The indicators of `text`'s parts, in one pass over its bytes; `None` when a byte of it is one
/// the proof does not hold with.
fn indicators(text: &str) -> Option<Indicators> {
    let bytes = text.as_bytes();
    let mut counted = Indicators { parts: 1, written_parts: 0, indicators: 0, most_in_a_part: 0 };
    let (mut in_part, mut written) = (0usize, false);
    // Whether a `[` or `{` came before in the text.
    let mut flow_written = false;
    // libyaml's IS_BLANKZ after the byte at `at`: a blank, a line break or the end. A byte
    // outside ASCII may start U+0085 (a break), so it counts as one.
    let blank_after = |at: usize| bytes.get(at + 1).is_none_or(|&b| matches!(b, b' ' | b'\t' | b'\n') || !b.is_ascii());
    let mut line_start = 0;
    loop {
        let line = &bytes[line_start..];
        let marker = |m: &[u8]| line.starts_with(m) && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\n'));
        let mut at = line_start;
        if marker(b"---") || marker(b"...") {
            counted.parts += 1;
            counted.written_parts += usize::from(written);
            (in_part, written) = (0, false);
            at += 3;
        }
        let first = bytes[at..].iter().position(|&b| !matches!(b, b' ' | b'\t')).map(|n| at + n);
        written |= !matches!(first.map(|n| bytes[n]), None | Some(b'\n' | b'#'));
        let mut count = 0;
        while let Some(&b) = bytes.get(at) {
            let indicator = match CLASS[usize::from(b)] {
                Class::Other => false,
                Class::LineBreak => break,
                Class::Unproven => return None,
                Class::FlowStart => {
                    flow_written = true;
                    true
                }
                Class::Comma => true,
                Class::Dash => blank_after(at),
                Class::ColonOrQuestion => flow_written || blank_after(at),
            };
            count += usize::from(indicator);
            at += 1;
        }
        in_part += count;
        counted.indicators += count;
        counted.most_in_a_part = counted.most_in_a_part.max(in_part);
        if at >= bytes.len() {
            break;
        }
        line_start = at + 1;
    }
    counted.written_parts += usize::from(written);
    Some(counted)
}

#[cfg(test)]
mod tests {
    use super::super::{input, written};
    use super::{indicators, unrefusable, Indicators};

    /// Whether the proof holds for `text`, with the nodes the scan before the parser counts.
    fn proven(text: &str) -> bool {
        let (values, _) = input::read_budget(text.len());
        let nodes = written::scan(text, values).nodes;
        unrefusable(text, &nodes, values)
    }

    /// make bench's 1 MB manifest, in small: jobs of two roles whose hyphenated names, `repo:tag`
    /// images and `--flags` hold more `-` and `:` than the bound per node allows the empty
    /// document its closing `---` opens (1 node, 99 reads), though few of them are indicators.
    #[test]
    fn a_manifest_of_hyphenated_names_and_tagged_images_is_proven() {
        let role = |role: &str| {
            format!(
                "    {role}:\n      replicas: 1\n      restartPolicy: OnFailure\n      template:\n        spec:\n          containers:\n            \
                 - name: pytorch\n              image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727\n              \
                 imagePullPolicy: Always\n              command:\n                - \"python3\"\n                - \"/opt/pytorch-mnist/mnist.py\"\n                \
                 - \"--epochs=1\"\n"
            )
        };
        let job = |n: usize| {
            format!(
                "apiVersion: \"kubeflow.org/v1\"\nkind: PyTorchJob\nmetadata:\n  name: pytorch-simple-{n}\n  \
                 namespace: kubeflow\nspec:\n  pytorchReplicaSpecs:\n{}{}",
                role("Master"),
                role("Worker")
            )
        };
        let text: String = (0..200).map(|n| format!("{}---\n", job(n))).collect();
        let every_byte = job(0).bytes().filter(|b| matches!(b, b'-' | b':' | b'?' | b',' | b'[' | b'{')).count();
        assert!(
            2 * (every_byte + 1) > input::READS_PER_NODE,
            "{every_byte} such bytes: the test no longer needs the indicators told apart"
        );
        assert!(proven(&text));
        assert!(input::documents(&text).is_ok());
    }

    /// Texts the door refuses once it reads them, each value introduced by an indicator the
    /// proof must count though no blank follows its byte: a `-` at the line's end or the text's,
    /// and a `:` after a quoted key inside a flow collection (each item of `["k0000":b, …]` reads
    /// as a map of one key: two values in 10 bytes).
    #[test]
    fn indicators_not_followed_by_a_blank_are_counted() {
        let flow: String = (0..4_000).map(|n| format!("\"k{n:04}\":b,")).collect();
        let texts = ["-\n".repeat(4_000), format!("{}-", "-\n".repeat(3_999)), format!("[{flow}x]\n")];
        for text in &texts {
            assert!(input::documents(text).is_err(), "{:?}", &text[..40]);
            assert!(!proven(text), "{:?}", &text[..40]);
        }
    }

    /// What `indicators` counts, written as the rules read, line by line, with no table: the
    /// count the one-pass scan is held to.
    fn indicators_line_by_line(text: &str) -> Option<Indicators> {
        if text.bytes().any(|b| matches!(b, b'*' | b'!' | b'\\' | b'\r' | 0xe2 | 0xef)) {
            return None;
        }
        let mut counted = Indicators { parts: 1, written_parts: 0, indicators: 0, most_in_a_part: 0 };
        let (mut in_part, mut written, mut flow_written) = (0, false, false);
        for line in text.split('\n') {
            let marker = |m: &str| line.starts_with(m) && (line.len() == 3 || line[3..].starts_with([' ', '\t']));
            let content = if marker("---") || marker("...") {
                counted.parts += 1;
                counted.written_parts += usize::from(written);
                (in_part, written) = (0, false);
                &line[3..]
            } else {
                line
            };
            let bytes = content.as_bytes();
            let blank_after = |at: usize| bytes.get(at + 1).is_none_or(|&b| matches!(b, b' ' | b'\t') || !b.is_ascii());
            for (at, &b) in bytes.iter().enumerate() {
                flow_written |= matches!(b, b'[' | b'{');
                let indicator = match b {
                    b'[' | b'{' | b',' => true,
                    b'-' => blank_after(at),
                    b':' | b'?' => flow_written || blank_after(at),
                    _ => false,
                };
                in_part += usize::from(indicator);
                counted.indicators += usize::from(indicator);
            }
            counted.most_in_a_part = counted.most_in_a_part.max(in_part);
            written |= !matches!(content.trim_start_matches([' ', '\t']).bytes().next(), None | Some(b'#'));
        }
        counted.written_parts += usize::from(written);
        Some(counted)
    }

    /// The one-pass count against the rules read line by line, on 20,000 texts made of the
    /// pieces the rules tell apart: markers, indicators before and not before a blank, comments,
    /// blank lines, flow starts, characters outside ASCII and the bytes the proof stops at.
    #[test]
    fn one_pass_counts_as_the_rules_read_line_by_line() {
        let pieces = [
            "---",
            "...",
            "--- ",
            "---x",
            "-",
            "- ",
            ":",
            ": ",
            "?",
            ",",
            "[",
            "{",
            " ",
            "\t",
            "\n",
            "\n",
            "\n",
            "#",
            "a",
            "é",
            "-é",
            ":\u{85}",
            "key: value",
            "  - item",
            "*",
            "!",
            "\\",
            "\r",
            "\u{2028}",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            // xorshift64: the same texts on every run.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut counted = 0;
        for _ in 0..20_000 {
            let len = next() % 40;
            // Most texts without the bytes that stop the proof, so that most are counted.
            let usable = if next() % 4 == 0 { pieces.len() } else { pieces.len() - 5 };
            let text: String = (0..len).map(|_| pieces[(next() % usable as u64) as usize]).collect();
            let expected = indicators_line_by_line(&text);
            counted += usize::from(expected.is_some());
            assert_eq!(indicators(&text), expected, "{text:?}");
        }
        assert!(counted > 10_000, "only {counted} texts were counted");
    }
}
