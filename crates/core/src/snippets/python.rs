//! A tiny writer for the Python snippets: calls with keyword arguments, dicts, lists and
//! strings, laid out the way `black` would for short calls. Building calls as data (rather than
//! formatting strings by hand) is what lets tests bind every call to the real SDK signatures.

/// A Python value as a snippet writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Py {
    /// Code written as is: a name, an attribute, an expression.
    Raw(String),
    /// A string, written quoted ([`quote`]).
    Str(String),
    /// An integer.
    Int(i64),
    /// A dict with string keys, in the order given.
    Dict(Vec<(String, Py)>),
    /// A list.
    List(Vec<Py>),
    /// A call of a class or a function.
    Call(Call),
}

/// A call: what the tests bind to the SDK's real signatures (tests/python/check_snippets.py).
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The callee as written (`client.create_job`, `CustomTrainer`).
    pub func: String,
    /// Positional arguments.
    pub args: Vec<Py>,
    /// Keyword arguments, in the order written.
    pub kwargs: Vec<(String, Py)>,
}

impl Call {
    /// A call of `func` with no argument yet.
    pub fn new(func: &str) -> Self {
        Call { func: func.into(), args: Vec::new(), kwargs: Vec::new() }
    }

    /// Adds a positional argument.
    pub fn arg(mut self, v: Py) -> Self {
        self.args.push(v);
        self
    }

    /// Adds a keyword argument.
    pub fn kw(mut self, name: &str, v: Py) -> Self {
        self.kwargs.push((name.into(), v));
        self
    }

    pub(crate) fn kw_opt(self, name: &str, v: Option<Py>) -> Self {
        match v {
            Some(v) => self.kw(name, v),
            None => self,
        }
    }

    pub(crate) fn into_py(self) -> Py {
        Py::Call(self)
    }
}

/// Code written as is ([`Py::Raw`]).
pub fn raw(s: &str) -> Py {
    Py::Raw(s.into())
}

/// A string literal ([`Py::Str`]).
pub fn s(v: &str) -> Py {
    Py::Str(v.into())
}

/// A Python string literal in double quotes (Python reads the same escapes as YAML).
pub fn quote(v: &str) -> String {
    crate::yaml::double_quoted(v)
}

const WIDTH: usize = 88;

impl Py {
    /// Renders a value whose first line starts at column `indent` (a statement). Short values
    /// stay on one line.
    pub fn render(&self, indent: usize) -> String {
        self.render_at(indent, indent)
    }

    /// `indent`: the indentation of the line the value starts on; `column`: where on that line
    /// it starts. Continuation lines are indented from `indent`, as black does.
    fn render_at(&self, indent: usize, column: usize) -> String {
        let flat = self.flat();
        // +1 leaves room for the trailing comma or closing parenthesis after the value.
        if column + flat.len() < WIDTH {
            return flat;
        }
        let inner = indent + 4;
        let pad = " ".repeat(inner);
        let close = " ".repeat(indent);
        match self {
            Py::Call(c) => {
                let mut out = format!("{}(\n", c.func);
                for a in &c.args {
                    out.push_str(&format!("{pad}{},\n", a.render_at(inner, inner)));
                }
                for (k, v) in &c.kwargs {
                    out.push_str(&format!("{pad}{k}={},\n", v.render_at(inner, inner + k.len() + 1)));
                }
                out.push_str(&close);
                out.push(')');
                out
            }
            Py::Dict(items) => {
                let mut out = String::from("{\n");
                for (k, v) in items {
                    let key = quote(k);
                    out.push_str(&format!("{pad}{key}: {},\n", v.render_at(inner, inner + key.len() + 2)));
                }
                out.push_str(&close);
                out.push('}');
                out
            }
            Py::List(items) => {
                let mut out = String::from("[\n");
                for v in items {
                    out.push_str(&format!("{pad}{},\n", v.render_at(inner, inner)));
                }
                out.push_str(&close);
                out.push(']');
                out
            }
            _ => flat,
        }
    }

