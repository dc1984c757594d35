//! What was worked out for the last few runtimes, kept per thread: a paste of ten thousand jobs
//! on one built-in runtime reads and checks that same runtime for every job, and each answer
//! depends only on the runtime as written (and the release whose CRDs judge it).
//!
//! An entry keeps its runtime behind an `Rc`. A caller that holds its runtime behind an `Rc`
//! too (a built-in runtime's tree, the runtime tree explain::read keeps) hands that `Rc` over
//! (`get_shared`), and is found again by address: the entry holds the tree, so no other tree can
//! be at that address while it is kept, and a tree behind a shared `Rc` cannot change. Otherwise
//! an entry is found by comparing the runtime tree itself, so an answer is reused only for an
//! equal runtime: the comparison stops at the first difference (a generated runtime's name), but
//! an equal runtime is read whole, a few thousand instructions for every job of a paste.

use serde_json::Value as Json;
use std::cell::RefCell;
use std::rc::Rc;

/// How many runtimes a memo keeps: a paste rarely uses more than a few at a time.
const KEPT: usize = 4;

/// One answer: what else it depends on (a release tag, or how the runtime was read), the
/// runtime it is for, and the answer.
struct Entry<T> {
    key: &'static str,
    runtime: Rc<Json>,
    answer: Rc<T>,
}

pub(crate) struct Memo<T> {
    /// Oldest first.
    entries: RefCell<Vec<Entry<T>>>,
}

impl<T> Memo<T> {
    pub(crate) const fn new() -> Memo<T> {
        Memo { entries: RefCell::new(Vec::new()) }
    }

    /// The answer for `runtime` under `key`: kept, or worked out by `work` and kept with a copy of
    /// `runtime`.
    pub(crate) fn get(&self, key: &'static str, runtime: &Json, work: impl FnOnce() -> T) -> Rc<T> {
        self.kept(key, runtime).unwrap_or_else(|| self.keep(key, Rc::new(runtime.clone()), work()))
    }

    /// `get` for a runtime held behind `runtime`: kept with that `Rc`, not a copy, so the next
    /// call with the same `Rc` finds it by address.
    pub(crate) fn get_shared(&self, key: &'static str, runtime: &Rc<Json>, work: impl FnOnce() -> T) -> Rc<T> {
        self.kept(key, runtime).unwrap_or_else(|| self.keep(key, runtime.clone(), work()))
    }

    /// The answer kept for `runtime` under `key`: the entry holding this very tree, else one
    /// holding an equal tree.
    fn kept(&self, key: &'static str, runtime: &Json) -> Option<Rc<T>> {
        let entries = self.entries.borrow();
        let mut under_key = entries.iter().filter(|e| e.key == key);
        let same = under_key.clone().find(|e| std::ptr::eq(Rc::as_ptr(&e.runtime), runtime));
        same.or_else(|| under_key.find(|e| *e.runtime == *runtime)).map(|e| e.answer.clone())
    }

    fn keep(&self, key: &'static str, runtime: Rc<Json>, answer: T) -> Rc<T> {
        let answer = Rc::new(answer);
        let mut entries = self.entries.borrow_mut();
        if entries.len() == KEPT {
            entries.remove(0);
        }
        entries.push(Entry { key, runtime, answer: answer.clone() });
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An answer is reused for the very tree it was worked out for and for an equal one, never
    /// for another tree under the same key.
    #[test]
    fn an_answer_is_reused_for_its_own_tree_or_an_equal_one_only() {
        let memo: Memo<String> = Memo::new();
        let torch = Rc::new(json!({"metadata": {"name": "torch-distributed"}}));
        let deepspeed = Rc::new(json!({"metadata": {"name": "deepspeed-distributed"}}));
        let name = |r: &Json| r["metadata"]["name"].as_str().unwrap_or_default().to_string();
        assert_eq!(*memo.get_shared("v2.3.0", &torch, || name(&torch)), "torch-distributed");
        assert_eq!(*memo.get_shared("v2.3.0", &deepspeed, || name(&deepspeed)), "deepspeed-distributed");
        fn unreached() -> String {
            panic!("worked out again")
        }
        assert_eq!(*memo.get_shared("v2.3.0", &torch, unreached), "torch-distributed");
        let equal = json!({"metadata": {"name": "torch-distributed"}});
        assert_eq!(*memo.get("v2.3.0", &equal, unreached), "torch-distributed");
        let other = json!({"metadata": {"name": "mpi-distributed"}});
        assert_eq!(*memo.get("v2.3.0", &other, || name(&other)), "mpi-distributed");
        assert_eq!(*memo.get_shared("v2.2.1", &torch, || "under another key".into()), "under another key");
    }
}
