//! One CRD validation rule evaluated on one value, with cel-rust.
//!
//! The rules are parsed with cel-rust's Pratt parser rather than its default ANTLR one: the same
//! language (tests/crd_rules.rs checks that both parse every rule of every release to the same
//! result on the same values), at about half the wasm size. Of the Kubernetes CEL libraries
//! (k8s.io/apiserver/pkg/cel/library) the rules call only `matches`, which cel-rust has only
//! with its `regex` feature (the full `regex` crate); it is added here on `regex-lite`, the same
//! RE2 syntax for these patterns. The rest they use is standard CEL: `has`, `size`, `in`,
//! `all`, `exists`, `filter`, comparisons and logic.

use cel::extractors::This;
use cel::parser::PrattParser;
use cel::{Context, Env, ExecutionError, Value};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Why a rule has no true-or-false answer.
#[derive(Debug)]
pub enum Failure {
    /// An operator or function called on a type it has no overload for, as cel-go's
    /// "no such overload" (an int-or-string field compared with an int).
    NoOverload,
    /// Any other error (a missing key, a bad regex), with cel-rust's text.
    Other(String),
}

fn env() -> Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(Env::stdlib())).clone()
}

/// Kubernetes' `matches` (RE2, unanchored, as in cel-go).
fn matches(This(text): This<Arc<String>>, pattern: Arc<String>) -> Result<bool, ExecutionError> {
    let re = regex_lite::Regex::new(&pattern).map_err(|e| ExecutionError::function_error("matches", e))?;
    Ok(re.is_match(&text))
}

/// A JSON value as the API server hands it to CEL: whole numbers are `int`, others `double`.
pub fn to_cel(value: &Json) -> Value {
    match value {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::String(Arc::new(s.clone())),
        Json::Array(items) => Value::List(Arc::new(items.iter().map(to_cel).collect())),
        Json::Object(map) => {
            let map: HashMap<String, Value> = map.iter().map(|(k, v)| (k.clone(), to_cel(v))).collect();
            Value::from(map)
        }
    }
}

/// Whether `rule` is true with `self` bound to `value`.
pub fn holds(rule: &str, value: &Json) -> Result<bool, Failure> {
    let expr = PrattParser::new().parse(rule).map_err(|e| Failure::Other(e.to_string()))?;
    outcome(Value::resolve(&expr, &context(value)))
}

/// The same with cel-rust's default (ANTLR) parser: for the test that the two agree.
pub fn holds_with_default_parser(rule: &str, value: &Json) -> Result<bool, Failure> {
    let program = env().compile(rule).map_err(|e| Failure::Other(e.to_string()))?;
    outcome(program.execute(&context(value)))
}

fn context(value: &Json) -> Context<'static, 'static> {
    let mut ctx = Context::with_env(env());
    ctx.add_variable_from_value("self", to_cel(value));
    ctx.add_function("matches", matches).expect("matches is not a cel-rust overload without its regex feature");
    ctx
}

fn outcome(result: Result<Value, ExecutionError>) -> Result<bool, Failure> {
    match result {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(other) => Err(Failure::Other(format!("the rule gave {other:?}, not a bool"))),
        Err(ExecutionError::NoSuchOverload(_)) => Err(Failure::NoOverload),
        Err(e) => Err(Failure::Other(e.to_string())),
    }
}

/// Whether `rule` reads `oldSelf`: a transition rule, which the API server runs only on update.
pub fn reads_old_self(rule: &str) -> bool {
    PrattParser::new().parse(rule).is_ok_and(|e| e.references().has_variable("oldSelf"))
}
