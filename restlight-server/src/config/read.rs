//! Reading a parsed table into the sections: each key's value converted by
//! its field's type, an unknown key refused with the keys its table has,
//! and every error naming the key in full (`server.port`).
//!
//! The sections are read from a [`toml::Table`] by hand rather than by
//! serde's derive: the derive instantiates a deserializer for every section
//! and every field type against `toml::Value`, some 120 KB of machine code
//! for a file read once at start; here each field type has one converter,
//! shared by every section.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::PathBuf;

/// A key that cannot be read, and why.
#[derive(Debug)]
pub(crate) struct KeyError {
    /// In full: `table.key`, or the table's name.
    pub(crate) key: String,
    /// What is wrong with it.
    pub(crate) message: String,
}

/// A type a key's value is read into.
pub(crate) trait Setting: Sized {
    /// The value as this type, or what was expected.
    fn read(value: &toml::Value) -> Result<Self, String>;
}

/// `table.key`'s value as `T`. Kept out of line: inlined, it is copied
/// into every field's arm of every section (6 KB of the binary).
#[inline(never)]
pub(crate) fn field<T: Setting>(table: &str, key: &str, value: &toml::Value) -> Result<T, KeyError> {
    T::read(value).map_err(|message| KeyError { key: format!("{table}.{key}"), message })
}

/// `table.key` is not one of `keys`.
pub(crate) fn unknown(table: &str, key: &str, keys: &[&str]) -> KeyError {
    KeyError { key: format!("{table}.{key}"), message: format!("unknown key, [{table}] has: {}", keys.join(", ")) }
}

/// The value of the top-level key `name` as a table.
pub(crate) fn table<'a>(name: &str, value: &'a toml::Value) -> Result<&'a toml::Table, KeyError> {
    match value {
        toml::Value::Table(table) => Ok(table),
        other => Err(KeyError { key: name.to_owned(), message: expected("a table", other) }),
    }
}

/// Parses a TOML document: `toml`'s spanned parse, whose values
/// [`table_of`] converts and whose spans [`locate`] reads on the error
/// path, so that a file is parsed once.
///
/// # Errors
/// A syntax error as `toml` words it (with its line and the line's text).
pub(crate) fn parse_document(text: &str) -> Result<toml::Spanned<toml::de::DeTable<'_>>, String> {
    toml::de::DeTable::parse(text).map_err(|e| e.to_string())
}

/// Parses a TOML document into a table: [`parse_document`], then
/// [`table_of`]. The tests' way to a table (a file is read by
/// `FileConfig::read`, which keeps the parse for its errors' lines).
///
/// # Errors
/// As [`parse_document`] and [`table_of`].
#[cfg(test)]
pub(crate) fn parse_table(text: &str) -> Result<toml::Table, String> {
    table_of(text, parse_document(text)?.get_ref())
}

/// The values of `table`, a table of the document `text`, converted here:
/// `toml`'s own `Table::from_str` converts the same parse through serde,
/// which links its deserializer for `toml::Value` (some 15 KB of the
/// service's binary) for a file read once at start, if ever.
///
/// # Errors
/// An integer that does not fit in 64 bits, or a float written too large,
/// with its line and column.
pub(crate) fn table_of(text: &str, table: &toml::de::DeTable<'_>) -> Result<toml::Table, String> {
    let mut out = toml::Table::new();
    for (key, value) in table {
        out.insert(key.get_ref().to_string(), value_of(text, value)?);
    }
    Ok(out)
}

fn value_of(text: &str, value: &toml::Spanned<toml::de::DeValue<'_>>) -> Result<toml::Value, String> {
    use toml::de::DeValue;
    let out_of_range = |what: &str, written: &str| {
        let (line, column) = line_column(text, value.span().start).unwrap_or((0, 0));
        format!("line {line}, column {column}: {what} `{written}` is out of range")
    };
    Ok(match value.get_ref() {
        DeValue::String(s) => toml::Value::String(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => toml::Value::Integer(n),
            Err(_) => return Err(out_of_range("integer", &i.to_string())),
        },
        DeValue::Float(f) => match f.as_str().parse::<f64>() {
            // `inf` is written as such; a finite number too large for a
            // float is refused, as `toml` refuses it.
            Ok(x) if !x.is_infinite() || f.as_str().contains("inf") => toml::Value::Float(x),
            _ => return Err(out_of_range("float", f.as_str())),
        },
        DeValue::Boolean(b) => toml::Value::Boolean(*b),
        DeValue::Datetime(d) => toml::Value::Datetime(*d),
        DeValue::Array(items) => {
            toml::Value::Array(items.into_iter().map(|item| value_of(text, item)).collect::<Result<_, _>>()?)
        }
        DeValue::Table(table) => toml::Value::Table(table_of(text, table)?),
    })
}

