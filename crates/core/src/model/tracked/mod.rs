//! A typed model read from a `&serde_json::Value` that names the field at fault when it does not
//! fit (`spec.template.spec.containers[0].ports[1].containerPort`): what the `serde_path_to_error`
//! crate does, with the same paths and serde's same messages, in a fraction of its wasm.
//! That crate wraps any deserializer, so it wraps every visitor of every model type too (its
//! monomorphs were about 87 KB of the converter module before wasm-opt, about 16 KB gzipped);
//! here the input is always a JSON tree, so this module walks it itself, as serde_json's `&Value`
//! deserializer does, and each map and sequence accessor knows the key or index of each value it
//! hands out.
//!
//! The error is this module's own [`Error`], the kind of mistake as serde's `de::Error` methods
//! name it (a missing field, a value of the wrong type, ...), so the API server's words for it
//! ([`crate::field_error`]) are chosen by its kind, never by its text. It prints serde's message.
//!
//! The path is the one serde_path_to_error gives: where the innermost value being read was
//! when the error came up (a scalar of the wrong type; a struct missing a field, at the struct),
//! `.`-separated keys with `[i]` for an index, and `.` for the root.

mod error;

pub(crate) use error::{float_text, Error, Found, Misfit, Wanted};
use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::Value;
use std::cell::RefCell;
use std::fmt::Write as _;

/// A model that did not fit, and where.
#[derive(Debug)]
pub(crate) struct PathError {
    path: String,
    inner: Error,
}

impl PathError {
    /// Where the error came up, as serde_path_to_error prints its path.
    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// What kind of mistake it is.
    pub(crate) fn inner(&self) -> &Error {
        &self.inner
    }

    pub(crate) fn into_inner(self) -> Error {
        self.inner
    }
}

/// `T` from `json`, or the error with the path of the value it came up at.
pub(crate) fn deserialize<'de, T: de::Deserialize<'de>>(json: &'de Value) -> Result<T, PathError> {
    read_tracked(json, Track { first_error: RefCell::new(None), leaving: None, lists_left: &[] })
}

/// [`deserialize`], with the map at `at` (its keys from the root) handing out only the keys in
/// `named`: its other members stay in the tree, unread, as if the manifest did not write them.
/// For a caller that never reads the `extra` map a model keeps every other member of that map in
/// (model/extra.rs): a value read into `extra` is never refused, so leaving it changes no error,
/// only what is copied out of the tree.
pub(crate) fn deserialize_leaving<'de, T: de::Deserialize<'de>>(
    json: &'de Value,
    at: &'static [&'static str],
    named: &'static [&'static str],
) -> Result<T, PathError> {
    deserialize_leaving_lists(json, at, named, &[])
}

/// [`deserialize_leaving`], with each list at one of `lists` also left in the tree: its items
/// are read one at a time, each refused as the model refuses it and then dropped, and the model
/// is handed an empty list. For a caller that moves such a list out of the tree into the model
/// once the whole reading has been admitted (explain's V1 reading): its errors, their paths and
/// their order stay the whole reading's, and no item is copied out of the tree to be judged.
pub(crate) fn deserialize_leaving_lists<'de, T: de::Deserialize<'de>>(
    json: &'de Value,
    at: &'static [&'static str],
    named: &'static [&'static str],
    lists: &'static [LeftList],
) -> Result<T, PathError> {
    read_tracked(
        json,
        Track { first_error: RefCell::new(None), leaving: Some(Leaving { at, named }), lists_left: lists },
    )
}

/// A list a reading leaves in the tree ([`deserialize_leaving_lists`]): where it is (its keys from
/// the root, `*` for any index of a list above it) and how each of its items is judged.
pub(crate) struct LeftList {
    at: &'static [&'static str],
    judge: for<'a, 'de> fn(Tracked<'a, 'de>) -> Result<(), Error>,
}

