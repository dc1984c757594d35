//! The trainer's variables moved from the job's tree into its TrainJob, for a caller that gives
//! the tree up (`convert_owned`): a container can hold 200,000 of them, and writing each from the
//! model built a map per variable beside the tree's own (22 MiB on a 4 MiB job).

use super::*;

/// The trainer's variables as the model holds them once converted, and where the main container
/// they came from holds them in the job's tree: the keys and the container's index from the
/// document's root to its `env` list.
pub(super) struct TrainerEnv {
    pub(super) vars: Vec<EnvVar>,
    pub(super) at: Vec<TreeStep>,
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
