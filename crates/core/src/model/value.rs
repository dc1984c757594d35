//! The tree the YAML emitter walks: an insertion-ordered, JSON-shaped value.
//!
//! Why not `serde_json::Value`: in the widget it brought serde_json's error type (with every
//! `std::io` and parser message) and `indexmap` for a tree we only build and print; replacing it
//! took 2.7 KB off the gzipped widget. This one is a `Vec` of entries per map, and converts from
//! serde_json's tree where the migrator (a separate wasm module, and the CLI) still uses it.

use super::vecmap::VecMap;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, Serialize, Serializer};
use std::fmt;

/// A mapping's members, in the order they were written.
pub type Map = VecMap<String, Value>;

/// A YAML or JSON value as the snippets' models write it: the widget's own tree, without serde_json.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// `null`, and an absent field.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// A list.
    Array(Vec<Value>),
    /// A mapping.
    Object(Map),
}

/// Builds a `Value` from JSON-like syntax: `tree!({"name": "node", "ports": [2222]})`.
/// Map values and array items are single tokens: a literal, `null`, a nested `{}` or `[]`, a
/// variable, or any other expression in parentheses.
#[macro_export]
macro_rules! tree {
    (null) => {
        $crate::model::Value::Null
    };
    ([ $($item:tt),* $(,)? ]) => {
        $crate::model::Value::Array(vec![$($crate::tree!($item)),*])
    };
    ({ $($key:literal : $value:tt),* $(,)? }) => {{
        #[allow(unused_mut)]
        let mut map = $crate::model::Map::new();
        $(map.insert(::std::string::String::from($key), $crate::tree!($value));)*
        $crate::model::Value::Object(map)
    }};
    ($other:expr) => {
        $crate::model::Value::from($other)
    };
}

impl Value {
    /// The mapping, to change, when the value is one.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The value at `key` in a map, created as `null` when missing; a `null` becomes an empty
    /// map first. `None` when `self` is something else, rather than a panic.
    pub fn entry(&mut self, key: &str) -> Option<&mut Value> {
        if *self == Value::Null {
            *self = Value::Object(Map::new());
        }
        let map = self.as_object_mut()?;
        if !map.contains_key(key) {
            map.insert(key.to_string(), Value::Null);
        }
        map.get_mut(key)
    }

    /// The `i`th item of an array.
    pub fn item(&mut self, i: usize) -> Option<&mut Value> {
        match self {
            Value::Array(items) => items.get_mut(i),
            _ => None,
        }
    }

    /// `entry` along a path of keys: `v.at(&["spec", "mlPolicy"])`.
    pub fn at(&mut self, path: &[&str]) -> Option<&mut Value> {
        path.iter().try_fold(self, |v, key| v.entry(key))
    }
}

/// Integers as `Int` whenever they fit, so equal numbers compare equal. Floats only come from
/// manifests the migrator reads; the widget's own models have none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A whole number that fits in an `i64`.
    Int(i64),
    /// A whole number above `i64::MAX`.
    UInt(u64),
    /// Any other number.
    Float(f64),
}

impl From<u64> for Number {
    fn from(n: u64) -> Self {
        i64::try_from(n).map_or(Number::UInt(n), Number::Int)
    }
}

/// As YAML reads it back: serde_json's shortest round-trip text for finite floats (what the
/// migrator printed before this type existed), and YAML's own words for the others.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Number::Int(n) => write!(f, "{n}"),
            Number::UInt(n) => write!(f, "{n}"),
            Number::Float(x) => match finite_float_text(x) {
                Some(n) => write!(f, "{n}"),
                None if x.is_nan() => f.write_str(".nan"),
                None if x > 0.0 => f.write_str(".inf"),
                None => f.write_str("-.inf"),
            },
        }
    }
}

/// serde_json's shortest round-trip text of a finite float (`None` for the others).
#[cfg(not(all(target_arch = "wasm32", feature = "js-floats")))]
fn finite_float_text(x: f64) -> Option<impl fmt::Display> {
    serde_json::Number::from_f64(x)
}

