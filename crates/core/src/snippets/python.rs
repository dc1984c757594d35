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
        let mut out = String::new();
        self.write_at(&mut out, indent, column);
        out
    }

    /// [`Py::render_at`], written onto the end of `out`. Every piece is pushed into the one
    /// string, not formatted and collected into lists to be joined: that was the lists'
    /// collecting code and `format!` per item in the widget's wasm.
    fn write_at(&self, out: &mut String, indent: usize, column: usize) {
        let start = out.len();
        self.write_flat(out);
        // +1 leaves room for the trailing comma or closing parenthesis after the value.
        if column + (out.len() - start) < WIDTH {
            return;
        }
        let inner = indent + 4;
        let item = |out: &mut String, name: &str, between: &str, v: &Py| {
            push_spaces(out, inner);
            out.push_str(name);
            out.push_str(between);
            v.write_at(out, inner, inner + name.len() + between.len());
            out.push_str(",\n");
        };
        let close = match self {
            Py::Call(c) => {
                out.truncate(start);
                out.push_str(&c.func);
                out.push_str("(\n");
                for a in &c.args {
                    item(out, "", "", a);
                }
                for (k, v) in &c.kwargs {
                    item(out, k, "=", v);
                }
                ')'
            }
            Py::Dict(items) => {
                out.truncate(start);
                out.push_str("{\n");
                for (k, v) in items {
                    item(out, &quote(k), ": ", v);
                }
                '}'
            }
            Py::List(items) => {
                out.truncate(start);
                out.push_str("[\n");
                for v in items {
                    item(out, "", "", v);
                }
                ']'
            }
            _ => return,
        };
        push_spaces(out, indent);
        out.push(close);
    }

    /// The value on one line, written onto the end of `out`.
    fn write_flat(&self, out: &mut String) {
        match self {
            Py::Raw(r) => out.push_str(r),
            Py::Str(v) => out.push_str(&quote(v)),
            Py::Int(n) => out.push_str(&crate::text::decimal(*n)),
            Py::Dict(items) => {
                out.push('{');
                let mut first = true;
                for (k, v) in items {
                    separate(out, &mut first);
                    out.push_str(&quote(k));
                    out.push_str(": ");
                    v.write_flat(out);
                }
                out.push('}');
            }
            Py::List(items) => {
                out.push('[');
                let mut first = true;
                for v in items {
                    separate(out, &mut first);
                    v.write_flat(out);
                }
                out.push(']');
            }
            Py::Call(c) => {
                out.push_str(&c.func);
                out.push('(');
                let mut first = true;
                for v in &c.args {
                    separate(out, &mut first);
                    v.write_flat(out);
                }
                for (k, v) in &c.kwargs {
                    separate(out, &mut first);
                    out.push_str(k);
                    out.push('=');
                    v.write_flat(out);
                }
                out.push(')');
            }
        }
    }
}

/// `, ` before every item of a one-line list but the first.
fn separate(out: &mut String, first: &mut bool) {
    if !std::mem::take(first) {
        out.push_str(", ");
    }
}

fn push_spaces(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push(' ');
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
        // Written into `out` as they go, as `Py`'s values are: on one line, or one name a line
        // where that line would be too long.
        for (module, names) in &self.imports {
            let start = out.len();
            out.push_str("from ");
            out.push_str(module);
            out.push_str(" import ");
            let list_start = out.len();
            let mut first = true;
            for n in names {
                separate(&mut out, &mut first);
                out.push_str(n);
            }
            if out.len() - start > WIDTH {
                out.truncate(list_start);
                out.push_str("(\n");
                for n in names {
                    out.push_str("    ");
                    out.push_str(n);
                    out.push_str(",\n");
                }
                out.push(')');
            }
            out.push('\n');
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
