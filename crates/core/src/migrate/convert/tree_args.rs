//! The main containers' args and env of a one-template job (PyTorchJob, XGBoostJob, JAXJob)
//! read where the job's tree holds them, for a caller that gives the tree up (`convert_owned`): a
//! container can hold 190,000 args or 66,000 variables, and an alias can give the Master's to the
//! Worker too. The model held a copy of each replica's, and the TrainJob a third written from the
//! model, beside the tree's (a 2 MiB job took 19× its size); now the model reads none of them and
//! the TrainJob's are the trainer's lists moved from the tree (the env's: `moved_env`).

use super::moved_env::{self, TreeStep};
use super::*;

/// Each replica's model, read from the job's tree with the args and env of its main container
/// left out of it (set aside, and put back once read), in the order of the job's replica specs;
/// the errors are those the model gives with them in: a list of text, or of variables written as
/// the model writes them (`moved_env::plain_env`), gives none.
pub(super) type ReadWithoutLists = Vec<Result<ReplicaSpec, Error>>;

/// The replicas of `doc` read by their model without their main containers' args and env, where
/// `source` runs one template for every node and some main container has args, all of them text,
/// or variables, all of them plain; `None` where nothing is set aside (the caller reads the models
/// itself, as for a job it keeps).
pub(super) fn read_without_lists(doc: &mut Value, source: Source) -> Option<ReadWithoutLists> {
    let kind = source.kind();
    if !matches!(source, Source::V1(V1Kind::PyTorchJob | V1Kind::XgBoostJob | V1Kind::JaxJob)) {
        return None;
    }
    let field = kind.replica_specs_field();
    let specs = doc.get_mut("spec")?.get_mut(field)?.as_object_mut()?;
    let lists = |raw: &mut Value| -> [Option<Vec<Value>>; 2] {
        let args = args_of_text(raw, kind.container_name()).filter(|args| !args.is_empty()).map(std::mem::take);
        let env = moved_env::plain_env(raw, kind.container_name()).filter(|env| !env.is_empty()).map(std::mem::take);
        [args, env]
    };
    let set_aside: Vec<(String, [Option<Vec<Value>>; 2])> = specs
        .iter_mut()
        .map(|(key, raw)| (key.clone(), lists(raw)))
        .filter(|(_, lists)| lists.iter().any(Option::is_some))
        .collect();
    if set_aside.is_empty() {
        return None;
    }
    let read = specs.iter().map(|(key, raw)| read_replica(raw, &format!("spec.{field}.{key}"))).collect();
    for (key, [args, env]) in set_aside {
        let Some(raw) = specs.get_mut(&key) else { continue };
        if let (Some(args), Some(place)) = (args, args_of_text(raw, kind.container_name())) {
            *place = args;
        }
        if let (Some(env), Some(place)) = (env, moved_env::plain_env(raw, kind.container_name())) {
            *place = env;
        }
    }
    Some(read)
}

/// The args of the replica spec `raw`'s main container (the one named `preferred`, else the
/// first, as `main_container` finds it in the model) where they are a list of text; the empty
/// list left in their place while the model reads the replica counts as one.
fn args_of_text<'a>(raw: &'a mut Value, preferred: &str) -> Option<&'a mut Vec<Value>> {
    let containers = raw.get_mut("template")?.get_mut("spec")?.get_mut("containers")?.as_array_mut()?;
    let main = main_of(containers.iter().map(|c| c.get("name").and_then(Value::as_str).unwrap_or_default()), preferred);
    let args = containers.get_mut(main)?.get_mut("args")?.as_array_mut()?;
    args.iter().all(Value::is_string).then_some(args)
}

/// A container's args as the conversion reads them: the model's, or the tree's where the model
/// was read without them ([`read_without_lists`]); the tree's are all text.
#[derive(Clone, Copy)]
pub(super) enum Args<'a> {
    Model(&'a [String]),
    Tree(&'a [Value]),
}

impl<'a> Args<'a> {
    pub(super) fn len(self) -> usize {
        match self {
            Args::Model(args) => args.len(),
            Args::Tree(args) => args.len(),
        }
    }

    pub(super) fn iter(self) -> impl Iterator<Item = &'a str> {
        let (model, tree) = match self {
            Args::Model(args) => (args, &[][..]),
            Args::Tree(args) => (&[][..], args),
        };
        model.iter().map(String::as_str).chain(tree.iter().map(|a| a.as_str().unwrap_or_default()))
    }
}

/// The trainer's args left out of the TrainJob for the caller to move from the tree: where the
/// trainer's container holds them in the job's tree, and the items the conversion rewrote
/// (`$(MASTER_ADDR)` and the like), by index, which are written as rewritten.
pub(super) struct TrainerArgs {
    pub(super) at: Vec<TreeStep>,
    pub(super) rewritten: Vec<(usize, String)>,
}

/// Moves the trainer's args from `doc` into the TrainJob among `objects`, where `trainjob_value`
/// left their place empty: the tree's list itself, its rewritten items replaced.
pub(super) fn move_into(objects: &mut [Value], args: TrainerArgs, doc: &mut Value) -> Result<(), Error> {
    let Some(list) = super::moved_env::list_at(doc, &args.at) else {
        return Err(Error::Internal("the trainer's args are not in the job's tree".into()));
    };
    let mut list = std::mem::take(list);
    for (i, rewritten) in args.rewritten {
        if let Some(item) = list.get_mut(i) {
            *item = Value::String(rewritten);
        }
    }
    *super::moved_env::trainer_field(objects, "args")? = Value::Array(list);
    Ok(())
}

/// The trainer's args where they stay in the job's tree until the caller moves them
/// ([`TrainerArgs`]): the list, where it is, and the items rewritten so far.
pub(super) struct TrainerArgsInTree<'a> {
    pub(super) list: &'a [Value],
    pub(super) at: Vec<TreeStep>,
    pub(super) rewritten: Vec<(usize, String)>,
}

impl<'a> Conversion<'a> {
    /// The args of `replica`'s main container (at `main` among its containers): the tree's
    /// where the model was read without them ([`read_without_lists`]), else the model's.
    pub(super) fn main_args<'s>(&'s self, replica: &'s Replica<'a>, main: usize) -> Args<'s> {
        let model = &replica.spec.template.spec.containers[main].args;
        match tree_list(replica.raw, main) {
            Some(list) if self.lists_in_tree && model.is_empty() => Args::Tree(list),
            _ => Args::Model(model),
        }
    }
}

/// The args of the container at `main` in the replica spec `raw`, as a list.
pub(super) fn tree_list(raw: &Value, main: usize) -> Option<&[Value]> {
    raw.get("template")?.get("spec")?.get("containers")?.get(main)?.get("args")?.as_array().map(Vec::as_slice)
}
