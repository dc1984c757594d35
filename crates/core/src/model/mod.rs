//! Typed serde models of the objects the widget writes and the migrator reads.
//!
//! They cover the fields the snippets and the migration touch. Everything else a user's
//! manifest carries is kept in `extra` maps, so nothing is silently lost on a round trip.

mod extra;
mod int32;
pub mod pod;
#[cfg(feature = "explain")]
pub(crate) mod tracked;
pub mod tree;
pub mod v1;
pub mod v2;
pub mod value;
pub mod vecmap;

use crate::model::vecmap::VecMap;
use serde::{Deserialize, Serialize};
pub use tree::ToTree;
pub use value::{to_value, Map, Number, Value};

/// A typed model read from a JSON tree, with the kind of mistake when it does not fit. It goes through
/// [`tracked`], the way the migrator and explain read the user's objects (to name the field at
/// fault), so each model's deserializer is compiled once into the converter module:
/// `serde_json::from_value` on an owned tree compiled the pod model a second time, for a
/// different deserializer.
#[cfg(feature = "explain")]
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    json: &serde_json::Value,
) -> Result<T, crate::model::tracked::Error> {
    crate::model::tracked::deserialize(json).map_err(crate::model::tracked::PathError::into_inner)
}

/// The `metadata` both APIs' objects carry: the fields the tools read, the rest kept in `extra`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// `metadata.name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `metadata.namespace`; `None` leaves it to `kubectl`'s context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `metadata.labels`, in the order written.
    #[serde(default, skip_serializing_if = "VecMap::is_empty")]
    pub labels: VecMap<String, String>,
    /// `metadata.annotations`, in the order written.
    #[serde(default, skip_serializing_if = "VecMap::is_empty")]
    pub annotations: VecMap<String, String>,
    /// Every other metadata field, kept as written.
    #[serde(flatten)]
    pub extra: Map,
}

impl ObjectMeta {
    /// Metadata with only a name.
    pub fn named(name: &str) -> Self {
        ObjectMeta { name: Some(name.to_string()), ..Default::default() }
    }

    pub(crate) fn with_label(mut self, key: &str, value: &str) -> Self {
        self.labels.insert(key.to_string(), value.to_string());
        self
    }

    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        *self == ObjectMeta::default()
    }
}

/// `json` as the API server stores it: every `null` member of an object removed, at any depth.
/// For a structural schema the API server prunes a `null` in a field that is not `nullable`
/// (k8s.io/apiextensions-apiserver pkg/apiserver/schema/defaulting/prunenulls.go), and no Trainer,
/// Training Operator or MPI Operator CRD marks a field `nullable`, so a key written with no value
/// (`command:`) is the same object as one without the key. Items of a list are kept as written.
/// Borrowed when there is none to remove (almost every manifest), so reading a document costs no
/// copy of its tree.
#[cfg(any(feature = "explain", feature = "yaml-input"))]
pub(crate) fn without_nulls(json: &serde_json::Value) -> std::borrow::Cow<'_, serde_json::Value> {
    use std::borrow::Cow;
    if has_null_member(json) {
        Cow::Owned(pruned(json))
    } else {
        Cow::Borrowed(json)
    }
}

/// [`without_nulls`] of a tree the caller owns: the tree itself when there is none to remove.
/// Explain's readers and the upgrade (built with `yaml-input`) call it.
#[cfg(any(feature = "explain", feature = "yaml-input"))]
pub(crate) fn into_without_nulls(json: serde_json::Value) -> serde_json::Value {
    if has_null_member(&json) {
        pruned(&json)
    } else {
        json
    }
}

#[cfg(any(feature = "explain", feature = "yaml-input"))]
fn has_null_member(json: &serde_json::Value) -> bool {
    use serde_json::Value as Json;
    match json {
        Json::Object(map) => map.values().any(|v| v.is_null() || has_null_member(v)),
        Json::Array(items) => items.iter().any(has_null_member),
        _ => false,
    }
}

#[cfg(any(feature = "explain", feature = "yaml-input"))]
fn pruned(json: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value as Json;
    match json {
        Json::Object(map) => {
            Json::Object(map.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), pruned(v))).collect())
        }
        Json::Array(items) => Json::Array(items.iter().map(pruned).collect()),
        other => other.clone(),
    }
}