impl LeftList {
    /// The list at `at`, whose items the model reads as `T`s.
    pub(crate) const fn of<T: de::DeserializeOwned>(at: &'static [&'static str]) -> LeftList {
        LeftList { at, judge: judged_as::<T> }
    }
}

/// An item read as a `T` and dropped: the model's own reading of it, so it is refused as the
/// model refuses it.
fn judged_as<T: de::DeserializeOwned>(item: Tracked<'_, '_>) -> Result<(), Error> {
    T::deserialize(item).map(drop)
}

fn read_tracked<'de, T: de::Deserialize<'de>>(json: &'de Value, track: Track) -> Result<T, PathError> {
    match T::deserialize(Tracked { value: json, at: &At::Root, track: &track }) {
        Ok(t) => Ok(t),
        Err(inner) => Err(PathError { path: track.first_error.into_inner().unwrap_or_else(|| ".".into()), inner }),
    }
}

/// Where a value sits: a chain of parents on the stack, written out only when an error comes up.
enum At<'a, 'de> {
    Root,
    Key(&'a At<'a, 'de>, &'de str),
    Index(&'a At<'a, 'de>, usize),
}

impl At<'_, '_> {
    /// serde_path_to_error's `Display` of its path: keys joined by `.`, an index as `[i]` right
    /// after what precedes it, `.` for the root.
    fn path(&self) -> String {
        let mut segments = Vec::new();
        let mut at = self;
        loop {
            match at {
                At::Root => break,
                At::Key(parent, _) | At::Index(parent, _) => {
                    segments.push(at);
                    at = parent;
                }
            }
        }
        if segments.is_empty() {
            return ".".into();
        }
        let mut out = String::new();
        for (i, segment) in segments.iter().rev().enumerate() {
            match segment {
                At::Key(_, key) => {
                    if i > 0 {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                At::Index(_, index) => {
                    let _ = write!(out, "[{index}]");
                }
                At::Root => {}
            }
        }
        out
    }

    /// Whether this is the place `path` names (its keys from the root).
    fn is(&self, path: &[&str]) -> bool {
        match (self, path.split_last()) {
            (At::Root, None) => true,
            (At::Key(parent, key), Some((last, rest))) => key == last && parent.is(rest),
            _ => false,
        }
    }

    /// [`At::is`], where a `*` of `path` stands for any index (and for no key).
    fn is_like(&self, path: &[&str]) -> bool {
        match (self, path.split_last()) {
            (At::Root, None) => true,
            (At::Key(parent, key), Some((last, rest))) => *last != "*" && key == last && parent.is_like(rest),
            (At::Index(parent, _), Some((&"*", rest))) => parent.is_like(rest),
            _ => false,
        }
    }
}

/// What one reading shares: the path of the first (innermost) place an error passed through,
/// and the map whose other members it leaves in the tree ([`deserialize_leaving`]).
struct Track {
    first_error: RefCell<Option<String>>,
    leaving: Option<Leaving>,
    /// The lists whose items are judged and left in the tree ([`deserialize_leaving_lists`]).
    lists_left: &'static [LeftList],
}

/// The map at `at` hands out only the keys in `named`.
#[derive(Clone, Copy)]
struct Leaving {
    at: &'static [&'static str],
    named: &'static [&'static str],
}

impl Track {
    /// How the items of the list at `at` are judged, when the reading leaves that list.
    fn left_list_at(&self, at: &At) -> Option<&LeftList> {
        self.lists_left.iter().find(|list| at.is_like(list.at))
    }

    /// The keys the map at `at` hands out: `None` for all of them.
    fn named_at(&self, at: &At) -> Option<&'static [&'static str]> {
        self.leaving.filter(|leaving| at.is(leaving.at)).map(|leaving| leaving.named)
    }

    fn trigger(&self, at: &At, error: Error) -> Error {
        let mut path = self.first_error.borrow_mut();
        if path.is_none() {
            *path = Some(at.path());
        }
        error
    }
}