/// The widget's models hold no floats, and serde_json's float printer is 2.4 KB of its gzipped
/// wasm, so the widget asks the browser: JavaScript's shortest round-trip text, with `.0` added
/// to a whole number as serde_json writes it. The same number; only the exponent's notation can
/// differ (`1e+21` where serde_json writes `1e21`).
#[cfg(all(target_arch = "wasm32", feature = "js-floats"))]
fn finite_float_text(x: f64) -> Option<impl fmt::Display> {
    let text = String::from(js_sys::Number::from(x).to_string_with_radix(10).ok().filter(|_| x.is_finite())?);
    let whole = text.bytes().all(|b| b == b'-' || b.is_ascii_digit());
    Some(if whole { text + ".0" } else { text })
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Self {
                Value::Number(Number::Int(i64::from(n)))
            }
        }
    )*};
}
from_integer!(i32, i64, u16, u32);

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Number(n.into())
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Self {
        Value::Number((n as u64).into())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Self {
        Value::String(s.clone())
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Value::Array(items)
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Self {
        Value::Object(map)
    }
}

/// A number of serde_json's tree, as this tree holds it (and the YAML emitter writes it).
impl From<&serde_json::Number> for Number {
    fn from(n: &serde_json::Number) -> Self {
        match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Number::Int(i),
            (_, Some(u)) => Number::UInt(u),
            _ => Number::Float(n.as_f64().unwrap_or(f64::NAN)),
        }
    }
}

/// The migrator's serde_json trees, read in place: converting one does not copy it first.
impl From<&serde_json::Value> for Value {
    fn from(v: &serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.into()),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => Value::Array(items.iter().map(Value::from).collect()),
            // serde_json's map holds each key once: nothing to deduplicate.
            serde_json::Value::Object(map) => {
                Value::Object(Map::from_distinct(map.iter().map(|(k, v)| (k.clone(), Value::from(v))).collect()))
            }
        }
    }
}

/// Serializes a model into the tree the YAML emitter walks. Our models hold only maps, strings,
/// integers and bools, so this cannot fail; a failure would be a programming error, which we
/// surface as an empty object rather than a panic in the reader's browser.
pub fn to_value<T: Serialize + ?Sized>(model: &T) -> Value {
    model.serialize(TreeSerializer).unwrap_or(Value::Object(Map::new()))
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(Number::Int(n)) => s.serialize_i64(*n),
            Value::Number(Number::UInt(n)) => s.serialize_u64(*n),
            Value::Number(Number::Float(x)) => s.serialize_f64(*x),
            Value::String(v) => s.serialize_str(v),
            Value::Array(items) => s.collect_seq(items),
            Value::Object(map) => map.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML or JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(n.into())
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(n.into())
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::Number(Number::Float(n)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(held(seq.size_hint()));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut entries = Vec::with_capacity(held(access.size_hint()));
        while let Some(entry) = access.next_entry::<String, Value>()? {
            entries.push(entry);
        }
        Ok(Value::Object(Map::from_entries(entries)))
    }
}

/// The room to make for a list or mapping of `hint` members, read whole: the deserializers a tree
/// is read from (a JSON tree in memory, serde's buffer of a flattened struct's other fields) hint
/// exactly what they hold, already in memory. serde's own collections trust a hint only up to
/// 1 MiB and then double: a nodeSelector of 150,000 keys held room for 262,144, and for a moment
/// both the old and the new room (issue 36). A hint is trusted up to [`MOST_MEMBERS_HELD`], more
/// than any input reads as (the input door's `MAX_VALUES`, about 420,000): room for more is made
/// as members come.
pub(crate) fn held(hint: Option<usize>) -> usize {
    hint.unwrap_or(0).min(MOST_MEMBERS_HELD)
}

/// A list read into room for exactly its members ([`held`]): what serde does for a `Vec<T>` (its
/// words when the value is no list, `a sequence`), without doubling.
pub(crate) struct Listed<T>(pub(crate) Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Listed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
            type Value = Vec<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut items = Vec::with_capacity(held(seq.size_hint()));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(items)
            }
        }
        d.deserialize_seq(ListVisitor(std::marker::PhantomData)).map(Listed)
    }
}

/// The most members room is made for at once, above the most values any input reads as.
const MOST_MEMBERS_HELD: usize = 1 << 20;

/// A model could not become a tree (never, for our models; see `to_value`, which drops it).
/// It carries no message: as a zero-sized type its `Result`s are no bigger than a `Value`,
/// which keeps the serialize code generated per field type of every model small in the widget.
#[derive(Debug)]
pub(crate) struct TreeError;

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("this value has no YAML tree")
    }
}

impl std::error::Error for TreeError {}

impl ser::Error for TreeError {
    fn custom<T: fmt::Display>(_: T) -> Self {
        TreeError
    }
}

