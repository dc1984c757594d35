pub mod code_block;
pub mod controls;
pub mod lazy_pane;
pub mod migrate;
pub mod pane;
pub mod params;
pub mod radio_group;
