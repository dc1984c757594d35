//! One CRD validation rule evaluated on one value, with cel-rust.
//!
//! The rules are parsed with cel-rust's Pratt parser rather than its default ANTLR one: the same
//! language (crates/core/tests/it/crd_rules.rs checks that both parse every rule of every release to the same
//! result on the same values), at about half the wasm size. Of the Kubernetes CEL libraries
//! (k8s.io/apiserver/pkg/cel/library) the rules call only `matches`, which cel-rust has only
//! with its `regex` feature (the full `regex` crate); it is added here on `regex-lite`, the same
//! RE2 syntax for these patterns. The rest they use is standard CEL: `has`, `size`, `in`,
//! `all`, `exists`, `filter`, comparisons and logic.
//!
//! The rules run in an environment with only the functions they call, `size` and `matches`,
//! not cel-rust's whole standard library (`Env::stdlib`: conversions, string, bytes, uint,
//! optional, map and list functions). cel-rust evaluates the operators, `in` and the macros
//! itself, and registering the standard library links every one of its overloads into the
//! converter module: about 13 KB of its gzipped wasm. crates/core/tests/it/crd_rules.rs checks that no rule
//! calls another function, and that on every rule this environment gives what cel-rust with its
//! standard library and default parser gives.

use cel::common::types::{CelBool, CelDouble, CelInt, CelList, CelMap, CelMapKey, CelNull, CelString};
use cel::common::value::Val;
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

/// The functions the CRDs' rules call (besides operators and macros), which `holds` registers.
pub const FUNCTIONS: [&str; 2] = ["size", "matches"];

/// No standard library: `holds` adds the rules' functions to each context.
fn rules_env() -> Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(Env::default())).clone()
}

/// CEL's `size` of a string (its code points), a list or a map, as the standard library's
/// overloads; on anything else, no such overload.
fn size(This(value): This<Value>) -> Result<i64, ExecutionError> {
    match value {
        Value::String(s) => Ok(s.chars().count() as i64),
        Value::Bytes(b) => Ok(b.len() as i64),
        Value::List(items) => Ok(items.len() as i64),
        Value::Map(map) => Ok(map.map.len() as i64),
        other => Err(ExecutionError::no_such_overload("size", vec![other.type_of().to_string()])),
    }
}

/// Kubernetes' `matches` (RE2, unanchored, as in cel-go).
pub fn matches(This(text): This<Arc<String>>, pattern: Arc<String>) -> Result<bool, ExecutionError> {
    let re = regex(&pattern).map_err(|e| ExecutionError::function_error("matches", e))?;
    Ok(re.is_match(&text))
}

/// A compiled pattern: by its positions (`positions.rs`) where it is written as the CRDs write
/// theirs, else by regex_lite.
pub(crate) enum Pattern {
    /// Matched by the set of positions each character reaches.
    Positions(Box<super::positions::Positions>),
    /// Matched by regex_lite.
    Engine(regex_lite::Regex),
}

impl Pattern {
    /// Whether `text` matches (somewhere, as RE2 searches; the CRDs' patterns are anchored).
    pub(crate) fn is_match(&self, text: &str) -> bool {
        match self {
            Pattern::Positions(positions) => positions.is_match(text),
            Pattern::Engine(engine) => engine.is_match(text),
        }
    }
}