/// A value being read, where it sits, and what the reading shares.
#[derive(Clone, Copy)]
struct Tracked<'a, 'de> {
    value: &'de Value,
    at: &'a At<'a, 'de>,
    track: &'a Track,
}

/// serde_json's `Number::deserialize_any`: the number as the widest type that holds it.
fn visit_number<'de, V: Visitor<'de>>(n: &serde_json::Number, visitor: V) -> Result<V::Value, Error> {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => visitor.visit_u64(u),
        (None, Some(i)) => visitor.visit_i64(i),
        _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
    }
}

impl<'a, 'de> Tracked<'a, 'de> {
    /// serde_json's `visit_array_ref`, handing out each element with its index; a list the
    /// reading leaves ([`LeftList`]) has each item judged in turn and is handed out empty.
    fn seq<V: Visitor<'de>>(self, items: &'de [Value], visitor: V) -> Result<V::Value, Error> {
        if let Some(left) = self.track.left_list_at(self.at) {
            for (index, value) in items.iter().enumerate() {
                let at = At::Index(self.at, index);
                (left.judge)(Tracked { value, at: &at, track: self.track }).map_err(|e| self.track.trigger(&at, e))?;
            }
            return visitor.visit_seq(&mut Items { items: [].iter(), index: 0, at: self.at, track: self.track });
        }
        let mut access = Items { items: items.iter(), index: 0, at: self.at, track: self.track };
        let seq = visitor.visit_seq(&mut access)?;
        if access.items.len() == 0 {
            Ok(seq)
        } else {
            Err(de::Error::invalid_length(items.len(), &"fewer elements in array"))
        }
    }

    /// serde_json's `Map::deserialize_any`, handing out each value with its key.
    fn map<V: Visitor<'de>>(self, map: &'de serde_json::Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
        let named = self.track.named_at(self.at);
        let mut access = Entries { entries: map.iter(), named, value: None, at: self.at, track: self.track };
        let out = visitor.visit_map(&mut access)?;
        if access.entries.len() == 0 {
            Ok(out)
        } else {
            Err(de::Error::invalid_length(map.len(), &"fewer elements in map"))
        }
    }

    fn tracked<T>(&self, result: Result<T, Error>) -> Result<T, Error> {
        result.map_err(|e| self.track.trigger(self.at, e))
    }

    /// serde_json's error for a value of the wrong type (`Value::invalid_type`), with what the
    /// method asked for, when it asked for a kind.
    #[cold]
    fn invalid_type(&self, expected: &dyn de::Expected, wanted: Option<Wanted>) -> Error {
        let unexpected = match self.value {
            Value::Null => de::Unexpected::Unit,
            Value::Bool(b) => de::Unexpected::Bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => de::Unexpected::Unsigned(u),
                (None, Some(i)) => de::Unexpected::Signed(i),
                _ => de::Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => de::Unexpected::Str(s),
            Value::Array(_) => de::Unexpected::Seq,
            Value::Object(_) => de::Unexpected::Map,
        };
        let error: Error = de::Error::invalid_type(unexpected, expected);
        self.track.trigger(
            self.at,
            match wanted {
                Some(kind) => error.wanting(kind),
                None => error,
            },
        )
    }

    /// A scalar's visitor: what it refuses (`u32` out of range) is what this method asked for.
    fn leaf<T>(&self, result: Result<T, Error>, wanted: Wanted) -> Result<T, Error> {
        self.tracked(result.map_err(|e| e.wanting(wanted)))
    }
}

/// The number methods of serde_json's `impl Deserializer for &Value`: a number is visited as the
/// widest type that holds it (the visitor says whether it fits), anything else is of the wrong
/// type; each method with the kind it asks for.
macro_rules! numbers {
    ($($method:ident => $wanted:expr),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.value {
                Value::Number(n) => self.leaf(visit_number(n, visitor), $wanted),
                _ => Err(self.invalid_type(&visitor, Some($wanted))),
            }
        }
    )*};
}

