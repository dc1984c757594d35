//! What was worked out for the last few runtimes, kept per thread: a paste of ten thousand jobs
//! on one built-in runtime reads and checks that same runtime for every job, and each answer
//! depends only on the runtime as written (and the release whose CRDs judge it).
//!
//! An entry is found by comparing the runtime tree itself, so an answer is reused only for an
//! equal runtime: the comparison stops at the first difference (a generated runtime's name), and
//! costs a fraction of the work it saves.

use serde_json::Value as Json;
use std::cell::RefCell;
use std::rc::Rc;

/// How many runtimes a memo keeps: a paste rarely uses more than a few at a time.
const KEPT: usize = 4;

pub(crate) struct Memo<T> {
    /// (what else the answer depends on, the runtime, the answer), oldest first.
    entries: RefCell<Vec<(&'static str, Json, Rc<T>)>>,
}

impl<T> Memo<T> {
    pub(crate) const fn new() -> Memo<T> {
        Memo { entries: RefCell::new(Vec::new()) }
    }

    /// The answer for `runtime` under `key` (a release tag, or how the runtime was read): kept,
    /// or worked out by `work` and kept.
    pub(crate) fn get(&self, key: &'static str, runtime: &Json, work: impl FnOnce() -> T) -> Rc<T> {
        let kept = self.entries.borrow().iter().find(|(k, r, _)| *k == key && r == runtime).map(|(_, _, a)| a.clone());
        if let Some(answer) = kept {
            return answer;
        }
        let answer = Rc::new(work());
        let mut entries = self.entries.borrow_mut();
        if entries.len() == KEPT {
            entries.remove(0);
        }
        entries.push((key, runtime.clone(), answer.clone()));
        answer
    }
}
