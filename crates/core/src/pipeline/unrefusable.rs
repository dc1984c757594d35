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
    let unproven = |b: &u8| matches!(b, b'*' | b'!' | b'\\' | b'\r') || *b == 0xe2 || *b == 0xef;
    // U+2028, U+2029 and U+FEFF start with E2 or EF, as some other characters do: those are
    // left to the reader too.
    if text.as_bytes().iter().any(unproven) {
        return false;
    }
    // The parts between document markers: each document the parser yields lies in one, and one
    // of nothing but blank lines and comments is empty (not counted) or none.
    let (mut parts, mut written_parts, mut indicators, mut most_in_a_part) = (1usize, 0usize, 0usize, 0usize);
    let (mut in_part, mut written) = (0usize, false);
    let mut flow_written = false;
    for line in text.split('\n') {
        let marker = |m: &str| line.starts_with(m) && (line.len() == 3 || line[3..].starts_with([' ', '\t']));
        let content = if marker("---") || marker("...") {
            parts += 1;
            written_parts += usize::from(written);
            (in_part, written) = (0, false);
            &line[3..]
        } else {
            line
        };
        let count = indicators_in(content, &mut flow_written);
        in_part += count;
        indicators += count;
        most_in_a_part = most_in_a_part.max(in_part);
        written |= !matches!(content.trim_start_matches([' ', '\t']).bytes().next(), None | Some(b'#'));
    }
    written_parts += usize::from(written);
    // Each document: its root, and a value per indicator at most; keys and values, twice that.
    let most_reads = 2 * (most_in_a_part + 1);
    let fewest_nodes = nodes.iter().copied().min().unwrap_or(0);
    written_parts <= MAX_DOCUMENTS
        && parts.saturating_add(indicators) <= values
        && most_reads <= fewest_nodes.saturating_mul(READS_PER_NODE)
        // A document the scan counts a node in beyond its root is no empty one: not all are.
        && nodes.iter().any(|&n| n >= 2)
}

/// The bytes of one line (its break taken off) that may be indicators; `flow_written` says
/// whether a `[` or `{` came before in the text, and is set at the first.
fn indicators_in(line: &str, flow_written: &mut bool) -> usize {
    let bytes = line.as_bytes();
    // libyaml's IS_BLANKZ after the byte: a blank, a line break or the end. A byte outside
    // ASCII may start U+0085 (a break), so it counts as one.
    let blank_after = |at: usize| bytes.get(at + 1).is_none_or(|&b| matches!(b, b' ' | b'\t') || !b.is_ascii());
    let mut count = 0;
    for (at, &b) in bytes.iter().enumerate() {
        let indicator = match b {
            b'[' | b'{' => {
                *flow_written = true;
                true
            }
            b',' => true,
            b'-' => blank_after(at),
            b':' | b'?' => *flow_written || blank_after(at),
            _ => false,
        };
        count += usize::from(indicator);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::super::{input, written};
    use super::unrefusable;

    /// Whether the proof holds for `text`, with the nodes the scan before the parser counts.
    fn proven(text: &str) -> bool {
        let (values, _) = input::read_budget(text.len());
        let nodes = written::scan(text, &input::start_lines(text), values).nodes;
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
}