/// The string methods of serde_json's `impl Deserializer for &Value`.
macro_rules! strings {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.value {
                Value::String(s) => self.leaf(visitor.visit_borrowed_str(s), Wanted::String),
                _ => Err(self.invalid_type(&visitor, Some(Wanted::String))),
            }
        }
    )*};
}

/// An integer of `bits` bits, signed or not.
const fn integer(bits: u8, signed: bool) -> Wanted {
    Wanted::Integer { bits, signed }
}

/// Each method does what serde_json's `impl Deserializer for &Value` does, with this module's
/// error, and a map or a sequence it visits is walked by [`Entries`] or [`Items`].
impl<'de> Deserializer<'de> for Tracked<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let result = match self.value {
            Value::Array(items) => self.seq(items, visitor),
            Value::Object(map) => self.map(map, visitor),
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => visit_number(n, visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
        };
        self.tracked(result)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let result = match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        };
        self.tracked(result)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        let result = visitor.visit_newtype_struct(self);
        self.tracked(result)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Bool(b) => self.leaf(visitor.visit_bool(*b), Wanted::Boolean),
            _ => Err(self.invalid_type(&visitor, Some(Wanted::Boolean))),
        }
    }

    numbers!(
        deserialize_i8 => integer(8, true),
        deserialize_i16 => integer(16, true),
        deserialize_i32 => integer(32, true),
        deserialize_i64 => integer(64, true),
        deserialize_i128 => integer(128, true),
        deserialize_u8 => integer(8, false),
        deserialize_u16 => integer(16, false),
        deserialize_u32 => integer(32, false),
        deserialize_u64 => integer(64, false),
        deserialize_u128 => integer(128, false),
        deserialize_f32 => Wanted::Number,
        deserialize_f64 => Wanted::Number
    );

    strings!(deserialize_char, deserialize_str, deserialize_string, deserialize_identifier);

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::String(s) => self.tracked(visitor.visit_borrowed_str(s)),
            _ => self.deserialize_seq(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => self.tracked(visitor.visit_unit()),
            _ => Err(self.invalid_type(&visitor, None)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(items) => {
                let result = self.seq(items, visitor);
                self.tracked(result)
            }
            _ => Err(self.invalid_type(&visitor, Some(Wanted::Array))),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => {
                let result = self.map(map, visitor);
                self.tracked(result)
            }
            _ => Err(self.invalid_type(&visitor, Some(Wanted::Object))),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(_) => self.deserialize_seq(visitor),
            _ => self.deserialize_map(visitor),
        }
    }

    /// An enum is a string (a unit variant) or a map with one key, the variant, whose value is
    /// read at that key; serde_path_to_error names the variant in the path of what goes wrong
    /// after the variant is known.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let variant = |name: &'de str, value| Variant { name, value, at: self.at, track: self.track };
        let result = match self.value {
            Value::String(name) => visitor.visit_enum(variant(name, None)),
            Value::Object(map) => {
                let mut entries = map.iter();
                match (entries.next(), entries.next()) {
                    (Some((name, value)), None) => visitor.visit_enum(variant(name, Some(value))),
                    _ => Err(de::Error::invalid_value(de::Unexpected::Map, &"map with a single key")),
                }
            }
            _ => Err(self.invalid_type(&"string or map", None)),
        };
        self.tracked(result)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.tracked(visitor.visit_unit())
    }
}

/// An enum's variant and, when written as a map of one key, its value: serde_json's
/// `EnumRefDeserializer` and `VariantRefDeserializer`.
struct Variant<'a, 'de> {
    name: &'de str,
    value: Option<&'de Value>,
    at: &'a At<'a, 'de>,
    track: &'a Track,
}

impl<'a, 'de> Variant<'a, 'de> {
    /// Reads the variant's value at `<enum>.<variant>`, or says why there is none to read.
    fn read<T>(
        self,
        expected: &'static str,
        read: impl FnOnce(Tracked<'_, 'de>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let at = At::Key(self.at, self.name);
        let result = match self.value {
            Some(value) => read(Tracked { value, at: &at, track: self.track }),
            None => Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &expected)),
        };
        result.map_err(|e| self.track.trigger(&at, e))
    }
}