/// The line and column, counted from one, of the byte `at` of `text`.
fn line_column(text: &str, at: usize) -> Option<(usize, usize)> {
    let before = text.get(..at)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Some((before.matches('\n').count() + 1, before[line_start..].chars().count() + 1))
}

/// `expected <what>, found <value>`, the value shown with its TOML type.
pub(crate) fn expected(what: &str, found: &toml::Value) -> String {
    let found = match found {
        toml::Value::String(s) => format!("string {s:?}"),
        toml::Value::Integer(i) => format!("integer {i}"),
        toml::Value::Float(f) => format!("float {f}"),
        toml::Value::Boolean(b) => format!("boolean {b}"),
        toml::Value::Datetime(d) => format!("datetime {d}"),
        toml::Value::Array(_) => "an array".to_owned(),
        toml::Value::Table(_) => "a table".to_owned(),
    };
    format!("expected {what}, found {found}")
}

/// Where in `text`, whose parse is `root`, the key `key` (`table.key`, or
/// a table's name) is written, as a line and a column counted from one.
pub(crate) fn locate(text: &str, root: &toml::de::DeTable<'_>, key: &str) -> Option<(usize, usize)> {
    let (name, rest) = key.split_once('.').unwrap_or((key, ""));
    let (outer, value) = root.get_key_value(name)?;
    let span = match (rest, value.get_ref()) {
        ("", _) => outer.span(),
        (rest, toml::de::DeValue::Table(inner)) => inner.get_key_value(rest)?.0.span(),
        _ => return None,
    };
    line_column(text, span.start)
}

macro_rules! whole_numbers {
    ($($ty:ty),*) => {$(
        impl Setting for $ty {
            fn read(value: &toml::Value) -> Result<Self, String> {
                let what = || format!("a whole number from 0 to {}", <$ty>::MAX);
                match value {
                    toml::Value::Integer(i) => <$ty>::try_from(*i).map_err(|_| expected(&what(), value)),
                    other => Err(expected(&what(), other)),
                }
            }
        }
    )*};
}

whole_numbers!(u16, u32, u64, usize);

impl Setting for bool {
    fn read(value: &toml::Value) -> Result<Self, String> {
        value.as_bool().ok_or_else(|| expected("`true` or `false`", value))
    }
}

impl Setting for f64 {
    fn read(value: &toml::Value) -> Result<Self, String> {
        match value {
            toml::Value::Float(f) => Ok(*f),
            toml::Value::Integer(i) => Ok(*i as f64),
            other => Err(expected("a number", other)),
        }
    }
}

impl Setting for String {
    fn read(value: &toml::Value) -> Result<Self, String> {
        value.as_str().map(str::to_owned).ok_or_else(|| expected("a string", value))
    }
}

impl Setting for PathBuf {
    fn read(value: &toml::Value) -> Result<Self, String> {
        value.as_str().map(PathBuf::from).ok_or_else(|| expected("a path (a string)", value))
    }
}

impl Setting for IpAddr {
    fn read(value: &toml::Value) -> Result<Self, String> {
        value.as_str().and_then(|s| s.parse().ok()).ok_or_else(|| expected("an IP address (a string)", value))
    }
}

impl Setting for Vec<String> {
    fn read(value: &toml::Value) -> Result<Self, String> {
        let what = "a list of strings";
        let items = value.as_array().ok_or_else(|| expected(what, value))?;
        items.iter().map(|item| item.as_str().map(str::to_owned).ok_or_else(|| expected(what, item))).collect()
    }
}

