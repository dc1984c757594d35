//! Reading a model that keeps every field it does not name in its `extra` map (a pod spec's
//! `nodeSelector` and `tolerations`, a container's `lifecycle`, ...), key by key: the value of
//! each field it names is read into that field, every other value into `extra`, in the order
//! the manifest writes them.
//!
//! Why not serde's `#[serde(flatten)]` for reading: its derive buffers the value of every field
//! the struct does not name as serde's private `Content` tree, and reads `extra` from that
//! buffer once the struct ends, so a pod spec's nodeSelector of 150,000 keys was held twice
//! while it was read, as the buffer and as the map (about 17 MB of explain's 64 MB of heap on
//! many-selector-keys; issue 36). Here each value is read once, into the map it stays in.
//!
//! What a reader sees stays what the derive gave (the tests below compare the two on every
//! value of a pod replaced by a value of each JSON type): a struct with a flattened field is
//! read as a map (`deserialize_map`, so a list in its place is no struct either), and it says
//! serde's words for a value of the wrong type, a missing or repeated field and a value that is
//! no map (`struct PodSpec`), at the same path, in the same order (a missing field is named
//! after every value is read, in the order the struct declares its fields). Writing stays the
//! derive's: a flattened `Serialize` writes the map's entries as they are.

use super::{Map, Value};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// A model with named fields and an `extra` map for the rest, read by [`deserialize`].
pub(crate) trait WithExtra<'de>: Default {
    /// serde's words for the model in an error: `struct` and its name.
    const EXPECTING: &'static str;
    /// The fields it names, as a manifest writes them, in the order the struct declares them.
    const FIELDS: &'static [&'static str];
    /// Those of [`WithExtra::FIELDS`] a manifest must write, in the same order.
    const REQUIRED: &'static [&'static str];

    /// Reads the map's next value into `field`, one of [`WithExtra::FIELDS`].
    fn read_field<A: MapAccess<'de>>(&mut self, field: &'static str, map: &mut A) -> Result<(), A::Error>;

    /// The map that holds every other field.
    fn extra(&mut self) -> &mut Map;
}

/// `T` read from `d`'s map: the `Deserialize` of every [`WithExtra`] model.
pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: WithExtra<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(ExtraVisitor(PhantomData))
}

/// A model's [`WithExtra`] and its `Deserialize` ([`deserialize`]) from one list of its fields,
/// so each field's name is written once: as a manifest writes it, the struct's field it is read
/// into, and, for a field read through a wrapper (`as Listed<EnvVar>`: a list read into exactly
/// its room), the wrapper whose `.0` is the value. `required` names the fields a manifest must
/// write, in the order the struct declares them.
macro_rules! with_extra {
    ($model:ident, required [$($required:literal),*], { $($key:literal => $field:ident $(as $wrapper:ty)?),* $(,)? }) => {
        impl<'de> $crate::model::extra::WithExtra<'de> for $model {
            const EXPECTING: &'static str = concat!("struct ", stringify!($model));
            const FIELDS: &'static [&'static str] = &[$($key),*];
            const REQUIRED: &'static [&'static str] = &[$($required),*];

            fn read_field<A: serde::de::MapAccess<'de>>(&mut self, field: &'static str, map: &mut A) -> Result<(), A::Error> {
                match field {
                    $($key => self.$field = $crate::model::extra::with_extra!(@read map $(, $wrapper)?),)*
                    // `deserialize` asks only for a name of FIELDS, each an arm above.
                    _ => map.next_value::<serde::de::IgnoredAny>().map(drop)?,
                }
                Ok(())
            }

            fn extra(&mut self) -> &mut $crate::model::Map {
                &mut self.extra
            }
        }

        impl<'de> serde::Deserialize<'de> for $model {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::model::extra::deserialize(d)
            }
        }
    };
    (@read $map:ident) => { $map.next_value()? };
    (@read $map:ident, $wrapper:ty) => { $map.next_value::<$wrapper>()?.0 };
}
pub(crate) use with_extra;

struct ExtraVisitor<T>(PhantomData<T>);

impl<'de, T: WithExtra<'de>> Visitor<'de> for ExtraVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut model = T::default();
        let mut read = vec![false; T::FIELDS.len()];
        // Most models hold a few other fields; a big one is one value (a nodeSelector), read
        // whole into its own room.
        let mut extra = Vec::new();
        while let Some(Key(key)) = map.next_key()? {
            match T::FIELDS.iter().position(|field| *field == key) {
                Some(i) => {
                    // The derive refuses a field written twice before it reads the second value.
                    if std::mem::replace(&mut read[i], true) {
                        return Err(de::Error::duplicate_field(T::FIELDS[i]));
                    }
                    model.read_field(T::FIELDS[i], &mut map)?;
                }
                None => extra.push((key.into_owned(), map.next_value::<Value>()?)),
            }
        }
        // The first field missing, in the order the struct declares them, as the derive names it.
        if let Some((missing, _)) =
            T::FIELDS.iter().zip(&read).find(|(field, read)| !**read && T::REQUIRED.contains(field))
        {
            return Err(de::Error::missing_field(missing));
        }
        // The keys of one map: `from_entries` keeps a repeated one's last value, as the derive's
        // map of its buffer did.
        *model.extra() = Map::from_entries(extra);
        Ok(model)
    }
}

/// A key of the map, borrowed from the input where the deserializer lends it (a JSON tree
/// does): a named field's key is only compared, never copied.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }

            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_owned())))
            }

            fn visit_string<E>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key)))
            }
        }
        // As the derive reads a field's name.
        d.deserialize_identifier(KeyVisitor)
    }
}