/// A serde `Serializer` whose output is a `Value`.
struct TreeSerializer;

/// Collects a sequence, a tuple or a map (entries in order).
pub(crate) struct SeqBuilder(Vec<Value>);

/// Entries in order; repeated keys (a flattened `extra` map naming a field again) are resolved
/// once at the end, as `Map::insert` would have.
pub(crate) struct MapBuilder {
    entries: Vec<(String, Value)>,
    key: Option<String>,
}

// The generic serialize_* methods run once per field type of every model; what does not depend
// on the type lives here, once (inlined, it cost about 10 KB of wasm).
impl MapBuilder {
    #[inline(never)]
    fn push_field(&mut self, key: &'static str, value: Value) {
        self.entries.push((key.to_string(), value));
    }

    #[inline(never)]
    fn finish(self) -> Value {
        Value::Object(Map::from_entries(self.entries))
    }

    #[inline(never)]
    fn push_value(&mut self, value: Value) -> Result<(), TreeError> {
        let key = self.key.take().ok_or(TreeError)?;
        self.entries.push((key, value));
        Ok(())
    }
}

/// A variant carrying data, `{variant: data}` as serde_json writes it.
pub(crate) struct VariantBuilder<B> {
    variant: &'static str,
    inner: B,
}

fn tagged(variant: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(variant.to_string(), value);
    Value::Object(map)
}

impl Serializer for TreeSerializer {
    type Ok = Value;
    type Error = TreeError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = VariantBuilder<SeqBuilder>;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = VariantBuilder<MapBuilder>;

