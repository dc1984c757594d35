//! The input door builds each document's tree from the parser's events as they come, so what
//! reading takes beyond the trees it hands back is a list's or a map's growth, not a whole
//! document's events (issue 36: yaml_serde held them all, about 130 bytes an event, beside the
//! tree: 100.7 MB of events and a 75.5 MB tree on dense-at-the-limit). Every allocation of this
//! test binary is counted, so the bound is on bytes asked for, not on a clock or the machine.
// The counting allocator below is the only unsafe code here: it hands every call to the system's.
#![allow(unsafe_code)]

#[path = "../../../tests/shapes/mod.rs"]
mod shapes;

use explorer_core::pipeline::input;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting the bytes held now and the most held since `PEAK` was reset.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = HELD.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: each method passes its arguments unchanged to `System`, whose contract is the same,
// and only counts sizes beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's `layout` is valid for `alloc` (GlobalAlloc's contract).
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `alloc` or `realloc` above, so by `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `dealloc`; `new_size` is valid for `layout`'s alignment (the caller's part).
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            // Both blocks may be held while the old one is copied: counted as the larger.
            grew(new_size.saturating_sub(layout.size()));
            HELD.fetch_sub(layout.size().saturating_sub(new_size), Relaxed);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What reading a shape took at most beyond what was held before, and what its trees hold after.
fn read(text: &str) -> (usize, usize, Vec<input::RawDoc>) {
    let before = HELD.load(Relaxed);
    PEAK.store(before, Relaxed);
    let docs = input::documents(text).expect("accepted");
    (PEAK.load(Relaxed) - before, HELD.load(Relaxed) - before, docs)
}

/// On the accepted shapes with the most values for their bytes, reading takes at most twice what
/// the trees keep (a list or a map doubles as it grows), and 1 MiB more. Red before this: the
/// events of a whole document beside its tree took 4.4 times the trees on dense-at-the-limit.
#[test]
fn reading_a_document_holds_no_more_than_its_tree_growing() {
    for shape in [
        shapes::dense_at_the_limit(),
        shapes::many_labels(),
        shapes::many_env(),
        shapes::many_items(),
        shapes::deep_nesting(),
        shapes::shared_by_alias(),
    ] {
        let (peak, kept, docs) = read(&shape.text);
        eprintln!("{}: peak {peak} bytes, trees {kept} bytes", shape.name);
        assert!(docs.iter().all(|doc| doc.value.is_ok()), "{}", shape.name);
        assert!(
            peak <= 2 * kept + (1 << 20),
            "{}: reading took {peak} bytes at most, {:.1} times the {kept} its trees hold",
            shape.name,
            peak as f64 / kept as f64
        );
    }
}
