//! Reading the `RESTLIGHT_SERVER_*` environment variables.

use std::collections::HashMap;

use super::sections::TABLES;
use super::{ConfigError, FileConfig, ENV_PREFIX};

/// `{table: {key: value}}`: one variable, checked on its own.
fn one(table: &str, key: &str, value: toml::Value) -> toml::Table {
    let mut inner = toml::Table::new();
    inner.insert(key.to_owned(), value);
    let mut outer = toml::Table::new();
    outer.insert(table.to_owned(), inner.into());
    outer
}

/// The keys whose environment variable is a comma-separated list.
const LIST_KEYS: [&str; 2] = ["server.allow_ips", "actuator.expose"];

/// The keys whose environment variable is a comma-separated list of
/// `name=value` pairs (as `OTEL_EXPORTER_OTLP_HEADERS` is written).
const MAP_KEYS: [&str; 1] = ["otel.headers"];

/// The value of one variable: a TOML scalar when it reads as one, else the
/// raw text; a list split on commas for the list keys, a table of
/// `name=value` pairs for the map keys.
fn env_value(key: &str, raw: &str) -> toml::Value {
    if MAP_KEYS.contains(&key) {
        let mut table = toml::Table::new();
        for pair in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            // A pair without `=` is kept whole as a name with no value,
            // which the check refuses, naming it.
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            table.insert(name.trim().to_owned(), value.trim().to_owned().into());
        }
        return table.into();
    }
    if LIST_KEYS.contains(&key) {
        return toml::Value::Array(
            raw.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.to_owned().into()).collect(),
        );
    }
    scalar(raw).unwrap_or_else(|| raw.into())
}

/// A variable's text read as a TOML scalar, as it would be read after
/// `key = ` in a file: a boolean; an integer (decimal, with `_` between
/// digits, or `0x`, `0o`, `0b`) that fits in an `i64`; a float (`1.5`,
/// `6e-3`, `inf`, `nan`) that is finite unless written infinite; or a
/// one-line quoted string (`"..."` with TOML's escapes, `'...'` as
/// written). Blanks around it and a `#` comment after it are skipped.
/// `None` for anything else (arrays, tables, dates, multi-line strings,
/// text), which the caller takes as text.
///
/// Read by hand rather than by `toml`'s document parser, so that the
/// parser (about 140 KB of a stripped binary) is linked only into a
/// service that reads a configuration file.
fn scalar(text: &str) -> Option<toml::Value> {
    let text = text.trim_matches([' ', '\t', '\r', '\n']);
    let (value, rest) = match text.as_bytes().first()? {
        b'"' => quoted(&text[1..], true)?,
        b'\'' => quoted(&text[1..], false)?,
        _ => {
            let end = text.find([' ', '\t', '#']).unwrap_or(text.len());
            (bare(&text[..end])?, &text[end..])
        }
    };
    let rest = rest.trim_start_matches([' ', '\t']);
    (rest.is_empty() || rest.starts_with('#')).then_some(value)
}

/// A string after its opening quote: its value and the text after its
/// closing quote. A basic string (`escapes`) reads TOML's escapes; a
/// literal one takes its text as written. Control characters but tab are
/// refused, as in TOML.
fn quoted(text: &str, escapes: bool) -> Option<(toml::Value, &str)> {
    let close = if escapes { '"' } else { '\'' };
    let mut out = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c == close => return Some((toml::Value::String(out), &text[at + 1..])),
            '\\' if escapes => out.push(match chars.next()?.1 {
                'b' => '\u{8}',
                't' => '\t',
                'n' => '\n',
                'f' => '\u{c}',
                'r' => '\r',
                'e' => '\u{1b}',
                '"' => '"',
                '\\' => '\\',
                kind @ ('x' | 'u' | 'U') => {
                    let len = match kind {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let start = chars.next()?.0;
                    let hex = text.get(start..start + len).filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))?;
                    (1..len).try_for_each(|_| chars.next().map(drop))?;
                    char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                }
                _ => return None,
            }),
            '\t' => out.push(c),
            c if c.is_control() => return None,
            c => out.push(c),
        }
    }
    None
}

/// A boolean, an integer or a float written without quotes.
fn bare(text: &str) -> Option<toml::Value> {
    match text {
        "true" => return Some(toml::Value::Boolean(true)),
        "false" => return Some(toml::Value::Boolean(false)),
        _ => {}
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = text.strip_prefix(prefix) {
            return i64::from_str_radix(&joined(digits, radix)?, radix).ok().map(toml::Value::Integer);
        }
    }
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    if matches!(unsigned, "inf" | "nan") {
        return text.parse().ok().map(toml::Value::Float);
    }
    // The whole part, then a fraction and an exponent for a float.
    let whole_end = unsigned.find(['.', 'e', 'E']).unwrap_or(unsigned.len());
    let whole = joined(&unsigned[..whole_end], 10)?;
    if whole.len() > 1 && whole.starts_with('0') {
        return None;
    }
    let sign = &text[..text.len() - unsigned.len()];
    let rest = &unsigned[whole_end..];
    if rest.is_empty() {
        return format!("{sign}{whole}").parse().ok().map(toml::Value::Integer);
    }
    let (fraction, exponent) = match rest.strip_prefix('.') {
        Some(after) => match after.find(['e', 'E']) {
            Some(e) => (Some(&after[..e]), Some(&after[e + 1..])),
            None => (Some(after), None),
        },
        None => (None, Some(&rest[1..])),
    };
    let mut number = format!("{sign}{whole}");
    if let Some(fraction) = fraction {
        number.push('.');
        number.push_str(&joined(fraction, 10)?);
    }
    if let Some(exponent) = exponent {
        let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        number.push('e');
        number.push_str(&exponent[..exponent.len() - digits.len()]);
        number.push_str(&joined(digits, 10)?);
    }
    // A finite number too large for a float is refused, as `toml` does.
    number.parse::<f64>().ok().filter(|x| x.is_finite()).map(toml::Value::Float)
}