/// `pattern` compiled, once per pattern and thread: a CRD's `pattern` and a rule's `matches`
/// run on every value at their node, and the CRDs hold a few patterns. regex_lite reads it
/// first, so a pattern it refuses gives its error whichever matcher would run.
pub(crate) fn regex(pattern: &str) -> Result<std::rc::Rc<Pattern>, regex_lite::Error> {
    use std::cell::RefCell;
    use std::rc::Rc;
    type Compiled = Result<Rc<Pattern>, regex_lite::Error>;
    thread_local! {
        static COMPILED: RefCell<HashMap<String, Compiled>> = RefCell::new(HashMap::new());
    }
    if let Some(known) = COMPILED.with(|c| c.borrow().get(pattern).cloned()) {
        return known;
    }
    let compiled = regex_lite::Regex::new(pattern).map(|engine| {
        let matcher = super::positions::Positions::compile(pattern)
            .map_or(Pattern::Engine(engine), |p| Pattern::Positions(Box::new(p)));
        Rc::new(matcher)
    });
    COMPILED.with(|c| {
        let mut c = c.borrow_mut();
        // A rule could build its pattern from the value: keep the memory bounded.
        if c.len() >= 256 {
            c.clear();
        }
        c.insert(pattern.to_string(), compiled.clone());
    });
    compiled
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

/// `value` as the CEL value a rule reads as `self`: what cel's own conversion of [`to_cel`]'s
/// value gives (`Context::add_variable_from_value`), built in one pass with its strings borrowed.
/// That conversion copies each map twice on the way (into cel's `Value` map, then every entry
/// again into its `Val` map) and every string, for the TrainJob's root rules of every job.
fn to_val(value: &Json) -> Box<dyn Val + '_> {
    match value {
        Json::Null => Box::new(CelNull),
        Json::Bool(b) => Box::new(CelBool::from(*b)),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Box::new(CelInt::from(i)),
            None => Box::new(CelDouble::from(n.as_f64().unwrap_or(f64::NAN))),
        },
        Json::String(s) => Box::new(CelString::from(s.as_str())),
        Json::Array(items) => Box::new(CelList::from(items.iter().map(to_val).collect::<Vec<_>>())),
        Json::Object(map) => {
            let entries = map.iter().map(|(k, v)| (CelMapKey::from(k.as_str()), to_val(v)));
            Box::new(CelMap::from(entries.collect::<HashMap<_, _>>()))
        }
    }
}

/// Whether `rule` is true with `self` bound to `value`.
pub fn holds(rule: &str, value: &Json) -> Result<bool, Failure> {
    Bound::new(value).holds(rule)
}

/// `self` bound to one value with the rules' functions, for every rule of its node: the value
/// is converted to CEL once, not once per rule (a node may hold several, and a TrainJob's root
/// rules see the whole object).
pub struct Bound<'v>(Context<'v, 'v>);

impl<'v> Bound<'v> {
    /// Binds `value` as `self` (converted to CEL once, its strings borrowed) in the rules'
    /// environment.
    pub fn new(value: &'v Json) -> Bound<'v> {
        let mut ctx = context(rules_env(), value);
        ctx.add_function("size", size).expect("the environment has no standard library");
        Bound(ctx)
    }

    /// Whether `rule` is true of the bound value.
    pub fn holds(&self, rule: &str) -> Result<bool, Failure> {
        let expr = parsed(rule)?;
        outcome(Value::resolve(&expr, &self.0))
    }
}

/// `rule` parsed, once per rule and thread: the same few rules run for every object of a paste
/// that may hold ten thousand jobs.
fn parsed(rule: &str) -> Result<std::rc::Rc<cel::common::ast::IdedExpr>, Failure> {
    use std::cell::RefCell;
    use std::rc::Rc;
    type Parsed = Result<Rc<cel::common::ast::IdedExpr>, Rc<cel::parser::ParseErrors>>;
    thread_local! {
        static PARSED: RefCell<HashMap<String, Parsed>> = RefCell::new(HashMap::new());
    }
    let known = PARSED.with(|p| p.borrow().get(rule).cloned());
    let expr = known.unwrap_or_else(|| {
        let expr = PrattParser::new().parse(rule).map(Rc::new).map_err(Rc::new);
        PARSED.with(|p| p.borrow_mut().insert(rule.to_string(), expr.clone()));
        expr
    });
    expr.map_err(|e| Failure::Other(e.to_string()))
}

fn context(env: Arc<Env>, value: &Json) -> Context<'_, '_> {
    let mut ctx = Context::with_env(env);
    ctx.add_variable_as_val("self", to_val(value));
    ctx.add_function("matches", matches).expect("matches is not a cel-rust overload without its regex feature");
    ctx
}

/// A rule's result as a verdict: its bool, or why it has none.
pub fn outcome(result: Result<Value, ExecutionError>) -> Result<bool, Failure> {
    match result {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(other) => Err(Failure::Other(format!("the rule gave {other:?}, not a bool"))),
        Err(ExecutionError::NoSuchOverload(_)) => Err(Failure::NoOverload),
        Err(e) => Err(Failure::Other(e.to_string())),
    }
}
