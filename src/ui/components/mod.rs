pub mod code_block;
pub mod controls;
pub mod lazy_pane;
pub mod migrate;
/// One pane (V1 or V2): its heading, notes and code boxes.
pub mod pane;
pub mod params;
pub mod radio_group;

/// The class list of an element whose classes depend on state, set as its `className` property
/// (`~className={class_list(&[..])}` in `html!`): the names given, in order, without the absent
/// ones, as `classes!` would write them. `class={expr}` converts through yew's `Classes`, an
/// `IndexSet`, and that set's insert, hashing and join code was in the widget for these few
/// elements only.
pub fn class_list(names: &[Option<&str>]) -> String {
    let mut list = String::new();
    for name in names.iter().flatten() {
        if !list.is_empty() {
            list.push(' ');
        }
        list.push_str(name);
    }
    list
}