    fn flat(&self) -> String {
        match self {
            Py::Raw(r) => r.clone(),
            Py::Str(v) => quote(v),
            Py::Int(n) => n.to_string(),
            Py::Dict(items) => {
                let inner: Vec<_> = items.iter().map(|(k, v)| format!("{}: {}", quote(k), v.flat())).collect();
                format!("{{{}}}", crate::text::join(&inner, ", "))
            }
            Py::List(items) => {
                let inner: Vec<_> = items.iter().map(Py::flat).collect();
                format!("[{}]", crate::text::join(&inner, ", "))
            }
            Py::Call(c) => {
                let mut parts: Vec<String> = c.args.iter().map(Py::flat).collect();
                parts.extend(c.kwargs.iter().map(|(k, v)| format!("{k}={}", v.flat())));
                format!("{}({})", c.func, crate::text::join(&parts, ", "))
            }
        }
    }
}

/// Assembles a script: sorted `from x import a, b` lines, then the body.
pub(crate) struct Script {
    modules: Vec<String>,
    imports: Vec<(String, Vec<String>)>,
    body: Vec<String>,
}

impl Script {
    pub(crate) fn new() -> Self {
        Script { modules: Vec::new(), imports: Vec::new(), body: Vec::new() }
    }

    /// `import module`
    pub(crate) fn import_module(&mut self, module: &str) {
        insert_sorted(&mut self.modules, module);
    }

    /// `from module import name`
    pub(crate) fn import(&mut self, module: &str, name: &str) {
        let at = match self.imports.binary_search_by(|(m, _)| m.as_str().cmp(module)) {
            Ok(at) => at,
            Err(at) => {
                self.imports.insert(at, (module.into(), Vec::new()));
                at
            }
        };
        insert_sorted(&mut self.imports[at].1, name);
    }

    pub(crate) fn line(&mut self, line: impl Into<String>) {
        self.body.push(line.into());
    }

    pub(crate) fn blank(&mut self) {
        self.body.push(String::new());
    }

    pub(crate) fn finish(self) -> String {
        let mut out = String::new();
        for module in &self.modules {
            out.push_str("import ");
            out.push_str(module);
            out.push('\n');
        }
        for (module, names) in &self.imports {
            let one_line = format!("from {module} import {}", crate::text::join(names, ", "));
            if one_line.len() <= WIDTH {
                out.push_str(&one_line);
                out.push('\n');
            } else {
                out.push_str(&format!("from {module} import (\n"));
                for n in names.iter() {
                    out.push_str(&format!("    {n},\n"));
                }
                out.push_str(")\n");
            }
        }
        if !self.imports.is_empty() || !self.modules.is_empty() {
            out.push('\n');
        }
        for l in &self.body {
            out.push_str(l);
            out.push('\n');
        }
        out
    }
}

/// Adds `item` to a sorted, repeat-free list where it belongs. Kept sorted as it grows, the
/// lists need no sort at the end (each `sort` instance cost the widget KBs of wasm).
fn insert_sorted(list: &mut Vec<String>, item: &str) {
    if let Err(at) = list.binary_search_by(|x| x.as_str().cmp(item)) {
        list.insert(at, item.into());
    }
}

impl Default for Script {
    fn default() -> Self {
        Script::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_calls_break_one_argument_per_line() {
        let c = Call::new("CustomTrainer")
            .kw("func", raw("train"))
            .kw("num_nodes", Py::Int(4))
            .kw("resources_per_node", Py::Dict(vec![("gpu".into(), Py::Int(2))]))
            .kw("image", s("registry.example.com/a/very/long/image/name/for/the/trainer:1.0.0"));
        let out = c.into_py().render(0);
        assert!(out.starts_with("CustomTrainer(\n    func=train,\n    num_nodes=4,\n"), "{out}");
        assert!(out.ends_with(",\n)"), "{out}");
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}