#[cfg(all(test, feature = "explain"))]
mod tests {
    use crate::model::pod::PodSpec;
    use crate::model::tracked::{self, tests::mutants, Error};
    use crate::model::{to_value, Value};
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    /// The models as serde's derive read them before this module (17a4eb2's model/pod.rs,
    /// `#[serde(flatten)]` for `extra`): what the reading must still give, value and error.
    mod derived {
        use crate::model::pod::{ContainerPort, EnvVar};
        use crate::model::vecmap::VecMap;
        use crate::model::{Map, Value};
        use serde::{Deserialize, Serialize};

        #[derive(Debug, Deserialize, Serialize)]
        pub(super) struct Resources {
            #[serde(default, skip_serializing_if = "VecMap::is_empty")]
            limits: Map,
            #[serde(default, skip_serializing_if = "VecMap::is_empty")]
            requests: Map,
            #[serde(flatten)]
            extra: Map,
        }

        #[derive(Debug, Deserialize, Serialize)]
        #[serde(rename_all = "camelCase")]
        pub(super) struct Container {
            name: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            image: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            image_pull_policy: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            security_context: Option<Value>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            command: Vec<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            args: Vec<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            env: Vec<EnvVar>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            ports: Vec<ContainerPort>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            resources: Option<Resources>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            readiness_probe: Option<Value>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            volume_mounts: Vec<Value>,
            #[serde(flatten)]
            extra: Map,
        }

        #[derive(Debug, Deserialize, Serialize)]
        #[serde(rename_all = "camelCase")]
        pub(super) struct PodSpec {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            service_account_name: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            security_context: Option<Value>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            init_containers: Vec<Container>,
            containers: Vec<Container>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            restart_policy: Option<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            volumes: Vec<Value>,
            #[serde(flatten)]
            extra: Map,
        }
    }

    /// `T` read from `json` as the CLI reads it (`tracked`), as a tree to compare, or the error
    /// with its path.
    fn read<'de, T: Deserialize<'de> + Serialize>(json: &'de serde_json::Value) -> Result<Value, (String, Error)> {
        tracked::deserialize::<T>(json)
            .map(|model| to_value(&model))
            .map_err(|e| (e.path().to_string(), e.into_inner()))
    }

    /// Every value of a pod spec that sets every field of the three models (and others between
    /// them) replaced by a value of each JSON type, one at a time: the same model, or the same
    /// error at the same path, as the derive.
    #[test]
    fn every_mutant_of_a_pod_reads_as_the_derive_read_it() {
        let pod: serde_json::Value = serde_yaml::from_str(
            "hostNetwork: true\nserviceAccountName: sa\nsecurityContext: {runAsUser: 1}\n\
             initContainers: [{name: init, image: i:1, stdin: true}]\nnodeSelector: {b: '1', a: '2'}\n\
             containers:\n- lifecycle: {preStop: {exec: {command: [x]}}}\n  name: c\n  image: a:1\n  \
             imagePullPolicy: Always\n  securityContext: {privileged: true}\n  command: [python]\n  args: [--x]\n  \
             env: [{name: A, value: b}]\n  ports: [{name: p, containerPort: 1}]\n  \
             resources: {claims: [{name: gpu}], limits: {cpu: 500m}, requests: {memory: 1Gi}}\n  \
             readinessProbe: {tcpSocket: {port: 1}}\n  volumeMounts: [{name: v, mountPath: /d}]\n  tty: true\n\
             restartPolicy: Never\ntolerations: [{key: k, operator: Exists}]\nvolumes: [{name: v, emptyDir: {}}]\n\
             dnsPolicy: None\n",
        )
        .unwrap();
        let replacements = [
            json!(null),
            json!(true),
            json!(-1),
            json!(1.5),
            json!("text"),
            json!([]),
            json!([1, {}]),
            json!({}),
            json!({"name": "n", "containers": []}),
        ];
        let mut errors = 0;
        for tree in mutants(&pod, &replacements) {
            let ours = read::<PodSpec>(&tree);
            assert_eq!(ours, read::<derived::PodSpec>(&tree), "{tree}");
            errors += usize::from(ours.is_err());
        }
        assert!(errors > 150, "{errors}");
    }

    /// What the comparison above rests on, said outright: the other fields in the order written
    /// among the named ones, and serde's words for what does not fit, in the order met.
    #[test]
    fn other_fields_keep_their_order_and_misfits_keep_serde_words() {
        let pod = json!({"nodeSelector": {"b": "1", "a": "2"}, "containers": [{"name": "c"}], "tolerations": [],
                         "restartPolicy": "Never", "hostNetwork": true});
        let spec: PodSpec = tracked::deserialize(&pod).unwrap();
        assert_eq!(spec.extra.keys().collect::<Vec<_>>(), ["nodeSelector", "tolerations", "hostNetwork"]);
        assert_eq!(spec.extra.get("nodeSelector"), Some(&to_value(&json!({"b": "1", "a": "2"}))));
        let error = |pod: serde_json::Value| {
            let e = tracked::deserialize::<PodSpec>(&pod).unwrap_err();
            (e.path().to_string(), e.inner().to_string())
        };
        assert_eq!(
            error(json!({"restartPolicy": 3, "containers": 5})),
            ("restartPolicy".into(), "invalid type: integer `3`, expected a string".into())
        );
        assert_eq!(
            error(json!({"containers": [{"image": "i"}], "initContainers": 5})),
            ("containers[0]".into(), "missing field `name`".into())
        );
        assert_eq!(error(json!({"nodeSelector": {}})), (".".into(), "missing field `containers`".into()));
        assert_eq!(error(json!([])), (".".into(), "invalid type: sequence, expected struct PodSpec".into()));
    }
}