    fn serialize_bool(self, v: bool) -> Result<Value, TreeError> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, TreeError> {
        Ok(i64::from(v).into())
    }
    fn serialize_i16(self, v: i16) -> Result<Value, TreeError> {
        Ok(i64::from(v).into())
    }
    fn serialize_i32(self, v: i32) -> Result<Value, TreeError> {
        Ok(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Value, TreeError> {
        Ok(v.into())
    }
    fn serialize_u8(self, v: u8) -> Result<Value, TreeError> {
        Ok(u32::from(v).into())
    }
    fn serialize_u16(self, v: u16) -> Result<Value, TreeError> {
        Ok(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Value, TreeError> {
        Ok(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Value, TreeError> {
        Ok(v.into())
    }
    fn serialize_f32(self, v: f32) -> Result<Value, TreeError> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, TreeError> {
        Ok(Value::Number(Number::Float(v)))
    }
    fn serialize_char(self, v: char) -> Result<Value, TreeError> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, TreeError> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, TreeError> {
        Ok(Value::Array(v.iter().map(|b| u32::from(*b).into()).collect()))
    }
    fn serialize_none(self) -> Result<Value, TreeError> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Value, TreeError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, TreeError> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Value, TreeError> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Value, TreeError> {
        Ok(Value::String(variant.to_string()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<Value, TreeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Value, TreeError> {
        Ok(tagged(variant, v.serialize(self)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, TreeError> {
        Ok(SeqBuilder(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, TreeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqBuilder, TreeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<SeqBuilder>, TreeError> {
        Ok(VariantBuilder { variant, inner: self.serialize_seq(Some(len))? })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapBuilder, TreeError> {
        Ok(MapBuilder { entries: Vec::new(), key: None })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<MapBuilder, TreeError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<MapBuilder>, TreeError> {
        Ok(VariantBuilder { variant, inner: self.serialize_map(Some(len))? })
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = TreeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), TreeError> {
        self.0.push(v.serialize(TreeSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, TreeError> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = TreeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), TreeError> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Value, TreeError> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = TreeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), TreeError> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Value, TreeError> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for VariantBuilder<SeqBuilder> {
    type Ok = Value;
    type Error = TreeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), TreeError> {
        ser::SerializeSeq::serialize_element(&mut self.inner, v)
    }
    fn end(self) -> Result<Value, TreeError> {
        Ok(tagged(self.variant, ser::SerializeSeq::end(self.inner)?))
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = TreeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), TreeError> {
        self.key = Some(match key.serialize(TreeSerializer)? {
            Value::String(s) => s,
            Value::Number(n) => n.to_string(),
            _ => return Err(TreeError), // a map key must be a string or a number
        });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), TreeError> {
        let value = v.serialize(TreeSerializer)?;
        self.push_value(value)
    }
    fn end(self) -> Result<Value, TreeError> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = TreeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), TreeError> {
        let value = v.serialize(TreeSerializer)?;
        self.push_field(key, value);
        Ok(())
    }
    fn end(self) -> Result<Value, TreeError> {
        Ok(self.finish())
    }
}

impl ser::SerializeStructVariant for VariantBuilder<MapBuilder> {
    type Ok = Value;
    type Error = TreeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), TreeError> {
        ser::SerializeStruct::serialize_field(&mut self.inner, key, v)
    }
    fn end(self) -> Result<Value, TreeError> {
        Ok(tagged(self.variant, ser::SerializeStruct::end(self.inner)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_model_becomes_a_tree_in_field_order() {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Job {
            kind: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            num_nodes: Option<u32>,
            labels: Vec<(&'static str, bool)>,
        }
        let tree = to_value(&Job { kind: "TrainJob", num_nodes: None, labels: vec![("a", true)] });
        assert_eq!(serde_json::to_string(&tree).unwrap(), r#"{"kind":"TrainJob","labels":[["a",true]]}"#);
    }

    #[test]
    fn numbers_from_manifests_survive_both_conversions() {
        let manifest = json!({"cpu": 0.5, "replicas": 3, "offset": -2, "big": u64::MAX, "huge": 1e21});
        let tree = Value::from(&manifest);
        assert_eq!(serde_json::to_value(&tree).unwrap(), manifest);
        let yaml = crate::yaml::join(&crate::yaml::emit(&tree));
        assert_eq!(yaml, "cpu: 0.5\nreplicas: 3\noffset: -2\nbig: 18446744073709551615\nhuge: 1e+21\n");
        assert_eq!(serde_yaml::from_str::<serde_json::Value>(&yaml).unwrap(), manifest, "YAML reads the same numbers");
    }

    #[test]
    fn paths_into_something_that_is_not_a_map_give_none() {
        let mut v = tree!({"spec": "text"});
        assert!(v.at(&["spec", "mlPolicy"]).is_none());
        *v.at(&["metadata", "name"]).unwrap() = tree!("job");
        assert_eq!(v, tree!({"spec": "text", "metadata": {"name": "job"}}));
    }

    /// A list or mapping read whole holds room for its members only: past serde's 1 MiB of
    /// trust in a hint (13,107 variables, 18,724 members of a tree), its doubling held room for
    /// up to twice as many (issue 36). The nodeSelector is read as a flattened struct's other
    /// field, through serde's buffer of it.
    #[test]
    fn a_list_or_mapping_read_whole_holds_room_for_its_members_only() {
        let members = 20_000;
        let env: Vec<serde_json::Value> =
            (0..members).map(|i| json!({"name": format!("V{i}"), "value": "x"})).collect();
        let selector: serde_json::Map<String, serde_json::Value> =
            (0..members).map(|i| (format!("k{i}"), json!("v"))).collect();
        let labels: serde_json::Map<String, serde_json::Value> =
            (0..members).map(|i| (format!("l{i}"), json!("v"))).collect();
        let meta: crate::model::ObjectMeta = crate::model::tracked::deserialize(&json!({"labels": labels})).unwrap();
        assert_eq!(meta.labels.capacity(), members);
        let pod = json!({"containers": [{"name": "c", "env": env}], "nodeSelector": selector});
        let spec: crate::model::pod::PodSpec = crate::model::tracked::deserialize(&pod).unwrap();
        assert_eq!(spec.containers[0].env.capacity(), members);
        let Some(Value::Object(selector)) = spec.extra.get("nodeSelector") else { panic!("{:?}", spec.extra) };
        assert_eq!((selector.len(), selector.capacity()), (members, members));
        let list: Value = crate::model::tracked::deserialize(&json!(vec![json!(1); members])).unwrap();
        let Value::Array(items) = list else { panic!("{list:?}") };
        assert_eq!(items.capacity(), members);
    }

    /// `env` read into exact room says what serde says of a value that is no list.
    #[test]
    fn an_env_that_is_no_list_is_refused_in_serde_words() {
        let pod = json!({"containers": [{"name": "c", "env": "x"}]});
        let error = crate::model::tracked::deserialize::<crate::model::pod::PodSpec>(&pod).unwrap_err();
        let serde_words = serde_json::from_value::<Vec<crate::model::pod::EnvVar>>(json!("x")).unwrap_err();
        assert_eq!((error.path(), error.inner().to_string()), ("containers[0].env", serde_words.to_string()));
    }
}
