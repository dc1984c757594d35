//! The reference the explainer's CEL evaluation is held to (crates/core/tests/it/crd_rules.rs).
//!
//! The explainer evaluates the CRDs' rules with cel-rust's Pratt parser and only the functions
//! the rules call (`explorer_core::explain::crd::evaluate`). Here the same rules run with
//! cel-rust's whole standard library and its `compile` entry point: the tests check that every
//! rule gives the same verdict both ways, and that no rule calls a function the explainer does
//! not register. None of this is linked into the product.

use cel::parser::PrattParser;
use cel::{Context, Env};
use explorer_core::explain::crd::evaluate::{self, Failure, FUNCTIONS};
use serde_json::Value as Json;
use std::sync::{Arc, OnceLock};

/// cel-rust's standard library, built once.
fn stdlib_env() -> Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(Env::stdlib())).clone()
}

/// Whether `rule` is true with `self` bound to `value`, by cel-rust's `compile` with its whole
/// standard library (plus Kubernetes' `matches`, which it lacks): the reference the tests
/// compare `evaluate::holds` with.
pub fn holds_with_default_parser(rule: &str, value: &Json) -> Result<bool, Failure> {
    let program = stdlib_env().compile(rule).map_err(|e| Failure::Other(e.to_string()))?;
    let mut ctx = Context::with_env(stdlib_env());
    ctx.add_variable_from_value("self", evaluate::to_cel(value));
    ctx.add_function("matches", evaluate::matches)
        .expect("matches is not a cel-rust overload without its regex feature");
    evaluate::outcome(program.execute(&ctx))
}

/// Whether `rule` reads `oldSelf`: a transition rule, which the API server runs only on update.
pub fn reads_old_self(rule: &str) -> bool {
    PrattParser::new().parse(rule).is_ok_and(|e| e.references().has_variable("oldSelf"))
}

/// The functions `rule` calls that `evaluate::holds` does not register (operators and macros
/// aside, which cel-rust evaluates itself): for the test that every CRD rule runs.
pub fn unregistered_functions(rule: &str) -> Result<Vec<String>, cel::parser::ParseErrors> {
    let expr = PrattParser::new().parse(rule)?;
    let references = expr.references();
    let mut named: Vec<String> = references
        .functions()
        .into_iter()
        .filter(|f| f.starts_with(|c: char| c.is_ascii_alphabetic()) && !FUNCTIONS.contains(f))
        .map(String::from)
        .collect();
    named.sort();
    Ok(named)
}
