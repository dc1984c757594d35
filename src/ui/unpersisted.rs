//! The choices instances on this page shared that the page does not hold yet. An instance tells
//! the others of a reader's choice at once (`browser::broadcast`, a zero-delay timer after the
//! change) and writes it to the address and storage `browser::PERSIST_MS` later
//! (`browser::persist`): an instance mounted in between heard no broadcast and reads nothing of it
//! from the page, so it reads it here (mount.rs `initial_selection`), kept from the change on.
//!
//! A choice is kept only while it is pending, so none outlives the instance that shared it and
//! none reaches an independent mount later on the page: it goes once the address reads it back
//! (at mount the address beats storage), when its instance makes a newer one, and when its instance
//! leaves the page (`mount::unmount`, at once: Yew destroys an app, and drops its timers, a task
//! later, and a mount in the same task must not read it). A page whose address cannot be written
//! keeps it while its instance runs, so a widget mounted there later agrees with the ones that
//! heard it.

use explorer_core::query::{self, SyncSet};
use explorer_core::selection::Selection;
use std::cell::RefCell;

thread_local! {
    /// (instance, the query it shared), oldest first, at most one an instance.
    static PENDING: RefCell<Vec<(u32, String)>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `shared` (the query `instance` broadcasts) as the page's newest pending choice, in place
/// of the one `instance` kept before.
pub(crate) fn keep(instance: u32, shared: String) {
    forget(instance);
    PENDING.with(|pending| pending.borrow_mut().push((instance, shared)));
}

/// Forgets `instance`'s pending choice, if it has one.
pub(crate) fn forget(instance: u32) {
    PENDING.with(|pending| pending.borrow_mut().retain(|(owner, _)| *owner != instance));
}

/// `sel` with every pending choice applied to what `sync` shares, oldest first, so the newest
/// wins where two disagree, as it did in the instances that heard both.
pub(crate) fn apply_to(mut sel: Selection, sync: SyncSet) -> Selection {
    PENDING.with(|pending| {
        for (_, shared) in pending.borrow().iter() {
            sel = query::apply(shared, &sel, sync).0;
        }
    });
    sel
}
