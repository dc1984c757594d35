//! The Yew layer (wasm32 only): maps state to `html!` and performs the side effects.
