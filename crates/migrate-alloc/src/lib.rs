//! The converter module's global allocator (crates/migrate-wasm links this crate for it).
//!
//! Talc, as in the widget, instead of Rust's default dlmalloc: the module is single-threaded wasm
//! too, talc's code is about 2 KB smaller gzipped, and dlmalloc was slower (BENCHMARKS.md, "The 1
//! MB manifest in wasm: the answer in ASCII").
//!
//! A crate of its own for one reason: talc's allocator is generic, so its code is compiled in the
//! crate that names the concrete type below, at that crate's opt-level. Here that is 3 (Cargo.toml,
//! `[profile.wasm-release.package]`), while the module's own crate stays at the profile's "z": at
//! "z" rustc marks every function `minsize` and LLVM keeps talc's helpers as calls (talc's
//! functions were 12% of the call's self time in a V8 profile: BENCHMARKS.md, wasmmeg2's section).
//! The module's link-time optimization runs at its own crate's level, "z", so only talc's code
//! changes (BENCHMARKS.md, "The converter module's build for speed").
#![no_std]

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
