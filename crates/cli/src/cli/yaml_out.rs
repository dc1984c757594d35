//! A batch command's YAML on stdout (`migrate`, `upgrade`), written a run of lines at a time as it
//! is handed in: the bytes `print_output` writes for the whole text with its trailing whitespace
//! trimmed (nothing for a text of whitespace alone), without the whole text being held. The YAML
//! of a job of a quarter million labels is megabytes beside the tree it is written from.

use super::shown;
use std::io::Write;

pub(super) struct YamlOut<W: Write> {
    /// Where it goes: stdout, buffered.
    stdout: W,
    /// The whitespace that ends what was handed in so far: written only once more text follows
    /// it, as trimming the whole text's end drops it there.
    trailing: String,
    /// Whether anything but whitespace was written: then the output ends with a line break.
    written: bool,
    /// Why stdout took no more: the first write error (a broken pipe, or one to report). Nothing
    /// is written after it.
    failed: Option<std::io::Error>,
}

impl<W: Write> YamlOut<W> {
    pub(super) fn new(stdout: W) -> Self {
        YamlOut { stdout, trailing: String::new(), written: false, failed: None }
    }

    /// Writes `text` after what was handed in before it.
    pub(super) fn write(&mut self, text: &str) {
        let kept = text.trim_end();
        if kept.is_empty() {
            self.trailing.push_str(text);
            return;
        }
        let trailing = std::mem::take(&mut self.trailing);
        self.put(&trailing);
        self.put(kept);
        self.trailing.push_str(&text[kept.len()..]);
        self.written = true;
    }

    /// Writes `text` as the terminal is shown it (`shown`), unless stdout already failed.
    fn put(&mut self, text: &str) {
        if self.failed.is_some() || text.is_empty() {
            return;
        }
        if let Err(e) = self.stdout.write_all(shown(text).as_bytes()) {
            self.failed = Some(e);
        }
    }

    /// Ends the output with a line break (when anything was written) and flushes it; a broken
    /// pipe is no failure (`stdout_ended`).
    pub(super) fn finish(&mut self) -> Result<(), String> {
        if self.written {
            self.put("\n");
        }
        super::stdout_ended(self.failed.take(), || self.stdout.flush())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the batch commands printed when they held the whole text: the text with its trailing
    /// whitespace trimmed and a line break, nothing when it is blank.
    fn printed_whole(text: &str) -> String {
        let kept = text.trim_end();
        if kept.is_empty() {
            String::new()
        } else {
            format!("{}\n", shown(kept))
        }
    }

    /// Handed in in runs, however cut, the text is printed as it was printed whole: the
    /// whitespace between runs kept, the blank lines that end the last run dropped (the
    /// `|+` block that ends a stream loses its final line breaks, as it did), hidden characters
    /// shown escaped.
    #[test]
    fn a_text_handed_in_runs_is_printed_as_it_was_whole() {
        let runs: &[&[&str]] = &[
            &["a: 1\n", "b: 2\n"],
            &["a: 1\n", "\n", "  \n", "b: |+\n    x\n\n", "\n"],
            &["x: |+\n", "    y\n\n", "\n\n"],
            &["\n", "c: \u{1b}[31m\n", "---\n", "d: e\n\n"],
            &["\n", "  "],
            &[],
        ];
        for runs in runs {
            let mut out = YamlOut::new(Vec::new());
            runs.iter().for_each(|run| out.write(run));
            out.finish().unwrap();
            let printed = String::from_utf8(out.stdout).unwrap();
            assert_eq!(printed, printed_whole(&runs.concat()), "{runs:?}");
        }
    }
}
