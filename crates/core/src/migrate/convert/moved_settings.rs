//! The pod spec's fields the model does not name (`nodeSelector`, `tolerations`, ...) of a job
//! with one replica type, moved from the job's tree into the pod settings, for a caller that gives
//! the tree up (`convert_owned`): a `nodeSelector` can hold 150,000 keys, and the model read them
//! into its `extra` beside the tree, to be written out again as a third map (4 MiB of input held
//! 14× its size). With one replica type no other template is compared with this one
//! (`master_worker`), so nothing reads them in the tree after.

use super::*;
use crate::model::pod::PodSpec;

/// The members of the only replica's `template.spec` that the model keeps in `extra`, taken out
/// of `doc` in the order they are written (where the model's `extra` holds them), where `source`
/// runs one template for every node and the job has one replica type; none otherwise. A member
/// the model keeps in `extra` is never refused, so the model reads the rest as it read it all.
pub(super) fn take(doc: &mut Value, source: Source) -> Vec<(String, Value)> {
    if !matches!(source, Source::V1(V1Kind::PyTorchJob | V1Kind::XgBoostJob | V1Kind::JaxJob)) {
        return Vec::new();
    }
    let field = source.kind().replica_specs_field();
    let Some(specs) = doc.get_mut("spec").and_then(|s| s.get_mut(field)).and_then(Value::as_object_mut) else {
        return Vec::new();
    };
    if specs.len() != 1 {
        return Vec::new();
    }
    let pod = specs.values_mut().next().and_then(|only| only.get_mut("template")?.get_mut("spec")?.as_object_mut());
    let Some(pod) = pod else { return Vec::new() };
    let unnamed: Vec<String> = pod.keys().filter(|k| !PodSpec::NAMED.contains(&k.as_str())).cloned().collect();
    unnamed.into_iter().filter_map(|key| pod.shift_remove(&key).map(|value| (key, value))).collect()
}
