//! The release-to-release API changes (the table lives with the release data, in
//! `explorer_data::api_changes`) and the order the upgrade walks them in.

pub use explorer_data::api_changes::{ApiChange, Rewrite, Subject, API_CHANGES};

use explorer_data::releases::Release;

/// The changes a manifest goes through from `from` to `to` (`from` excluded), in order.
#[cfg(any(feature = "yaml-input", test))]
pub(crate) fn changes_between(from: Release, to: Release) -> impl Iterator<Item = &'static ApiChange> {
    let after = |r: Release, than: Release| position(r) > position(than);
    API_CHANGES.iter().filter(move |c| after(c.release, from) && !after(c.release, to))
}

/// A release's place in `RELEASES` (oldest first). Found by its line, which names it (lines are
/// unique): comparing whole releases compares their runtime lists too, and the upgrade asks
/// for positions for every change of every document.
pub fn position(r: Release) -> usize {
    explorer_data::releases::RELEASES.iter().position(|x| x.line == r.line).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use explorer_data::releases::{RELEASES, V2_0, V2_1, V2_2, V2_3};

    #[test]
    fn changes_are_in_release_order_and_name_a_newer_release_than_the_first() {
        let positions: Vec<usize> = API_CHANGES.iter().map(|c| position(c.release)).collect();
        assert!(positions.windows(2).all(|w| w[0] <= w[1]), "{positions:?}");
        assert!(positions.iter().all(|p| *p > 0 && *p < RELEASES.len()), "{positions:?}");
    }

    #[test]
    fn changes_between_takes_the_releases_after_from_up_to_to() {
        let fields = |a, b| changes_between(a, b).map(|c| c.field).collect::<Vec<_>>();
        assert_eq!(fields(V2_0, V2_1), ["spec.podSpecOverrides"]);
        assert!(fields(V2_1, V2_1).is_empty());
        assert!(fields(V2_2, V2_1).is_empty());
        assert_eq!(fields(V2_0, V2_3).len(), API_CHANGES.len());
    }

    #[test]
    fn the_int32_change_agrees_with_the_release_data() {
        // numProcPerNode's type is kept per release (NumProcPerNode) as well as in this row:
        // a type, not a life span, so `declares` does not cover it.
        use explorer_data::releases::NumProcPerNode;
        let int32 = API_CHANGES.iter().find(|c| c.rewrite == Rewrite::ProcsToInt32).map(|c| c.release);
        assert_eq!(int32, RELEASES.iter().copied().find(|r| r.num_proc_per_node == NumProcPerNode::Int32));
    }
}