impl Setting for BTreeMap<String, String> {
    fn read(value: &toml::Value) -> Result<Self, String> {
        let what = "a table of strings";
        let table = value.as_table().ok_or_else(|| expected(what, value))?;
        // Inserted one by one: `collect` into a map links a sort.
        let mut map = BTreeMap::new();
        for (name, v) in table {
            let s = v.as_str().ok_or_else(|| format!("`{name}`: {}", expected(what, v)))?;
            map.insert(name.clone(), s.to_owned());
        }
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> toml::Value {
        parse_table(&format!("v = {text}")).unwrap().remove("v").unwrap()
    }

    #[test]
    fn whole_numbers_are_checked_against_their_type() {
        assert_eq!(u16::read(&value("8080")), Ok(8080));
        assert_eq!(
            u16::read(&value("70000")).unwrap_err(),
            "expected a whole number from 0 to 65535, found integer 70000"
        );
        assert_eq!(
            usize::read(&value("-1")).unwrap_err(),
            format!("expected a whole number from 0 to {}, found integer -1", usize::MAX)
        );
        assert_eq!(
            u64::read(&value("\"5s\"")).unwrap_err(),
            "expected a whole number from 0 to 18446744073709551615, found string \"5s\""
        );
    }

    #[test]
    fn each_type_names_what_it_expected_and_what_it_found() {
        assert_eq!(bool::read(&value("\"yes\"")).unwrap_err(), "expected `true` or `false`, found string \"yes\"");
        assert_eq!(f64::read(&value("1")), Ok(1.0));
        assert_eq!(f64::read(&value("0.25")), Ok(0.25));
        assert_eq!(String::read(&value("[1]")).unwrap_err(), "expected a string, found an array");
        assert_eq!(IpAddr::read(&value("\"::1\"")), Ok("::1".parse().unwrap()));
        assert_eq!(
            IpAddr::read(&value("\"localhost\"")).unwrap_err(),
            "expected an IP address (a string), found string \"localhost\""
        );
        assert_eq!(Vec::<String>::read(&value("[\"a\", \"b\"]")), Ok(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(
            Vec::<String>::read(&value("[\"a\", 2]")).unwrap_err(),
            "expected a list of strings, found integer 2"
        );
        assert_eq!(Vec::<String>::read(&value("\"a\"")).unwrap_err(), "expected a list of strings, found string \"a\"");
        let map = BTreeMap::<String, String>::read(&value("{ a = \"1\" }")).unwrap();
        assert_eq!(map.get("a").map(String::as_str), Some("1"));
        assert_eq!(
            BTreeMap::<String, String>::read(&value("{ a = 1 }")).unwrap_err(),
            "`a`: expected a table of strings, found integer 1"
        );
        assert_eq!(PathBuf::read(&value("{}")).unwrap_err(), "expected a path (a string), found a table");
    }

    #[test]
    fn a_document_reads_as_toml_reads_it() {
        let text = r#"
            top = "a"
            [server]
            port = 8_080
            hex = 0xff
            oct = 0o17
            bin = -0
            neg = -42
            ratio = 6.5e-1
            big = +inf
            small = -inf
            when = 1979-05-27T07:32:00Z
            day = 1979-05-27
            on = true
            raw = 'C:\x'
            long = """
            two
            lines"""
            list = [1, "two", [3.0], { four = 4 }]
            [server.nested]
            dotted.key = "x"
            [[items]]
            name = "first"
            [[items]]
            name = "second"
        "#;
        let ours = parse_table(text).unwrap();
        let theirs: toml::Table = text.parse().unwrap();
        assert_eq!(ours, theirs);
        let nan = parse_table("v = nan").unwrap();
        assert!(nan["v"].as_float().is_some_and(f64::is_nan));
    }

    #[test]
    fn a_number_out_of_range_is_refused_with_its_place() {
        assert_eq!(
            parse_table("[server]\nport = 9223372036854775808\n").unwrap_err(),
            "line 2, column 8: integer `9223372036854775808` is out of range"
        );
        assert_eq!(parse_table("x = 1e400").unwrap_err(), "line 1, column 5: float `1e400` is out of range");
        assert!(parse_table("x = ").unwrap_err().contains("line 1"), "a syntax error keeps toml's wording");
    }

    #[test]
    fn a_key_is_located_by_line_and_column() {
        let text = "[server]\nport = 1\n\n[actuator]\n  base_path = \"/x\"\n";
        let locate = |text, key| locate(text, parse_document(text).unwrap().get_ref(), key);
        assert_eq!(locate(text, "server.port"), Some((2, 1)));
        assert_eq!(locate(text, "actuator.base_path"), Some((5, 3)));
        assert_eq!(locate(text, "actuator"), Some((4, 2)));
        assert_eq!(locate(text, "server.bind"), None);
        assert_eq!(locate("top = 1\n", "top"), Some((1, 1)));
    }
}
