//! Whole numbers in requests, read as the API's document promises them.
//!
//! The document (JSON Schema) types a count, a level or a time as `integer`, and JSON Schema
//! counts `5.0` as the integer 5; `serde` on its own reads `5.0` into a `u8` as an error. The
//! request fields that hold whole numbers are read with these functions
//! (`#[serde(deserialize_with = "crate::whole::option")]`), which take a JSON integer or a
//! number with no fractional part (`5.0`, `1e3`), and refuse fractions, negative numbers, numbers
//! beyond the field's type and anything not a number (a string `"5"` too). Query strings, where
//! every value is text, use [`query_option`], which reads the text of such a number.

use serde::de::{self, Deserializer, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// A whole number no smaller than 0 and no larger than `u64::MAX` (`2^64` itself is refused).
struct Whole(u64);

/// The first float past `u64::MAX` (`2^64`): any float below it converts exactly.
const PAST_U64: f64 = 18_446_744_073_709_551_616.0;

fn from_float<E: de::Error>(v: f64) -> Result<Whole, E> {
    if v.is_finite() && v.fract() == 0.0 && (0.0..PAST_U64).contains(&v) {
        // Exact: a whole float in range converts without rounding.
        Ok(Whole(v as u64))
    } else {
        Err(E::invalid_value(
            de::Unexpected::Float(v),
            &"a whole number from 0",
        ))
    }
}

/// `text`: whether the number may come as text (a query string's value).
struct WholeVisitor {
    text: bool,
}

impl Visitor<'_> for WholeVisitor {
    type Value = Whole;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a whole number from 0")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Whole, E> {
        Ok(Whole(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Whole, E> {
        u64::try_from(v)
            .map(Whole)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Whole, E> {
        from_float(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Whole, E> {
        if !self.text {
            return Err(E::invalid_type(de::Unexpected::Str(v), &self));
        }
        if let Ok(n) = v.parse::<u64>() {
            return Ok(Whole(n));
        }
        // Only number text: "inf", "NaN" and the like parse as floats but are not numbers.
        let numeric = v
            .bytes()
            .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b));
        match v.parse::<f64>() {
            Ok(f) if numeric => from_float(f),
            _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
        }
    }
}

fn narrow<T: TryFrom<u64>, E: de::Error>(n: u64) -> Result<T, E> {
    T::try_from(n).map_err(|_| {
        E::invalid_value(
            de::Unexpected::Unsigned(n),
            &"a number in the range of the field",
        )
    })
}

fn whole<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D, text: bool) -> Result<T, D::Error> {
    let Whole(n) = d.deserialize_any(WholeVisitor { text })?;
    narrow(n)
}

/// Reads a whole number of a JSON body into `T` (`u8` ... `u64`, `usize`); see the module doc.
pub fn exact<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    whole(d, false)
}

/// Reads an optional whole number of a JSON body into `Option<T>` (`null` and, with
/// `#[serde(default)]`, an absent field are `None`); see the module doc.
pub fn option<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    optional(d, false)
}

/// Reads an optional whole number of a query string (text) into `Option<T>`; see the module doc.
pub fn query_option<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    optional(d, true)
}

fn optional<'de, D, T>(d: D, text: bool) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    struct OptionVisitor<T> {
        text: bool,
        kind: PhantomData<T>,
    }

    impl<'de, T: TryFrom<u64>> Visitor<'de> for OptionVisitor<T> {
        type Value = Option<T>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a whole number from 0, or null")
        }

        fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
            Ok(None)
        }

        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Option<T>, D2::Error> {
            whole(d, self.text).map(Some)
        }
    }

    d.deserialize_option(OptionVisitor {
        text,
        kind: PhantomData,
    })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Body {
        #[serde(default, deserialize_with = "super::option")]
        level: Option<u8>,
        #[serde(default, deserialize_with = "super::option")]
        time_ms: Option<u64>,
    }

    fn read(text: &str) -> Result<Body, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn integers_and_whole_floats_are_read() {
        let b = read(r#"{"level": 5.0, "time_ms": 1e3}"#).expect("whole floats");
        assert_eq!((b.level, b.time_ms), (Some(5), Some(1000)));
        let b = read(r#"{"level": 7, "time_ms": 18446744073709551615}"#).expect("integers");
        assert_eq!((b.level, b.time_ms), (Some(7), Some(u64::MAX)));
        let b = read(r#"{"level": null}"#).expect("null");
        assert_eq!((b.level, b.time_ms), (None, None));
    }

    #[test]
    fn fractions_negatives_and_overflow_are_refused() {
        for text in [
            r#"{"level": 5.5}"#,
            r#"{"level": -1}"#,
            r#"{"level": -0.5}"#,
            r#"{"level": 256}"#,
            r#"{"level": 256.0}"#,
            r#"{"time_ms": 18446744073709551616}"#,
            r#"{"time_ms": 1.8446744073709552e19}"#,
            r#"{"time_ms": 1e400}"#,
            r#"{"level": "5"}"#,
            r#"{"level": true}"#,
        ] {
            assert!(read(text).is_err(), "{text} was read");
        }
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Query {
        #[serde(default, deserialize_with = "super::query_option")]
        ply: Option<usize>,
    }

    #[test]
    fn query_text_is_read_as_a_number() {
        let q: Query = serde_json::from_str(r#"{"ply": "12"}"#).expect("text");
        assert_eq!(q.ply, Some(12));
        let q: Query = serde_json::from_str(r#"{"ply": "12.0"}"#).expect("whole text");
        assert_eq!(q.ply, Some(12));
        for text in [
            r#"{"ply": "12.5"}"#,
            r#"{"ply": "inf"}"#,
            r#"{"ply": "-3"}"#,
        ] {
            assert!(
                serde_json::from_str::<Query>(text).is_err(),
                "{text} was read"
            );
        }
    }
}
