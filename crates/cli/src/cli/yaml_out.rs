//! A batch command's YAML on stdout (`migrate`, `upgrade`), written a run of lines at a time as it
//! is handed in, without the whole text being held: the YAML of a job of a quarter million labels
//! is megabytes beside the tree it is written from. The text is written as it was made, ending
//! with a line break; a text of whitespace alone prints nothing.

use super::shown;
use std::io::Write;

pub(super) struct YamlOut<W: Write> {
    /// Where it goes: stdout, buffered.
    stdout: W,
    /// Whitespace handed in before anything else: written only once more text follows it, so a
    /// text of whitespace alone prints nothing.
    leading: String,
    /// Whether anything but whitespace was handed in: then the output ends with a line break.
    written: bool,
    /// Whether what was written ends with a line break already. The text's own last lines are
    /// written as they are, blank or not: a `|+` block that ends the output keeps the line breaks
    /// that end its value (`"a\n\n\n"` reads back as itself, not `"a\n"`).
    ends_line: bool,
    /// Why stdout took no more: the first write error (a broken pipe, or one to report). Nothing
    /// is written after it.
    failed: Option<std::io::Error>,
}

impl<W: Write> YamlOut<W> {
    pub(super) fn new(stdout: W) -> Self {
        YamlOut { stdout, leading: String::new(), written: false, ends_line: false, failed: None }
    }

    /// Writes `text` after what was handed in before it.
    pub(super) fn write(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if !self.written {
            if text.trim_end().is_empty() {
                self.leading.push_str(text);
                return;
            }
            let leading = std::mem::take(&mut self.leading);
            self.put(&leading);
            self.written = true;
        }
        self.put(text);
        self.ends_line = text.ends_with('\n');
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

    /// Ends the output with a line break (when anything was written and its last line has none)
    /// and flushes it; a broken pipe is no failure (`stdout_ended`).
    pub(super) fn finish(&mut self) -> Result<(), String> {
        if self.written && !self.ends_line {
            self.put("\n");
        }
        super::stdout_ended(self.failed.take(), || self.stdout.flush())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the batch commands print for a whole text: the text as it is, ending with a line
    /// break, nothing when it is blank.
    fn printed_whole(text: &str) -> String {
        if text.trim_end().is_empty() {
            String::new()
        } else if text.ends_with('\n') {
            shown(text).into_owned()
        } else {
            format!("{}\n", shown(text))
        }
    }

    /// Handed in in runs, however cut, the text is printed as it is printed whole: the
    /// whitespace between runs and at the end kept (a `|+` block that ends the output keeps its
    /// final line breaks), a line break added where the last line has none, hidden characters
    /// shown escaped.
    #[test]
    fn a_text_handed_in_runs_is_printed_as_it_was_whole() {
        let runs: &[&[&str]] = &[
            &["a: 1\n", "b: 2\n"],
            &["a: 1\n", "\n", "  \n", "b: |+\n    x\n\n", "\n"],
            &["x: |+\n", "    y\n\n", "\n\n"],
            &["\n", "c: \u{1b}[31m\n", "---\n", "d: e\n\n"],
            &["a: 1"],
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