impl<'a, 'de> EnumAccess<'de> for Variant<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let variant = seed.deserialize(StrDeserializer::<Error>::new(self.name))?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            None => Ok(()),
            Some(_) => self.read("unit variant", |value| <() as de::Deserialize>::deserialize(value)),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        self.read("newtype variant", |value| seed.deserialize(value))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.read("tuple variant", |value| match value.value {
            Value::Array(items) if items.is_empty() => visitor.visit_unit(),
            Value::Array(items) => value.seq(items, visitor),
            _ => Err(value.invalid_type(&"tuple variant", None)),
        })
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        self.read("struct variant", |value| match value.value {
            Value::Object(map) => value.map(map, visitor),
            _ => Err(value.invalid_type(&"struct variant", None)),
        })
    }
}

/// A JSON array's elements, each read at its index.
struct Items<'a, 'de> {
    items: std::slice::Iter<'de, Value>,
    index: usize,
    at: &'a At<'a, 'de>,
    track: &'a Track,
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(value) = self.items.next() else { return Ok(None) };
        let at = At::Index(self.at, self.index);
        self.index += 1;
        seed.deserialize(Tracked { value, at: &at, track: self.track })
            .map(Some)
            .map_err(|e| self.track.trigger(&at, e))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// A JSON object's entries, each value read at its key. Keys are read as serde_json reads an
/// object's keys into the models (strings: field names and map keys).
struct Entries<'a, 'de> {
    entries: serde_json::map::Iter<'de>,
    /// The only keys handed out, when the reading leaves the others in the tree.
    named: Option<&'static [&'static str]>,
    value: Option<(&'de str, &'de Value)>,
    at: &'a At<'a, 'de>,
    track: &'a Track,
}

