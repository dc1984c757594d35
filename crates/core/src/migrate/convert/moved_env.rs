//! The trainer's variables moved from the job's tree into its TrainJob, for a caller that gives
//! the tree up (`convert_owned`): a container can hold 200,000 of them, and writing each from the
//! model built a map per variable beside the tree's own (22 MiB on a 4 MiB job). Where every one
//! is written as the model writes it ([`plain_env`]), the model does not read them either
//! (`tree_args::read_without_lists`): the conversion reads them in the tree ([`EnvInTree`]).

use super::*;

/// The trainer's variables as the model holds them once converted, and where the main container
/// they came from holds them in the job's tree: the keys and the container's index from the
/// document's root to its `env` list. Where the model was read without them (`in_tree`), `vars`
/// are only those the conversion added, which follow the tree's.
pub(super) struct TrainerEnv {
    pub(super) vars: Vec<EnvVar>,
    pub(super) at: Vec<TreeStep>,
    /// The values the conversion rewrote in the tree's variables, by index, where the model was
    /// read without them ([`EnvInTree`]).
    pub(super) in_tree: Option<Vec<(usize, String)>>,
}

/// The trainer's variables where the model was read without them and they stay in the job's
/// tree until the caller moves them: the list, every item plain ([`plain_env`]), and the values
/// rewritten so far, by index.
pub(super) struct EnvInTree<'a> {
    pub(super) list: &'a [Value],
    pub(super) rewritten: Vec<(usize, String)>,
}

impl<'a> EnvInTree<'a> {
    /// Each variable's name and value (`None` where it has none), as the model would read them.
    pub(super) fn vars(&self) -> impl Iterator<Item = (&'a str, Option<&'a str>)> {
        self.list.iter().map(|item| {
            let text = |key: &str| item.get(key).and_then(Value::as_str);
            (text("name").unwrap_or_default(), text("value"))
        })
    }
}

/// The `env` of the replica spec `raw`'s main container (the one named `preferred`, else the
/// first, as `main_container` finds it in the model) where every variable is plain
/// ([`is_plain`]): the model reads each without an error and writes it back byte for byte. The
/// empty list left in its place while the model reads the replica counts as one.
pub(super) fn plain_env<'a>(raw: &'a mut Value, preferred: &str) -> Option<&'a mut Vec<Value>> {
    let containers = raw.get_mut("template")?.get_mut("spec")?.get_mut("containers")?.as_array_mut()?;
    let main = main_of(containers.iter().map(|c| c.get("name").and_then(Value::as_str).unwrap_or_default()), preferred);
    let env = containers.get_mut(main)?.get_mut("env")?.as_array_mut()?;
    env.iter().all(is_plain).then_some(env)
}

/// The `env` of the container at `main` in the replica spec `raw`, where every variable is plain.
pub(super) fn plain_list(raw: &Value, main: usize) -> Option<&[Value]> {
    let env = raw.get("template")?.get("spec")?.get("containers")?.get(main)?.get("env")?.as_array()?;
    env.iter().all(is_plain).then_some(env.as_slice())
}

/// Whether `item` is a variable as the model writes one (`to_value`): `name`, then `value` where
/// it has one, both text, and nothing else.
fn is_plain(item: &Value) -> bool {
    let Some(members) = item.as_object() else { return false };
    let mut members = members.iter();
    let name = matches!(members.next(), Some((k, Value::String(_))) if k == "name");
    let value = match members.next() {
        Some((k, Value::String(_))) => k == "value" && members.next().is_none(),
        None => true,
        Some(_) => false,
    };
    name && value
}

/// One step from a tree's root to a value in it.
pub(super) enum TreeStep {
    Key(String),
    Index(usize),
}

/// Writes `env` into the TrainJob among `objects`, where `trainjob_value` left its place empty:
/// each variable that is the tree's item at the same index, as the model would write it, is
/// moved from `doc`; any other (one the conversion rewrote or added, one written with other
/// members or `valueFrom`) is written from the model, as `trainjob_value` writes them.
pub(super) fn move_into(objects: &mut [Value], env: TrainerEnv, doc: &mut Value) -> Result<(), Error> {
    if let Some(rewritten) = env.in_tree {
        return move_tree_list(objects, env.vars, &env.at, rewritten, doc);
    }
    let mut written = list_at(doc, &env.at);
    let mut items = Vec::with_capacity(env.vars.len());
    for (i, var) in env.vars.into_iter().enumerate() {
        match written.as_mut().and_then(|list| list.get_mut(i)) {
            Some(item) if is_written_as(item, &var) => items.push(std::mem::take(item)),
            _ => items.push(to_value(&var)?),
        }
    }
    *trainer_field(objects, "env")? = Value::Array(items);
    Ok(())
}

/// Writes the variables the model was read without into the TrainJob among `objects`: the
/// tree's list at `at` itself, its rewritten values replaced, then `added` (the conversion's own,
/// written from the model, as `trainjob_value` writes them).
fn move_tree_list(
    objects: &mut [Value],
    added: Vec<EnvVar>,
    at: &[TreeStep],
    rewritten: Vec<(usize, String)>,
    doc: &mut Value,
) -> Result<(), Error> {
    let Some(list) = list_at(doc, at) else {
        return Err(Error::Internal("the trainer's variables are not in the job's tree".into()));
    };
    let mut list = std::mem::take(list);
    for (i, value) in rewritten {
        if let Some(place) = list.get_mut(i).and_then(|item| item.get_mut("value")) {
            *place = Value::String(value);
        }
    }
    list.reserve_exact(added.len());
    for var in &added {
        list.push(to_value(var)?);
    }
    *trainer_field(objects, "env")? = Value::Array(list);
    Ok(())
}

/// The place `trainjob_value` left for the trainer's `field` in the TrainJob among `objects`.
pub(super) fn trainer_field<'o>(objects: &'o mut [Value], field: &str) -> Result<&'o mut Value, Error> {
    objects
        .iter_mut()
        .find(|o| o["kind"] == "TrainJob")
        .and_then(|job| job.get_mut("spec")?.get_mut("trainer")?.get_mut(field))
        .ok_or_else(|| Error::Internal(format!("the TrainJob's trainer has no place for its {field}")))
}

/// The list at `at` in `doc`, if there is one.
pub(super) fn list_at<'a>(doc: &'a mut Value, at: &[TreeStep]) -> Option<&'a mut Vec<Value>> {
    let mut value = doc;
    for step in at {
        value = match step {
            TreeStep::Key(key) => value.get_mut(key.as_str())?,
            TreeStep::Index(i) => value.get_mut(*i)?,
        };
    }
    value.as_array_mut()
}

/// Whether `item` is what the model writes for `var` (`to_value`: `name`, then `value` where it
/// has one, and nothing else), member for member and in that order, so that moving it changes
/// no byte of the output.
fn is_written_as(item: &Value, var: &EnvVar) -> bool {
    let Some(members) = item.as_object() else { return false };
    let mut members = members.iter();
    let name_matches = matches!(members.next(), Some((k, Value::String(n))) if k == "name" && *n == var.name);
    let value_matches = match (&var.value, members.next()) {
        (Some(v), Some((k, Value::String(written)))) => k == "value" && written == v && members.next().is_none(),
        (None, None) => true,
        _ => false,
    };
    name_matches && value_matches && var.value_from.is_none()
}