/// Digits of `radix` with single `_` between them (TOML's rule), without
/// the `_`s; `None` when empty or written otherwise.
fn joined(digits: &str, radix: u32) -> Option<String> {
    let mut out = String::with_capacity(digits.len());
    let mut after_digit = false;
    for c in digits.chars() {
        match c {
            '_' if after_digit => after_digit = false,
            c if c.is_digit(radix) => {
                out.push(c);
                after_digit = true;
            }
            _ => return None,
        }
    }
    after_digit.then_some(out)
}

impl FileConfig {
    /// The `RESTLIGHT_SERVER_*` variables among `vars`, one key each,
    /// checked as [`check`](Self::check) does (an error names the variable).
    pub(crate) fn from_env(vars: impl IntoIterator<Item = (String, String)>) -> Result<Self, ConfigError> {
        let mut root = toml::Table::new();
        let mut names = HashMap::new();
        for (name, raw) in vars {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else { continue };
            let rest = rest.to_ascii_lowercase();
            // The tables besides `[server]` have variables named
            // `RESTLIGHT_SERVER_<TABLE>_<KEY>`.
            let (table, key) = TABLES[1..]
                .iter()
                .find_map(|t| Some((*t, rest.strip_prefix(t)?.strip_prefix('_')?)))
                .unwrap_or(("server", rest.as_str()));
            let full = format!("{table}.{key}");
            let typed = env_value(&full, &raw);
            // One variable at a time, so an error names its variable; a
            // value that reads as a number or a boolean where text is
            // expected (a path, a name) is taken as text.
            let value = match Self::from_root(&one(table, key, typed.clone())) {
                Ok(_) => typed,
                Err(e) => {
                    let text = toml::Value::String(raw.clone());
                    if !typed.is_str() && Self::from_root(&one(table, key, text.clone())).is_ok() {
                        text
                    } else {
                        return Err(ConfigError::Env { key: name, message: format!("`{full}`: {}", e.message) });
                    }
                }
            };
            if let toml::Value::Table(t) = root.entry(table).or_insert_with(|| toml::Table::new().into()) {
                t.insert(key.to_owned(), value);
            }
            names.insert(full, name);
        }
        let config = Self::from_root(&root).map_err(|e| ConfigError::Env {
            key: names.get(&e.key).cloned().unwrap_or_else(|| ENV_PREFIX.to_owned() + "*"),
            message: format!("`{}`: {}", e.key, e.message),
        })?;
        config.check().map_err(|err| match err {
            ConfigError::Invalid { key, message } => {
                let var = names.get(&key).cloned().unwrap_or_else(|| ENV_PREFIX.to_owned() + "*");
                ConfigError::Env { key: var, message: format!("`{key}`: {message}") }
            }
            other => other,
        })?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::parse_table;
    use super::scalar;

    /// What `toml`'s document parser reads after `v = `, when it is a
    /// scalar.
    fn toml_reads(text: &str) -> Option<toml::Value> {
        match parse_table(&format!("v = {text}")).ok()?.remove("v")? {
            v
            @ (toml::Value::String(_) | toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_)) => {
                Some(v)
            }
            _ => None,
        }
    }

    #[test]
    fn a_variable_reads_as_the_toml_parser_reads_the_same_text() {
        let cases = [
            "8080",
            "0",
            "-0",
            "+0",
            "+17",
            "-17",
            "1_000",
            "1__000",
            "_1",
            "1_",
            "007",
            "0_1",
            "0x1F",
            "0xdead_beef",
            "0o17",
            "0b101",
            "-0x1",
            "0x",
            "0x_1",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "1.5",
            "-0.25",
            "1e3",
            "1E-3",
            "6.02e+23",
            "1.5e06",
            "1_0.2_5",
            "1.",
            ".5",
            "1.e3",
            "01.5",
            "1e",
            "1e_3",
            "inf",
            "+inf",
            "-inf",
            "1e400",
            "true",
            "false",
            "True",
            "yes",
            "\"text\"",
            "\"\"",
            "\"a\\\"b\"",
            "\"tab\\there\"",
            "\"\\e\"",
            "\"\\x41\"",
            "\"\\u00e9t\\u00E9\"",
            "\"\\U0001F600\"",
            "\"\\u+041\"",
            "\"\\q\"",
            "\"open",
            "'C:\\dir'",
            "'it''s'",
            "'x'",
            "127.0.0.1",
            "10.0.0.0/8",
            "/path/to",
            "1979-05-27",
            "07:32:00",
            "[1, 2]",
            "{ a = 1 }",
            "  42  ",
            "42 # the answer",
            "\"a\" # note",
            "42 x",
            "#",
            "\"a#b\"",
            "health,info",
            "\u{e9}t\u{e9}",
            "1.5 ",
            "\t7",
        ];
        for text in cases {
            assert_eq!(scalar(text), toml_reads(text), "{text:?}");
        }
        // NaN is never equal to itself.
        for text in ["nan", "+nan", "-nan"] {
            assert!(matches!(scalar(text), Some(toml::Value::Float(x)) if x.is_nan()), "{text}");
            assert!(matches!(toml_reads(text), Some(toml::Value::Float(x)) if x.is_nan()), "{text}");
        }
    }
}