impl<'de> MapAccess<'de> for Entries<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let named = self.named;
        let handed_out = |(key, _): &(&String, &Value)| named.is_none_or(|named| named.contains(&key.as_str()));
        let Some((key, value)) = self.entries.find(handed_out) else { return Ok(None) };
        self.value = Some((key.as_str(), value));
        seed.deserialize(BorrowedStrDeserializer::new(key.as_str()))
            .map(Some)
            .map_err(|e| self.track.trigger(&At::Key(self.at, key.as_str()), e))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some((key, value)) = self.value.take() else {
            return Err(de::Error::custom("value is missing"));
        };
        let at = At::Key(self.at, key);
        seed.deserialize(Tracked { value, at: &at, track: self.track }).map_err(|e| self.track.trigger(&at, e))
    }

    fn size_hint(&self) -> Option<usize> {
        // How many it hands out is not known before they are looked at when some are left.
        self.named.is_none().then(|| self.entries.len())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::pod::PodSpec;
    use crate::model::v1::ReplicaSpec;
    use crate::model::v2::{TrainJob, TrainingRuntime};
    use crate::model::ObjectMeta;

    /// What serde_path_to_error says (the crate this module replaces, a dev-dependency only).
    fn upstream<'de, T: de::Deserialize<'de>>(json: &'de Value) -> Result<T, (String, String)> {
        serde_path_to_error::deserialize(json).map_err(|e| (e.path().to_string(), e.inner().to_string()))
    }

    fn ours<'de, T: de::Deserialize<'de>>(json: &'de Value) -> Result<T, (String, String)> {
        deserialize(json).map_err(|e| (e.path().to_string(), e.inner().to_string()))
    }

    /// Every value of the tree replaced, one at a time, by each of `replacements`.
    pub(crate) fn mutants(tree: &Value, replacements: &[Value]) -> Vec<Value> {
        fn walk(node: &Value, pointer: String, out: &mut Vec<String>) {
            out.push(pointer.clone());
            match node {
                Value::Object(map) => map
                    .iter()
                    .for_each(|(k, v)| walk(v, format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1")), out)),
                Value::Array(items) => {
                    items.iter().enumerate().for_each(|(i, v)| walk(v, format!("{pointer}/{i}"), out))
                }
                _ => {}
            }
        }
        let mut pointers = Vec::new();
        walk(tree, String::new(), &mut pointers);
        let mut out = Vec::new();
        for pointer in pointers {
            for r in replacements {
                let mut t = tree.clone();
                *t.pointer_mut(&pointer).unwrap() = r.clone();
                out.push(t);
            }
        }
        out
    }

    /// A value of each JSON type, to put in place of each value of a tree ([`mutants`]).
    fn replacements() -> [Value; 10] {
        [
            Value::Null,
            serde_json::json!(true),
            serde_json::json!(-1),
            serde_json::json!(4294967296u64),
            serde_json::json!(1.5),
            serde_json::json!("text"),
            serde_json::json!([]),
            serde_json::json!([1, "a", {}]),
            serde_json::json!({}),
            serde_json::json!({"": {"x": 1}, "name": 2}),
        ]
    }

    /// A V1 replica spec with a value in every field the models name, and others.
    fn replica() -> Value {
        serde_yaml::from_str(
            "replicas: 2\nrestartPolicy: OnFailure\ntemplate:\n  metadata: {labels: {a: b}, annotations: {c: d}}\n  \
         spec:\n    containers:\n    - name: pytorch\n      image: a:1\n      command: [python, t.py]\n      \
         args: [--x]\n      ports: [{name: pytorchjob-port, containerPort: 23456}]\n      \
         env: [{name: A, value: b}, {name: B, valueFrom: {fieldRef: {fieldPath: x}}}]\n      \
         resources: {limits: {nvidia.com/gpu: 1, cpu: 500m}}\n      volumeMounts: [{name: v, mountPath: /d}]\n    \
         volumes: [{name: v, emptyDir: {}}]\n    nodeSelector: {k: v}\n    tolerations: [{key: k, operator: Exists}]\n",
        )
        .unwrap()
    }

    fn same<T: de::DeserializeOwned + std::fmt::Debug + PartialEq>(trees: &[Value]) -> usize {
        let mut errors = 0;
        for tree in trees {
            let (a, b) = (upstream::<T>(tree), ours::<T>(tree));
            errors += usize::from(a.is_err());
            assert_eq!(a, b, "{tree}");
        }
        errors
    }

    /// The same values and, for every value of these trees replaced by a value of each JSON
    /// type, the same error at the same path as serde_path_to_error.
    #[test]
    fn every_mutant_reads_as_serde_path_to_error_reads_it() {
        let replacements = replacements();
        let replica = replica();
        let errors = same::<ReplicaSpec>(&mutants(&replica, &replacements));
        assert!(errors > 100, "{errors}");
        same::<ObjectMeta>(&mutants(&replica["template"]["metadata"], &replacements));
        same::<PodSpec>(&mutants(&replica["template"]["spec"], &replacements));
        let job: Value = serde_yaml::from_str(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j, labels: {a: b}}\nspec:\n  \
             runtimeRef: {name: torch-distributed}\n  trainer:\n    numNodes: 2\n    image: a:1\n    command: [torchrun]\n    \
             env: [{name: A, value: b}]\n    resourcesPerNode: {limits: {nvidia.com/gpu: 2}}\n  \
             podTemplateOverrides: [{targetJobs: [{name: node}], spec: {nodeSelector: {a: b}}}]\n",
        )
        .unwrap();
        same::<TrainJob>(&mutants(&job, &replacements));
        let runtime: Value = serde_yaml::from_str(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: r}\nspec:\n  \
             mlPolicy: {numNodes: 1, torch: {numProcPerNode: auto}}\n  template:\n    spec:\n      replicatedJobs:\n      \
             - name: node\n        replicas: 1\n        template:\n          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}\n          \
             spec:\n            template:\n              spec:\n                containers: [{name: node, image: a:1}]\n",
        )
        .unwrap();
        same::<TrainingRuntime>(&mutants(&runtime, &replacements));
    }

    /// A reading that leaves a pod spec's other fields in the tree reads what the whole reading
    /// reads, less those fields, and refuses every mutant of a replica spec with the same error at
    /// the same path: a value read into `extra` is never refused.
    #[test]
    fn every_mutant_reads_as_the_whole_reading_without_the_fields_left() {
        let mut compared = 0;
        for tree in mutants(&replica(), &replacements()) {
            let leaving = deserialize_leaving::<ReplicaSpec>(&tree, &["template", "spec"], PodSpec::NAMED);
            let whole = deserialize::<ReplicaSpec>(&tree).map(|mut replica| {
                replica.template.spec.extra = Default::default();
                replica
            });
            let error = |e: PathError| (e.path().to_string(), e.inner().to_string());
            assert_eq!(leaving.map_err(error), whole.map_err(error), "{tree}");
            compared += 1;
        }
        assert!(compared > 300, "{compared}");
    }

    /// No model holds an enum or denies unknown fields today; one that does reads the same too.
    #[test]
    fn enums_and_strict_structs_read_as_serde_path_to_error_reads_them() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        #[serde(deny_unknown_fields)]
        struct Strict {
            policy: Option<Policy>,
            list: Option<Vec<Policy>>,
        }
        #[derive(serde::Deserialize, Debug, PartialEq)]
        enum Policy {
            Always,
            Never,
            Some(u32),
            Pair(u32, String),
            Named { n: u32 },
        }
        let trees = [
            serde_json::json!({"policy": "Always"}),
            serde_json::json!({"policy": "Sometimes"}),
            serde_json::json!({"policy": 3}),
            serde_json::json!({"policy": {"Some": 4}}),
            serde_json::json!({"policy": {"Some": -4}}),
            serde_json::json!({"policy": {"Some": 4, "Never": null}}),
            serde_json::json!({"policy": {}}),
            serde_json::json!({"policy": {"Never": null}}),
            serde_json::json!({"policy": {"Never": 1}}),
            serde_json::json!({"policy": {"Pair": [1, "a"]}}),
            serde_json::json!({"policy": {"Pair": [1]}}),
            serde_json::json!({"policy": {"Pair": []}}),
            serde_json::json!({"policy": {"Pair": 1}}),
            serde_json::json!({"policy": {"Named": {"n": 1}}}),
            serde_json::json!({"policy": {"Named": {"m": 1}}}),
            serde_json::json!({"policy": {"Named": [1]}}),
            serde_json::json!({"policy": {"Named": 1}}),
            serde_json::json!({"policy": "Some"}),
            serde_json::json!({"policy": "Pair"}),
            serde_json::json!({"policy": "Named"}),
            serde_json::json!({"list": ["Never", {"Some": 1}, "Nope"]}),
            serde_json::json!({"polcy": "Always"}),
            serde_json::json!({"policy": 1.5}),
            serde_json::json!({"policy": {"Some": 1e300}}),
            serde_json::json!({"policy": {"Some": 2.0}}),
        ];
        assert_eq!(same::<Strict>(&trees), 20);
    }

    #[test]
    fn a_path_names_keys_and_indexes_as_serde_path_to_error_does() {
        let tree = serde_json::json!({"": {"containers": [{"name": "a", "ports": [{"containerPort": "x"}]}]}});
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Outer {
            #[serde(rename = "")]
            inner: PodSpec,
        }
        let error = ours::<Outer>(&tree).unwrap_err();
        assert_eq!(error, upstream::<Outer>(&tree).unwrap_err());
        assert_eq!(error.0, ".containers[0].ports[0].containerPort");
        assert_eq!(ours::<PodSpec>(&serde_json::json!(3)).unwrap_err().0, ".");
    }
}
